import fc from 'fast-check';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase, testEngines } from '../../../test/support/database.ts';
import type { Db } from '../../db/database.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { filtersOf } from './filters.ts';
import { ANALYTICS_LIMITS as L } from './limits.ts';
import { tierPlan } from './rollup-tiers.ts';
import { readSampledReport, sampleThreshold } from './sampled-stats.ts';
import { readAnalyticsStats } from './stats.ts';
import { writeBatch } from './store.ts';
import type { TrackedEvent } from './tables.ts';
import { buildEventRow, uuidv7 } from './track.ts';
import { readFilteredEvents, readFilteredVisits } from './visit-stats.ts';
import { SAMPLE_KEYS, sampleKey } from './visits.ts';

/* The read side at scale (docs/analytics.md, "Reading at scale"): the monthly rollup tier and sampling. */

const DAY_MS = 86_400_000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

describe('the rollup tiers plan', () => {
  it('covers every day of the range exactly once, reading at most 30 days from the daily rows', () => {
    const base = Date.parse('2024-01-01T00:00:00Z');
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1200 }), fc.integer({ min: 0, max: 500 }), (start, length) => {
        const range = { from: dayOf(base + start * DAY_MS), to: dayOf(base + (start + length) * DAY_MS) };
        const plan = tierPlan(range);
        const counted = new Map<string, number>();
        const add = (from: string, to: string, by: number) => {
          for (let ms = Date.parse(from); ms <= Date.parse(to); ms += DAY_MS) {
            counted.set(dayOf(ms), (counted.get(dayOf(ms)) ?? 0) + by);
          }
        };
        if (plan.months) {
          for (
            let ms = Date.parse(`${plan.months.from}-01`);
            dayOf(ms).slice(0, 7) <= plan.months.to;
            ms += DAY_MS
          ) {
            add(dayOf(ms), dayOf(ms), 1);
          }
        }
        for (const r of plan.plus) add(r.from, r.to, 1);
        for (const r of plan.minus) add(r.from, r.to, -1);
        for (const [day, n] of counted) expect(n, day).toBe(day >= range.from && day <= range.to ? 1 : 0);
        expect(counted.get(range.from)).toBe(1);
        expect(counted.get(range.to)).toBe(1);
        const daysRead = [...plan.plus, ...plan.minus].reduce(
          (n, r) => n + (Date.parse(r.to) - Date.parse(r.from)) / DAY_MS + 1,
          0,
        );
        expect(daysRead).toBeLessThanOrEqual(30);
      }),
      { numRuns: 500 },
    );
  });

  it('reads the current month up to today as its row minus the days to come', () => {
    expect(tierPlan({ from: '2026-08-29', to: '2026-11-26' })).toEqual({
      months: { from: '2026-09', to: '2026-11' },
      plus: [{ from: '2026-08-29', to: '2026-08-31' }],
      minus: [{ from: '2026-11-27', to: '2026-11-30' }],
    });
    expect(tierPlan({ from: '2024-02-01', to: '2024-02-29' })).toEqual({
      months: { from: '2024-02', to: '2024-02' },
      plus: [],
      minus: [],
    });
  });
});

describe('sampling', () => {
  it('reads everything within the budget, else the largest share that fits both budgets', () => {
    const budget = { visits: 20_000, events: 60_000 };
    expect(sampleThreshold({ visits: 0, events: 0 }, budget)).toBe(SAMPLE_KEYS);
    expect(sampleThreshold({ visits: 20_000, events: 60_000 }, budget)).toBe(SAMPLE_KEYS);
    expect(sampleThreshold({ visits: 3_571_470, events: 10_000_173 }, budget)).toBe(55);
    expect(sampleThreshold({ visits: 40_000, events: 600_000 }, budget)).toBe(1000);
    expect(sampleThreshold({ visits: 1e12, events: 1e12 }, budget)).toBe(1);
    expect(sampleThreshold({ visits: 20_001, events: 0 })).toBeLessThan(SAMPLE_KEYS);
    expect(L.sampleBudget.visits).toBeGreaterThan(0);
  });

  it("a visit's sample key comes from its id's random bits: 0–9999, spread evenly", () => {
    const keys = Array.from({ length: 20_000 }, () => sampleKey(uuidv7(Date.parse('2026-03-01T10:00:00Z'))));
    expect(keys.every((k) => Number.isInteger(k) && k >= 0 && k < SAMPLE_KEYS)).toBe(true);
    const below = keys.filter((k) => k < 1000).length;
    // Expected 2 000 (10 %), σ ≈ 42.
    expect(below).toBeGreaterThan(1750);
    expect(below).toBeLessThan(2250);
    expect(sampleKey('0190a5b2-0000-7000-8000-0000000003e8')).toBe(1000);
  });
});

const engines = await testEngines();

const CLIENTS = [
  { device: 'desktop', browser: 'Chrome', os: 'Linux' },
  { device: 'mobile', browser: 'Safari', os: 'iOS' },
  { device: 'desktop', browser: 'Firefox', os: 'Windows' },
];

/** Random visits over `days` days from `start`: pages, sources, campaigns, clients, conversions. */
function randomEvents(seed: number, visits: number, start: string, days: number, sameClient = false) {
  let state = seed;
  const rand = (n: number) => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return Math.floor((state / 2147483648) * n);
  };
  const events: TrackedEvent[] = [];
  for (let v = 0; v < visits; v++) {
    const at0 = Date.parse(`${start}T00:00:00Z`) + rand(days) * DAY_MS + rand(23 * 3600_000);
    const visitor = `h${rand(visits)}`;
    const tag = rand(4) === 0 ? `?utm_source=news&utm_medium=email&utm_campaign=c${rand(3)}` : '';
    const referrer = ['https://www.google.com/', 'https://www.bing.com/', null, 'https://blog.example/x'][
      rand(4)
    ]!;
    const client = sameClient ? CLIENTS[0]! : CLIENTS[rand(CLIENTS.length)]!;
    const country = ['DE', 'ES', null][rand(3)]!;
    const count = 1 + rand(4);
    for (let i = 0; i < count; i++) {
      const conversion = i > 0 && rand(6) === 0;
      events.push(
        buildEventRow(
          {
            type: conversion ? 'lead' : i > 0 && rand(4) === 0 ? 'signup' : 'page_view',
            page: undefined,
            url: `https://agency.example/p${rand(7)}${i === 0 ? tag : ''}`,
            referrer: i === 0 ? referrer : null,
            title: null,
            properties: null,
            sessionId: null,
          },
          {
            now: at0 + i * 60_000,
            country,
            visitorHash: visitor,
            siteHosts: ['agency.example'],
            client,
            conversion,
          },
        ),
      );
    }
  }
  return events.sort((a, b) => a.row.created_at - b.row.created_at);
}

describe.each(engines)('reading at scale on %s', (engine) => {
  let database: TestDatabase;
  let db: Db;
  async function fresh() {
    database = await createTestDatabase(engine);
    await migrateToLatest(database.handle.db);
    db = database.handle.db;
  }
  afterEach(() => database?.dispose());

  async function write(events: TrackedEvent[], batch = 37) {
    for (let i = 0; i < events.length; i += batch) await writeBatch(db, events.slice(i, i + batch), 0);
  }

  it('the monthly tier is the sum of the days, and a report over any range equals the one from the visits', async () => {
    await fresh();
    // Every visit on one client: a report filtered by it is over every visit, read from the visits.
    await write(randomEvents(7, 260, '2026-01-20', 80, true));
    const folded = async (table: 'analytics_daily' | 'analytics_visit_daily', metrics: string[]) =>
      (
        await sql<Record<string, unknown>>`select dimension, substr(day, 1, 7) as month, value,
          ${sql.join(metrics.map((m) => sql`sum(${sql.ref(m)}) as ${sql.ref(m)}`))} from ${sql.table(table)}
          group by dimension, substr(day, 1, 7), value order by 1, 2, 3`.execute(db)
      ).rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, String(v)])));
    const monthly = async (table: 'analytics_monthly' | 'analytics_visit_monthly', metrics: string[]) =>
      (
        await sql<Record<string, unknown>>`select dimension, month, value,
          ${sql.join(metrics.map((m) => sql.ref(m)))} from ${sql.table(table)}
          where ${sql.join(
            metrics.map((m) => sql`${sql.ref(m)} <> 0`),
            sql` or `,
          )} order by 1, 2, 3`.execute(db)
      ).rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, String(v)])));
    expect(await monthly('analytics_monthly', ['count'])).toEqual(await folded('analytics_daily', ['count']));
    const metrics = [
      'visits',
      'visitors',
      'bounces',
      'duration_ms',
      'pageviews',
      'events',
      'converted',
      'conversions',
      'engagement_ms',
    ];
    const visitMonthly = await monthly('analytics_visit_monthly', metrics);
    expect(visitMonthly.length).toBeGreaterThan(30);
    expect(visitMonthly).toEqual(await folded('analytics_visit_daily', metrics));

    const base = Date.parse('2026-01-15T00:00:00Z');
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 90 }),
        fc.integer({ min: 0, max: 90 }),
        async (start, length) => {
          const range = { from: dayOf(base + start * DAY_MS), to: dayOf(base + (start + length) * DAY_MS) };
          const { filters: _a, ...fromRollups } = await readAnalyticsStats(db, range, 100);
          const { filters: _b, ...fromVisits } = await readAnalyticsStats(
            db,
            range,
            100,
            filtersOf({ browser: 'Chrome' }),
          );
          expect(fromVisits).toEqual(fromRollups);
        },
      ),
      { numRuns: 12 },
    );
  });

  it('the sampled reader over every key gives exactly the exact report, filters included', async () => {
    await fresh();
    await write(randomEvents(11, 150, '2026-03-01', 3));
    const range = { from: '2026-03-01', to: '2026-03-03' };
    for (const query of [
      { device: 'mobile' },
      { page: '/p3' },
      { source: 'Google', country: 'DE' },
      { utm_campaign: '(none)' },
      { page: '/p1', browser: 'Firefox' },
      { entry_page: '/p2' },
    ]) {
      const filters = filtersOf(query);
      const sampled = await readSampledReport(db, range, 100, filters, SAMPLE_KEYS);
      expect(sampled.visits).toEqual(await readFilteredVisits(db, range, 100, filters));
      expect(sampled.events).toEqual(await readFilteredEvents(db, range, 100, filters));
    }
  });

  it('above the budget a filtered report reads a sample and scales it; within it, every visit, exactly', async () => {
    await fresh();
    await write(randomEvents(3, 120, '2026-03-01', 3));
    const range = { from: '2026-03-01', to: '2026-03-03' };
    const filters = filtersOf({ device: 'desktop' });
    const exact = await readAnalyticsStats(db, range, 10, filters);
    expect(exact.sampling).toBeNull();
    expect((await readAnalyticsStats(db, range, 10)).sampling).toBeNull();
    const { visits: total } = (
      await sql<{ visits: number }>`select count(*) as visits from analytics_visits`.execute(db)
    ).rows[0]!;
    expect(Number(total)).toBeGreaterThan(100);
    // 40 of ~120 visits: the threshold is a third of the keys.
    const budget = { visits: 40, events: 1_000_000 };
    const threshold = Math.floor((40 / Number(total)) * SAMPLE_KEYS);
    const answer = await readAnalyticsStats(db, range, 10, filters, { sampleBudget: budget });
    const inSample = (
      await sql<Record<string, number | string>>`select count(*) as visits, sum(pageviews) as pageviews,
        sum(events) as events from analytics_visits where device = 'desktop' and sample < ${threshold}`.execute(
        db,
      )
    ).rows[0]!;
    const factor = SAMPLE_KEYS / threshold;
    expect(answer.sampling).toEqual({ rate: threshold / SAMPLE_KEYS, visitsRead: Number(inSample.visits) });
    expect(answer.visits).toBe(Math.round(Number(inSample.visits) * factor));
    expect(answer.pageviews).toBe(Math.round(Number(inSample.pageviews) * factor));
    expect(answer.totalEvents).toBe(Math.round(Number(inSample.events) * factor));
    expect(answer.visits).not.toBe(exact.visits);
    // An estimate, of the right size.
    expect(answer.visits).toBeGreaterThan(exact.visits / 3);
    expect(answer.visits).toBeLessThan(exact.visits * 3);
    const pages = answer.topPages.reduce((n, p) => n + p.count, 0);
    expect(Math.abs(pages - answer.totalEvents)).toBeLessThanOrEqual(answer.topPages.length);
  });
});
