import { sql } from 'kysely';
import { type Db, engineOf } from '../../db/database.ts';
import type { StatsFilters } from './filters.ts';
import { ANALYTICS_LIMITS as L } from './limits.ts';
import { topBy } from './rank.ts';
import type { StatsRange } from './rollup-reads.ts';
import type { VisitRow } from './tables.ts';
import { CONVERSION_TYPE } from './track.ts';
import {
  assemble,
  CONVERSION_BREAKDOWNS,
  columnConditions,
  pageCondition,
  VISIT_BREAKDOWNS,
  type VisitGroup,
  type VisitReport,
  zero,
} from './visit-stats.ts';
import { SAMPLE_KEYS, VISIT_DIMENSIONS, VISIT_METRICS, type VisitMetrics, visitMetrics } from './visits.ts';

/** What a filtered report may read at most: visits and events (ANALYTICS_LIMITS.sampleBudget). */
export interface SampleBudget {
  visits: number;
  events: number;
}

/**
 * The sample threshold of a filtered report over a range holding `size` (exact, from the rollups):
 * the visits whose sample key is below it are read. SAMPLE_KEYS (every visit: exact) when the range
 * fits the budget; else the largest threshold whose expected read (threshold / SAMPLE_KEYS of the
 * range's visits and events) stays within both budgets, and at least 1 (1/10 000 of the visits).
 */
export function sampleThreshold(
  size: { visits: number; events: number },
  budget: SampleBudget = L.sampleBudget,
): number {
  const rate = Math.min(
    1,
    size.visits > 0 ? budget.visits / size.visits : 1,
    size.events > 0 ? budget.events / size.events : 1,
  );
  if (rate >= 1) return SAMPLE_KEYS;
  return Math.max(1, Math.floor(rate * SAMPLE_KEYS));
}

/** The visits and events of a range, exact, from the daily rollups (a row per day). */
export async function rangeSize(db: Db, range: StatsRange): Promise<{ visits: number; events: number }> {
  const [visits, events] = await Promise.all([
    sql<{ n: number | string | null }>`
      select sum(visits) as n from analytics_visit_daily
      where dimension = 'all' and day >= ${range.from} and day <= ${range.to}`.execute(db),
    sql<{ n: number | string | null }>`
      select sum(count) as n from analytics_daily
      where dimension = 'total' and day >= ${range.from} and day <= ${range.to}`.execute(db),
  ]);
  return { visits: Number(visits.rows[0]?.n ?? 0), events: Number(events.rows[0]?.n ?? 0) };
}

type SampledVisit = Pick<
  VisitRow,
  | 'id'
  | 'day'
  | 'visitor_hash'
  | 'new_visitor'
  | 'started_at'
  | 'last_at'
  | 'entry_page'
  | 'exit_page'
  | 'pageviews'
  | 'events'
  | 'interactions'
  | 'engagement_ms'
  | 'conversions'
  | 'source'
  | 'utm_source'
  | 'utm_medium'
  | 'utm_campaign'
  | 'device'
  | 'browser'
  | 'os'
>;

const VISIT_COLUMNS = [
  'id',
  'day',
  'visitor_hash',
  'new_visitor',
  'started_at',
  'last_at',
  'entry_page',
  'exit_page',
  'pageviews',
  'events',
  'interactions',
  'engagement_ms',
  'conversions',
  'source',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'device',
  'browser',
  'os',
] as const satisfies readonly (keyof SampledVisit)[];

/**
 * The sampled visits of the range that match the filters. The read is the sample index's range
 * (sample < threshold, then the days), which carries the filter columns: the filters are checked
 * in the index and only matching visits are read from the table. SQLite is told to use that index
 * (and defers the table read until a column outside it is needed); on PostgreSQL the sample is a
 * materialised CTE of index columns read before any filter, and the matching visits are then read
 * by id: neither engine can pick a filter's own index and visit every match of the range instead.
 */
async function sampledVisits(db: Db, range: StatsRange, filters: StatsFilters, threshold: number) {
  const columns = sql.join(VISIT_COLUMNS.map((c) => sql.ref(`v.${c}`)));
  const conditions = columnConditions(filters);
  if (filters.page !== undefined) conditions.push(pageCondition(filters.page));
  const rest = conditions.length > 0 ? sql` and ${sql.join(conditions, sql` and `)}` : sql``;
  // Each key below the threshold, then the days of the range: one index range per key, so the read
  // is the range's sampled visits, not every sampled visit of all time (a `sample < n` range would
  // be, where the engine does not skip through the first column).
  const keys = Array.from({ length: threshold }, (_, k) => k);
  const days = sql`day >= ${range.from} and day <= ${range.to}`;
  let rows: SampledVisit[];
  if (engineOf(db) === 'sqlite') {
    ({ rows } = await sql<SampledVisit>`
      select ${columns} from analytics_visits v indexed by analytics_visits_sample_idx
      where sample in (select value from json_each(${JSON.stringify(keys)})) and ${days}${rest}`.execute(db));
  } else {
    const { rows: matched } = await sql<{ id: string }>`
      with s as materialized (
        select ${sql.join([...INDEXED, ...(filters.exit_page === undefined ? [] : ['exit_page'])].map((c) => sql.ref(c)))}
        from analytics_visits where sample = any(${keys}::int[]) and ${days})
      select v.id from s v where true${rest}`.execute(db);
    if (matched.length === 0) return [];
    ({ rows } = await sql<SampledVisit>`
      select ${columns} from analytics_visits v
      where v.id = any(${matched.map((r) => r.id)}::text[])`.execute(db));
  }
  // PostgreSQL answers bigint columns as strings.
  return rows.map((v) => ({
    ...v,
    started_at: Number(v.started_at),
    last_at: Number(v.last_at),
    engagement_ms: Number(v.engagement_ms),
  }));
}

/**
 * The columns the sample index carries (migration 0016): every filter's but `exit_page`, which
 * changes with the visit (an exit_page filter reads it from the table).
 */
const INDEXED = [
  'source',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'country',
  'device',
  'browser',
  'os',
  'entry_page',
  'id',
] as const;

interface SampledEvent {
  visit_id: string;
  page: string;
  country: string | null;
  type: string;
  referrer_host: string | null;
}

/**
 * The events of the given visits, from the events' (visit_id, page, type, country, referrer_host)
 * index alone (an id list, no join to plan).
 */
async function eventsOf(db: Db, ids: string[]): Promise<SampledEvent[]> {
  if (ids.length === 0) return [];
  const columns = sql`visit_id, page, country, type, referrer_host`;
  const { rows } =
    engineOf(db) === 'sqlite'
      ? await sql<SampledEvent>`select ${columns} from analytics_events
          where visit_id in (select value from json_each(${JSON.stringify(ids)}))`.execute(db)
      : await sql<SampledEvent>`select ${columns} from analytics_events
          where visit_id = any(${ids}::text[])`.execute(db);
  return rows;
}

/** Counts by value, ranked; `skipNull` leaves null out, else null counts as ''. */
function countBy(
  values: Iterable<string | null>,
  top: number,
  scale: (n: number) => number,
  skipNull = false,
) {
  const counts = new Map<string, number>();
  for (const value of values) {
    if (value === null && skipNull) continue;
    const key = value ?? '';
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const rows = [...counts].map(([value, count]) => ({ value, count: scale(count) }));
  return topBy(rows, (r) => r.count, top);
}

/**
 * A filtered report from the visits whose sample key is below `threshold` (SAMPLE_KEYS: every
 * visit, exact), computed here from the rows: the visits that match the filters, then their events
 * by visit id. Counts and sums are scaled by SAMPLE_KEYS / threshold; rates and averages need no
 * scaling. `uniquePages` is the pages seen in the sample (a distinct count does not scale).
 */
export async function readSampledReport(
  db: Db,
  range: StatsRange,
  top: number,
  filters: StatsFilters,
  threshold: number,
) {
  const factor = SAMPLE_KEYS / threshold;
  const scale = (n: number) => Math.round(n * factor);
  const visits = await sampledVisits(db, range, filters, threshold);
  const events = await eventsOf(
    db,
    visits.map((v) => v.id),
  );

  const totals = zero();
  const visitorKeys = new Set<string>();
  const days = new Map<string, { visits: number; visitors: Set<string>; events: number }>();
  const groups = Object.values(VISIT_BREAKDOWNS).map(() => new Map<string, VisitMetrics>());
  const dimensions = Object.values(VISIT_BREAKDOWNS).map((b) => VISIT_DIMENSIONS[b.dimension]);
  for (const v of visits) {
    const metrics = visitMetrics({ ...v, sample: 0 } as VisitRow);
    for (const m of VISIT_METRICS) totals[m] += metrics[m];
    visitorKeys.add(`${v.day}\u0000${v.visitor_hash}`);
    const day = days.get(v.day) ?? { visits: 0, visitors: new Set<string>(), events: 0 };
    day.visits++;
    day.visitors.add(v.visitor_hash);
    day.events += v.events;
    days.set(v.day, day);
    for (let i = 0; i < dimensions.length; i++) {
      // As the rollups name values: '' for direct/unknown, null (a visit without a UTM tag) left out.
      const value = dimensions[i]!(v as VisitRow);
      if (value === null) continue;
      const group = groups[i]!;
      const sum = group.get(value);
      if (sum === undefined) group.set(value, { ...metrics });
      else for (const m of VISIT_METRICS) sum[m] += metrics[m];
    }
  }
  const scaled = (m: VisitMetrics): VisitMetrics => {
    const out = zero();
    for (const metric of VISIT_METRICS) out[metric] = scale(m[metric]);
    return out;
  };
  const rowsOf = (i: number) =>
    [...groups[i]!].map(([value, m]) => ({ value, ...scaled(m) }) as VisitMetrics & { value: string });
  const view = (rows: (VisitMetrics & { value: string })[]): VisitGroup[] =>
    rows.map((r) => ({ ...r, value: r.value === '' ? null : r.value }));
  const names = Object.keys(VISIT_BREAKDOWNS) as (keyof typeof VISIT_BREAKDOWNS)[];
  const lists = [
    ...names.map((_, i) => view(topBy(rowsOf(i), (r) => r.visits, top))),
    ...Object.values(CONVERSION_BREAKDOWNS).map((b) =>
      view(topBy(rowsOf(names.indexOf(b)), (r) => r.converted, top)),
    ),
  ];
  const daily: VisitReport['daily'] = new Map();
  for (const [day, d] of days) {
    daily.set(day, { visits: scale(d.visits), visitors: scale(d.visitors.size), events: scale(d.events) });
  }
  const visitReport: VisitReport = {
    ...assemble(scaled(totals), lists, daily),
    exactVisitors: scale(visitorKeys.size),
  };
  return {
    visits: visitReport,
    events: {
      pages: countBy(
        events.map((e) => e.page),
        top,
        scale,
      ),
      countries: countBy(
        events.map((e) => e.country),
        top,
        scale,
      ),
      types: countBy(
        events.map((e) => e.type),
        top,
        scale,
      ),
      referrers: countBy(
        events.map((e) => (e.type === CONVERSION_TYPE ? null : e.referrer_host)),
        top,
        scale,
        true,
      ),
      uniquePages: new Set(events.map((e) => e.page)).size,
    },
    visitsRead: visits.length,
  };
}
