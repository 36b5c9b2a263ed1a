import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { byCodePoint, topBy } from './rank.ts';

describe('ranking in code point order', () => {
  it('orders strings as their UTF-8 bytes order (SQLite BINARY, PostgreSQL "C")', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme' }), (a, b) => {
        const bytes = Math.sign(Buffer.compare(Buffer.from(a), Buffer.from(b)));
        expect(Math.sign(byCodePoint(a, b))).toBe(bytes);
      }),
    );
    // An astral character sorts after U+FFFD, unlike UTF-16 order.
    expect(byCodePoint('\u{1F600}', '\uFFFD')).toBeGreaterThan(0);
  });

  it('keeps the first N by score, ties by value, and drops what scores nothing', () => {
    const rows = [
      { value: 'b', n: 2 },
      { value: 'a', n: 2 },
      { value: 'z', n: 5 },
      { value: 'gone', n: 0 },
    ];
    expect(topBy(rows, (r) => r.n, 3).map((r) => r.value)).toEqual(['z', 'a', 'b']);
    expect(topBy(rows, (r) => r.n, 10)).toHaveLength(3);
  });
});
