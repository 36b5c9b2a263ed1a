import type { Db, DbOrTx } from '../../db/database.ts';
import { readCounters } from '../../db/rate-limiter.ts';
import { topBy } from './rank.ts';
import { BOTS_COUNTER, type Dimension } from './store.ts';

export interface StatsRange {
  from: string;
  to: string;
}

/** Every value of a dimension over the range with its count (one scan; ranked by the caller). */
async function sums(db: DbOrTx, dimension: Dimension, range: StatsRange) {
  const rows = await db
    .selectFrom('analytics_daily')
    .select(['value', (eb) => eb.fn.sum<number>('count').as('total')])
    .where('dimension', '=', dimension)
    .where('day', '>=', range.from)
    .where('day', '<=', range.to)
    .groupBy('value')
    .execute();
  return rows.map((r) => ({ value: r.value, count: Number(r.total) }));
}

async function ranked(db: DbOrTx, dimension: Dimension, range: StatsRange, top: number) {
  return topBy(await sums(db, dimension, range), (r) => r.count, top);
}

async function sumOf(db: DbOrTx, dimension: Dimension, range: StatsRange) {
  const row = await db
    .selectFrom('analytics_daily')
    .select((eb) => eb.fn.sum<number | null>('count').as('total'))
    .where('dimension', '=', dimension)
    .where('day', '>=', range.from)
    .where('day', '<=', range.to)
    .executeTakeFirst();
  return Number(row?.total ?? 0);
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
  const [totalEvents, uniqueVisitors, allPages, countries, types, referrers, daily, counters] =
    await Promise.all([
      sumOf(db, 'total', range),
      sumOf(db, 'visitors', range),
      sums(db, 'page', range),
      ranked(db, 'country', range, top),
      ranked(db, 'type', range, top),
      ranked(db, 'referrer', range, top),
      db
        .selectFrom('analytics_daily')
        .select(['day', 'dimension', 'count'])
        .where('dimension', 'in', ['total', 'visitors'])
        .where('day', '>=', range.from)
        .where('day', '<=', range.to)
        .execute(),
      readCounters(db, [BOTS_COUNTER]),
    ]);
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
