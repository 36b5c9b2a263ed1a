import { describe, expect, it } from 'vitest';
import { RollupSums } from './rollup-sums.ts';

describe('rollup sums', () => {
  it('hands its sums back in (dimension, period, value) order, as one joined key would sort', () => {
    const sums = new RollupSums<number>();
    const keys: [string, string, string][] = [
      ['page', '2026-11-27', '/b'],
      ['page', '2026-11-26', '/z'],
      ['country', '2026-11-27', ''],
      ['page', '2026-11-27', '/a/b'],
      ['page', '2026-11-27', '/a'],
      ['pages', '2026-11-01', '/'],
      ['page', '2026-11-27', '\u{1F600}'],
      ['page', '2026-11-27', '\uFFFD'],
    ];
    keys.forEach(([dimension, period, value], i) => {
      sums.set(dimension, period, value, i);
    });
    const joined = keys.map((k) => k.join('\u0000')).sort();
    expect(sums.sorted().map((r) => [r.dimension, r.period, r.value].join('\u0000'))).toEqual(joined);
    expect(sums.get('page', '2026-11-27', '/a')).toBe(4);
    expect(sums.get('page', '2026-11-28', '/a')).toBeUndefined();
  });
});
