import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RollupSums } from './rollup-sums.ts';
import type { VisitRow } from './tables.ts';
import {
  VISIT_DIMENSIONS,
  VISIT_METRICS,
  type VisitMetrics,
  visitMetrics,
  visitRollupDeltas,
} from './visits.ts';

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

const text = fc.constantFrom('/', '/a', '/b', 'x', '', '\ud800');
const orNull = fc.option(text, { nil: null });
const visit = fc.record<VisitRow>({
  id: fc.constant('v'),
  day: fc.constant('2026-11-27'),
  visitor_hash: fc.constant('h'),
  started_at: fc.integer({ min: 0, max: 1000 }),
  last_at: fc.integer({ min: 1000, max: 5000 }),
  new_visitor: fc.integer({ min: 0, max: 1 }),
  entry_page: text,
  exit_page: text,
  pageviews: fc.nat(5),
  events: fc.nat(9),
  interactions: fc.nat(5),
  engagement_ms: fc.nat(9000),
  conversions: fc.nat(2),
  source: orNull,
  referrer_host: orNull,
  utm_source: orNull,
  utm_medium: orNull,
  utm_campaign: orNull,
  country: orNull,
  device: orNull,
  browser: orNull,
  os: orNull,
  sample: fc.nat(9999),
});

/** What a batch's changes move, written the plain way: every old visit taken away, every new one added. */
function plainDeltas(changes: { before: VisitRow | null; after: VisitRow }[]): Map<string, VisitMetrics> {
  const sums = new Map<string, VisitMetrics>();
  const add = (v: VisitRow, sign: number) => {
    for (const [dimension, nameOf] of Object.entries(VISIT_DIMENSIONS)) {
      const value = (nameOf as (v: VisitRow) => string | null)(v);
      if (value === null) continue;
      const key = `${dimension}\u0000${v.day}\u0000${value.toWellFormed()}`;
      const sum = sums.get(key) ?? (Object.fromEntries(VISIT_METRICS.map((m) => [m, 0])) as VisitMetrics);
      for (const metric of VISIT_METRICS) sum[metric] += sign * visitMetrics(v)[metric];
      sums.set(key, sum);
    }
  };
  for (const { before, after } of changes) {
    if (before) add(before, -1);
    add(after, 1);
  }
  return sums;
}

describe('visit rollup deltas', () => {
  it('move each dimension value as taking every visit before away and adding it after would', () => {
    // A stored visit extended (its exit page and metrics move, the rest stays), a new one, or any pair.
    const change = fc.oneof(
      fc.tuple(visit, visit).map(([before, later]) => ({
        before,
        after: { ...later, entry_page: before.entry_page, source: before.source, device: before.device },
      })),
      visit.map((after) => ({ before: null, after })),
      fc.record({ before: visit, after: visit }),
    );
    fc.assert(
      fc.property(fc.array(change, { maxLength: 6 }), (changes) => {
        const computed = new Map(
          visitRollupDeltas(changes)
            .sorted()
            .map((r) => [`${r.dimension}\u0000${r.period}\u0000${r.value}`, r.sum]),
        );
        const plain = plainDeltas(changes);
        expect([...computed.keys()].sort()).toEqual([...plain.keys()].sort());
        for (const [key, sum] of plain) expect(computed.get(key)).toEqual(sum);
      }),
    );
  });
});
