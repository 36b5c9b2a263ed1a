import { sql } from 'kysely';
import type { Db, DbOrTx } from '../../db/database.ts';
import { readCounters } from '../../db/rate-limiter.ts';
import { topBy } from './rank.ts';
import { type TierPlan, tierPlan, tierRows } from './rollup-tiers.ts';
import { BOTS_COUNTER, type Dimension } from './store.ts';

export interface StatsRange {
  from: string;
  to: string;
}

/**
 * Every value of a dimension over the range with its count (one scan; ranked by the caller): whole
 * months from analytics_monthly, the days of partial months from analytics_daily (rollup-tiers.ts).
 */
async function sums(db: DbOrTx, dimension: Dimension, plan: TierPlan) {
  const { rows } = await sql<{ value: string; total: number | string }>`
    select value, sum(count) as total from ${tierRows('events', dimension, plan, ['count'])} t
    group by value`.execute(db);
  return rows.map((r) => ({ value: r.value, count: Number(r.total) }));
}

async function ranked(db: DbOrTx, dimension: Dimension, plan: TierPlan, top: number) {
  return topBy(await sums(db, dimension, plan), (r) => r.count, top);
}

/** The first day with any event, or null on an empty database. */
export async function firstDay(db: Db): Promise<string | null> {
  const row = await db
    .selectFrom('analytics_daily')
    .select((eb) => eb.fn.min<string | null>('day').as('first'))
    .where('dimension', '=', 'total')
    .executeTakeFirst();
  return row?.first ?? null;
}

export interface StatsRows {
  totalEvents: number;
  uniqueVisitors: number;
  uniquePages: number;
  pages: { value: string; count: number }[];
  countries: { value: string; count: number }[];
  types: { value: string; count: number }[];
  referrers: { value: string; count: number }[];
  daily: { day: string; dimension: string; count: number }[];
  botsDropped: number;
}

/** Every aggregate of the stats route, read from the rollups only (never from analytics_events). */
export async function readStats(db: Db, range: StatsRange, top: number): Promise<StatsRows> {
  const plan = tierPlan(range);
  const [allPages, countries, types, referrers, daily, counters] = await Promise.all([
    sums(db, 'page', plan),
    ranked(db, 'country', plan, top),
    ranked(db, 'type', plan, top),
    ranked(db, 'referrer', plan, top),
    db
      .selectFrom('analytics_daily')
      .select(['day', 'dimension', 'count'])
      .where('dimension', 'in', ['total', 'visitors'])
      .where('day', '>=', range.from)
      .where('day', '<=', range.to)
      .execute(),
    readCounters(db, [BOTS_COUNTER]),
  ]);
  // The totals are the days' sums (a row per day: no monthly tier needed).
  let totalEvents = 0;
  let uniqueVisitors = 0;
  for (const r of daily) {
    if (r.dimension === 'total') totalEvents += Number(r.count);
    else uniqueVisitors += Number(r.count);
  }
  return {
    totalEvents,
    uniqueVisitors,
    uniquePages: allPages.filter((p) => p.count > 0).length,
    pages: topBy(allPages, (p) => p.count, top),
    countries,
    types,
    referrers,
    daily: daily.map((r) => ({ day: r.day, dimension: r.dimension, count: Number(r.count) })),
    botsDropped: counters[BOTS_COUNTER] ?? 0,
  };
}

export async function readBotsDropped(db: Db): Promise<number> {
  return (await readCounters(db, [BOTS_COUNTER]))[BOTS_COUNTER] ?? 0;
}

export async function listEvents(db: Db, page: number, limit: number) {
  const [rows, total] = await Promise.all([
    db
      .selectFrom('analytics_events')
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .offset((page - 1) * limit)
      .execute(),
    // The rollup total equals the events' count (same transaction) and costs no table scan.
    db
      .selectFrom('analytics_daily')
      .select((eb) => eb.fn.sum<number | null>('count').as('total'))
      .where('dimension', '=', 'total')
      .executeTakeFirst(),
  ]);
  return { rows, total: Number(total?.total ?? 0) };
}
