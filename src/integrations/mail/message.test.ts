import { describe, expect, it } from 'vitest';
import { headerSafe } from './message.ts';

describe('headerSafe', () => {
  it('puts a value on one line without control characters or bidi overrides', () => {
    expect(headerSafe('a\r\nBcc: x@y\u0000z')).toBe('a Bcc: x@y z');
    expect(headerSafe('Lucía\u202Eolleh \u2066(Café)\u2069')).toBe('Lucíaolleh (Café)');
  });

  it('cuts between characters, never inside a surrogate pair', () => {
    const cut = headerSafe(`${'x'.repeat(199)}😀tail`, 200);
    expect(cut).toBe('x'.repeat(199));
    expect(cut.isWellFormed()).toBe(true);
    expect(headerSafe(`${'x'.repeat(198)}😀tail`, 200)).toBe(`${'x'.repeat(198)}😀`);
  });
});
