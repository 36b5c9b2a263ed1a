import { CompiledQuery } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { AnalyticsEventRow, VisitRow } from './tables.ts';
import { VISIT_METRICS } from './visits.ts';

/** A multi-row INSERT of one table: its columns and what follows the VALUES list. */
export interface InsertShape<Row> {
  table: keyof Database;
  columns: readonly (keyof Row & string)[];
  /** `on conflict …`, `returning …`: the same text on SQLite and PostgreSQL. */
  suffix: string;
  /** SQL text by engine and row count, built once. */
  texts: Map<string, string>;
}

export const EVENTS_INSERT: InsertShape<AnalyticsEventRow> = {
  table: 'analytics_events',
  columns: [
    'id',
    'type',
    'page',
    'referrer',
    'referrer_host',
    'title',
    'properties',
    'session_id',
    'country',
    'visitor_hash',
    'day',
    'created_at',
    'visit_id',
    'source',
    'utm_source',
    'utm_medium',
    'utm_campaign',
    'device',
    'browser',
    'os',
  ],
  suffix: '',
  texts: new Map(),
};
const VISIT_COLUMNS = [
  'id',
  'day',
  'visitor_hash',
  'started_at',
  'last_at',
  'new_visitor',
  'entry_page',
  'exit_page',
  'pageviews',
  'events',
  'interactions',
  'engagement_ms',
  'conversions',
  'source',
  'referrer_host',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'country',
  'device',
  'browser',
  'os',
  'sample',
] as const satisfies readonly (keyof VisitRow)[];
/** What an event can change in a stored visit; the rest is fixed when it starts. */
const VISIT_MUTABLE = [
  'last_at',
  'exit_page',
  'pageviews',
  'events',
  'interactions',
  'engagement_ms',
  'conversions',
];
export const VISITS_UPSERT: InsertShape<VisitRow> = {
  table: 'analytics_visits',
  columns: VISIT_COLUMNS,
  suffix: `on conflict ("id") do update set ${VISIT_MUTABLE.map((c) => `"${c}" = excluded."${c}"`).join(', ')}`,
  texts: new Map(),
};
export const VISIT_ROLLUPS_UPSERT: InsertShape<Database['analytics_visit_daily']> = {
  table: 'analytics_visit_daily',
  columns: ['dimension', 'day', 'value', ...VISIT_METRICS],
  suffix: `on conflict ("dimension", "day", "value") do update set ${VISIT_METRICS.map(
    (m) => `"${m}" = "analytics_visit_daily"."${m}" + excluded."${m}"`,
  ).join(', ')}`,
  texts: new Map(),
};
export const MONTHLY_UPSERT: InsertShape<Database['analytics_monthly']> = {
  table: 'analytics_monthly',
  columns: ['dimension', 'month', 'value', 'count'],
  suffix:
    'on conflict ("dimension", "month", "value") do update set "count" = "analytics_monthly"."count" + excluded."count"',
  texts: new Map(),
};
export const VISIT_MONTHLY_UPSERT: InsertShape<Database['analytics_visit_monthly']> = {
  table: 'analytics_visit_monthly',
  columns: ['dimension', 'month', 'value', ...VISIT_METRICS],
  suffix: `on conflict ("dimension", "month", "value") do update set ${VISIT_METRICS.map(
    (m) => `"${m}" = "analytics_visit_monthly"."${m}" + excluded."${m}"`,
  ).join(', ')}`,
  texts: new Map(),
};
export const VISITORS_INSERT: InsertShape<Database['analytics_visitors']> = {
  table: 'analytics_visitors',
  columns: ['day', 'visitor_hash'],
  suffix: 'on conflict do nothing returning "day", "visitor_hash"',
  texts: new Map(),
};
export const INBOX_INSERT: InsertShape<Database['analytics_inbox']> = {
  table: 'analytics_inbox',
  columns: ['id', 'event'],
  suffix: '',
  texts: new Map(),
};
export const ROLLUPS_UPSERT: InsertShape<Database['analytics_daily']> = {
  table: 'analytics_daily',
  columns: ['dimension', 'day', 'value', 'count'],
  suffix:
    'on conflict ("dimension", "day", "value") do update set "count" = "analytics_daily"."count" + excluded."count"',
  texts: new Map(),
};

/**
 * The multi-row INSERT of a batch, its text built once per engine and row count: Kysely's query
 * builder spent more CPU turning a batch of rows into SQL than the database spent storing them
 * (a single-event commit, what a quiet site makes, cost 91 µs through the builder, 68 µs so).
 */
export function insertQuery<Row>(
  engine: 'sqlite' | 'postgres',
  shape: InsertShape<Row>,
  rows: Row[],
): CompiledQuery {
  const key = `${engine}:${rows.length}`;
  let text = shape.texts.get(key);
  if (text === undefined) {
    let n = 0;
    const placeholder = engine === 'postgres' ? () => `$${++n}` : () => '?';
    const tuples = rows.map(() => `(${shape.columns.map(placeholder).join(', ')})`);
    const columns = shape.columns.map((c) => `"${c}"`).join(', ');
    text = `insert into "${shape.table}" (${columns}) values ${tuples.join(', ')} ${shape.suffix}`.trimEnd();
    shape.texts.set(key, text);
  }
  const parameters: unknown[] = [];
  for (const row of rows) for (const column of shape.columns) parameters.push(row[column]);
  return CompiledQuery.raw(text, parameters);
}
