import { type Expression, type RawBuilder, type SqlBool, sql } from 'kysely';
import { type Db, engineOf } from '../../db/database.ts';
import { FILTER_COLUMNS, pageFilterValues, type StatsFilters } from './filters.ts';
import { topBy } from './rank.ts';
import type { StatsRange } from './rollup-reads.ts';
import { tierPlan, tierRows } from './rollup-tiers.ts';
import { CONVERSION_TYPE } from './track.ts';
import { VISIT_METRICS, type VisitDimension, type VisitMetrics } from './visits.ts';

/**
 * Runs `tasks` at most `limit` at a time. A filtered report is ~18 queries that each read many rows:
 * all at once they would hold every pooled PostgreSQL connection for seconds, and other requests (and
 * the report's own later queries) would time out waiting for one.
 */
export async function limited<T>(
  tasks: (() => Promise<T>)[],
  limit = FILTERED_QUERY_CONCURRENCY,
): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const i = next++;
      results[i] = await tasks[i]!();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return results;
}

/** Queries of one filtered report running at once (the pool has 10 connections by default). */
const FILTERED_QUERY_CONCURRENCY = 3;

/** Breakdowns of the stats answer and the visit column or rollup dimension each reads. */
export const VISIT_BREAKDOWNS = {
  sources: { dimension: 'source', column: 'source' },
  utmSources: { dimension: 'utm_source', column: 'utm_source' },
  utmMediums: { dimension: 'utm_medium', column: 'utm_medium' },
  utmCampaigns: { dimension: 'utm_campaign', column: 'utm_campaign' },
  devices: { dimension: 'device', column: 'device' },
  browsers: { dimension: 'browser', column: 'browser' },
  operatingSystems: { dimension: 'os', column: 'os' },
  entryPages: { dimension: 'entry', column: 'entry_page' },
  exitPages: { dimension: 'exit', column: 'exit_page' },
} as const satisfies Record<string, { dimension: VisitDimension; column: string }>;
export type VisitBreakdown = keyof typeof VISIT_BREAKDOWNS;

/** The conversion tables: converted visits by source, campaign and entry page. */
export const CONVERSION_BREAKDOWNS = {
  bySource: 'sources',
  byCampaign: 'utmCampaigns',
  byEntryPage: 'entryPages',
} as const satisfies Record<string, VisitBreakdown>;

export interface VisitGroup extends VisitMetrics {
  /** null: direct, unknown, or (UTM) no tag. */
  value: string | null;
}

export interface VisitReport {
  totals: VisitMetrics;
  breakdowns: Record<VisitBreakdown, VisitGroup[]>;
  conversions: Record<keyof typeof CONVERSION_BREAKDOWNS, VisitGroup[]>;
  daily: Map<string, { visits: number; visitors: number; events: number }>;
  /** Distinct visitors (per day) of the selected visits; null from the rollups, which count them apart. */
  exactVisitors: number | null;
}

export const zero = (): VisitMetrics => Object.fromEntries(VISIT_METRICS.map((m) => [m, 0])) as VisitMetrics;

function toMetrics(row: Record<string, unknown>): VisitMetrics {
  const metrics = zero();
  for (const m of VISIT_METRICS) metrics[m] = Number(row[m] ?? 0);
  return metrics;
}

/** Ties by code point on both engines (a PostgreSQL database's collation varies). */
const byName = (db: Db, column: RawBuilder<unknown>) =>
  engineOf(db) === 'postgres' ? sql`${column} collate "C"` : column;

/** Sums of the metrics, as SQL, over visit rollup rows. */
const rollupSums = sql.join(VISIT_METRICS.map((m) => sql`sum(${sql.ref(m)}) as ${sql.ref(m)}`));

/**
 * The visit part of an unfiltered report, from the visit rollups (maintained by the fold): whole months
 * from analytics_visit_monthly, the days of partial months from analytics_visit_daily
 * (rollup-tiers.ts): a few thousand rows per dimension whatever the number of visits.
 */
export async function readVisitRollups(db: Db, range: StatsRange, top: number): Promise<VisitReport> {
  const plan = tierPlan(range);
  /** Every value of a dimension with its metrics: one scan, ranked twice (visits, conversions) in JS. */
  const groups = async (dimension: VisitDimension) => {
    const { rows } = await sql<Record<string, unknown>>`
      select value, ${rollupSums} from ${tierRows('visits', dimension, plan, VISIT_METRICS)} t
      group by value`.execute(db);
    return rows.map((r) => ({ value: String(r.value), ...toMetrics(r) }));
  };
  const dimensions = [...new Set(Object.values(VISIT_BREAKDOWNS).map((b) => b.dimension))];
  const [daily, ...all] = await Promise.all([
    // A row per day: the timeseries, and summed, the totals.
    sql<Record<string, unknown>>`
      select day, ${sql.join(VISIT_METRICS.map((m) => sql.ref(m)))} from analytics_visit_daily
      where dimension = 'all' and day >= ${range.from} and day <= ${range.to}`.execute(db),
    ...dimensions.map(groups),
  ]);
  const byDimension = new Map(dimensions.map((d, i) => [d, all[i]!]));
  // '' is direct (source) or unknown (device, …): null in the answer.
  const view = (rows: (VisitMetrics & { value: string })[]) =>
    rows.map((r) => ({ ...r, value: r.value === '' ? null : r.value }));
  const lists = [
    ...Object.values(VISIT_BREAKDOWNS).map((b) =>
      view(topBy(byDimension.get(b.dimension)!, (r) => r.visits, top)),
    ),
    ...Object.values(CONVERSION_BREAKDOWNS).map((b) =>
      view(topBy(byDimension.get(VISIT_BREAKDOWNS[b].dimension)!, (r) => r.converted, top)),
    ),
  ];
  const totals = zero();
  for (const r of daily.rows) for (const m of VISIT_METRICS) totals[m] += Number(r[m] ?? 0);
  const days = new Map<string, { visits: number; visitors: number; events: number }>();
  for (const r of daily.rows) {
    days.set(String(r.day), {
      visits: Number(r.visits),
      visitors: Number(r.visitors),
      events: Number(r.events),
    });
  }
  return { ...assemble(totals, lists, days), exactVisitors: null };
}

export function assemble(
  totals: VisitMetrics,
  lists: VisitGroup[][],
  daily: VisitReport['daily'],
): Omit<VisitReport, 'exactVisitors'> {
  const names = Object.keys(VISIT_BREAKDOWNS) as VisitBreakdown[];
  const conversionNames = Object.keys(CONVERSION_BREAKDOWNS) as (keyof typeof CONVERSION_BREAKDOWNS)[];
  return {
    totals,
    breakdowns: Object.fromEntries(names.map((n, i) => [n, lists[i]!])) as VisitReport['breakdowns'],
    conversions: Object.fromEntries(
      conversionNames.map((n, i) => [n, lists[names.length + i]!]),
    ) as VisitReport['conversions'],
    daily,
  };
}

/** The WHERE condition of the visits a filtered report covers (alias `v`). */
export function visitCondition(range: StatsRange, filters: StatsFilters): Expression<SqlBool> {
  const parts = [sql`v.day >= ${range.from}`, sql`v.day <= ${range.to}`, ...columnConditions(filters)];
  if (filters.page !== undefined) parts.push(pageCondition(filters.page));
  return sql<SqlBool>`${sql.join(parts, sql` and `)}`;
}

/**
 * `page`: the visit (alias `v`) had an event on that page (a visit's events are all of its day, so
 * of the range). A correlated subquery with LIMIT, probed per visit in the (visit_id, page) index:
 * neither engine turns it into a join that scans every event on the page, of all time.
 */
export function pageCondition(page: string | null): RawBuilder<unknown> {
  return sql`(select 1 from analytics_events e2 where e2.visit_id = v.id and ${valueIn(sql.ref('e2.page'), page === null ? [''] : pageFilterValues(page))} limit 1) is not null`;
}

function valueIn(
  column: RawBuilder<unknown> | ReturnType<typeof sql.ref>,
  values: string[],
): RawBuilder<unknown> {
  return values.length === 1
    ? sql`${column} = ${values[0]}`
    : sql`${column} in (${sql.join(values.map((value) => sql`${value}`))})`;
}

const PAGE_COLUMNS = new Set<string>(['entry_page', 'exit_page']);

/** The conditions of the filters on the visit's own columns (alias `v`); `page` is not one. */
export function columnConditions(filters: StatsFilters): RawBuilder<unknown>[] {
  const parts: RawBuilder<unknown>[] = [];
  for (const [name, value] of Object.entries(filters) as [keyof typeof FILTER_COLUMNS, string | null][]) {
    const column = FILTER_COLUMNS[name];
    if (column === null) continue;
    const ref = sql.ref(`v.${column}`);
    if (value === null) parts.push(sql`${ref} is null`);
    else parts.push(valueIn(ref, PAGE_COLUMNS.has(column) ? pageFilterValues(value) : [value]));
  }
  return parts;
}

/** Metric sums over analytics_visits rows (alias `v`); `visitors` counts first visits of the day. */
const visitSums = sql.join([
  sql`count(*) as visits`,
  sql`sum(v.new_visitor) as visitors`,
  sql`sum(case when v.interactions <= 1 then 1 else 0 end) as bounces`,
  sql`sum(v.last_at - v.started_at) as duration_ms`,
  sql`sum(v.pageviews) as pageviews`,
  sql`sum(v.events) as events`,
  sql`sum(case when v.conversions > 0 then 1 else 0 end) as converted`,
  sql`sum(v.conversions) as conversions`,
  sql`sum(v.engagement_ms) as engagement_ms`,
]);

/**
 * The visit part of a filtered report, from the visits themselves: filters combine freely, at the
 * cost of reading every visit they select (an index per filter column narrows the read).
 */
export async function readFilteredVisits(
  db: Db,
  range: StatsRange,
  top: number,
  filters: StatsFilters,
): Promise<VisitReport> {
  const where = visitCondition(range, filters);
  const ranked = async (column: string, order: 'visits' | 'converted') => {
    const { rows } = await sql<Record<string, unknown>>`
      select ${sql.ref(`v.${column}`)} as value, ${visitSums} from analytics_visits v where ${where}
      group by ${sql.ref(`v.${column}`)} having sum(${order === 'visits' ? sql`1` : sql`case when v.conversions > 0 then 1 else 0 end`}) > 0
      order by ${sql.ref(order)} desc, ${byName(db, sql`coalesce(${sql.ref(`v.${column}`)}, '')`)} asc
      limit ${top}`.execute(db);
    return rows.map((r) => ({ value: r.value === null ? null : String(r.value), ...toMetrics(r) }));
  };
  const utm = new Set(['utm_source', 'utm_medium', 'utm_campaign']);
  const breakdown = async (column: string, order: 'visits' | 'converted') => {
    const rows = await ranked(column, order);
    // Visits without a UTM tag are not a row of the UTM breakdowns (as in the rollups).
    return utm.has(column) ? rows.filter((r) => r.value !== null) : rows;
  };
  const [totalsResult, daily] = await limited([
    () =>
      sql<Record<string, unknown>>`
      select ${visitSums}, count(distinct v.day || v.visitor_hash) as exact_visitors
      from analytics_visits v where ${where}`.execute(db),
    () =>
      sql<Record<string, unknown>>`
      select v.day as day, count(*) as visits, count(distinct v.visitor_hash) as visitors, sum(v.events) as events
      from analytics_visits v where ${where} group by v.day`.execute(db),
  ]);
  const lists = await limited([
    ...Object.values(VISIT_BREAKDOWNS).map((b) => () => breakdown(b.column, 'visits')),
    ...Object.values(CONVERSION_BREAKDOWNS).map(
      (b) => () => breakdown(VISIT_BREAKDOWNS[b].column, 'converted'),
    ),
  ]);
  const totalsRow = totalsResult!.rows[0] ?? {};
  const days = new Map<string, { visits: number; visitors: number; events: number }>();
  for (const r of daily!.rows) {
    days.set(String(r.day), {
      visits: Number(r.visits),
      visitors: Number(r.visitors),
      events: Number(r.events),
    });
  }
  return {
    ...assemble(toMetrics(totalsRow), lists, days),
    exactVisitors: Number(totalsRow.exact_visitors ?? 0),
  };
}

/** The event part of a filtered report: the events of the selected visits. */
export async function readFilteredEvents(db: Db, range: StatsRange, top: number, filters: StatsFilters) {
  const where = visitCondition(range, filters);
  const ranked = async (column: 'page' | 'country' | 'type' | 'referrer_host') => {
    const { rows } = await sql<{ value: string | null; n: number | string }>`
      select ${sql.ref(`e.${column}`)} as value, count(*) as n
      from analytics_events e join analytics_visits v on v.id = e.visit_id
      where ${where} ${column === 'referrer_host' ? sql`and e.referrer_host is not null and e.type <> ${CONVERSION_TYPE}` : sql``}
      group by ${sql.ref(`e.${column}`)}
      order by n desc, ${byName(db, sql`coalesce(${sql.ref(`e.${column}`)}, '')`)} asc
      limit ${top}`.execute(db);
    return rows.map((r) => ({ value: r.value ?? '', count: Number(r.n) }));
  };
  const [pages, countries, types, referrers] = await limited([
    () => ranked('page'),
    () => ranked('country'),
    () => ranked('type'),
    () => ranked('referrer_host'),
  ]);
  const uniquePages = await sql<{ n: number | string }>`
    select count(distinct e.page) as n
    from analytics_events e join analytics_visits v on v.id = e.visit_id where ${where}`.execute(db);
  return {
    pages: pages!,
    countries: countries!,
    types: types!,
    referrers: referrers!,
    uniquePages: Number(uniquePages.rows[0]?.n ?? 0),
  };
}
