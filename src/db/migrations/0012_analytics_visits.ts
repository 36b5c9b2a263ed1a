import { type Kysely, sql } from 'kysely';
import { engineOf } from '../database.ts';

/**
 * Analytics visits (docs/analytics.md). Each event keeps what it says about its origin (UTM tags of
 * its page, its referrer's source, device, browser and OS from the User-Agent, never the UA itself)
 * and the visit it belongs to. A visit is a visitor's run of events without a 30-minute gap, under
 * the daily hash (no new identifier): one row of `analytics_visits`, maintained on write. Its
 * rollups (`analytics_visit_daily`: visits, visitors, bounces, duration, conversions per day,
 * dimension and value) are adjusted by each event in the same transaction.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const column of [
    'visit_id',
    'source',
    'utm_source',
    'utm_medium',
    'utm_campaign',
    'device',
    'browser',
    'os',
  ]) {
    await db.schema.alterTable('analytics_events').addColumn(column, 'text').execute();
  }
  await db.schema
    .createIndex('analytics_events_visit_idx')
    .on('analytics_events')
    .column('visit_id')
    .execute();

  let visits = db.schema
    .createTable('analytics_visits')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('visitor_hash', 'text', (c) => c.notNull())
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('last_at', 'bigint', (c) => c.notNull())
    .addColumn('new_visitor', 'integer', (c) => c.notNull())
    .addColumn('entry_page', 'text', (c) => c.notNull())
    .addColumn('exit_page', 'text', (c) => c.notNull())
    .addColumn('pageviews', 'integer', (c) => c.notNull())
    .addColumn('events', 'integer', (c) => c.notNull())
    .addColumn('interactions', 'integer', (c) => c.notNull())
    .addColumn('engagement_ms', 'bigint', (c) => c.notNull())
    .addColumn('conversions', 'integer', (c) => c.notNull());
  for (const column of [...VISIT_DIMENSION_COLUMNS, 'referrer_host'])
    visits = visits.addColumn(column, 'text');
  await visits.execute();
  await db.schema
    .createIndex('analytics_visits_visitor_idx')
    .on('analytics_visits')
    .columns(['day', 'visitor_hash', 'started_at'])
    .execute();
  // A filtered report reads the visits of the range that match: one index per filterable column.
  for (const column of VISIT_FILTER_COLUMNS) {
    await db.schema
      .createIndex(`analytics_visits_${column}_idx`)
      .on('analytics_visits')
      .columns([column, 'day'])
      .execute();
  }
  await db.schema.createIndex('analytics_visits_day_idx').on('analytics_visits').column('day').execute();

  const sqlite = engineOf(db) === 'sqlite';
  let rollup = db.schema
    .createTable('analytics_visit_daily')
    .addColumn('dimension', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull());
  for (const metric of VISIT_METRICS) rollup = rollup.addColumn(metric, 'bigint', (c) => c.notNull());
  await rollup
    .addPrimaryKeyConstraint('analytics_visit_daily_pk', ['dimension', 'day', 'value'])
    .$call((b) => (sqlite ? b.modifyEnd(sql`without rowid`) : b))
    .execute();
}

/** The visit columns a report can be filtered by (and that have an index for it). */
const VISIT_FILTER_COLUMNS = [
  'source',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'country',
  'device',
  'browser',
  'os',
  'entry_page',
];

/** The visit's own dimensions (nullable), fixed by its first event. */
const VISIT_DIMENSION_COLUMNS = VISIT_FILTER_COLUMNS.filter((c) => c !== 'entry_page');

const VISIT_METRICS = [
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

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('analytics_visit_daily').ifExists().execute();
  await db.schema.dropTable('analytics_visits').ifExists().execute();
  await db.schema.dropIndex('analytics_events_visit_idx').ifExists().execute();
  for (const column of [
    'visit_id',
    'source',
    'utm_source',
    'utm_medium',
    'utm_campaign',
    'device',
    'browser',
    'os',
  ]) {
    await db.schema.alterTable('analytics_events').dropColumn(column).execute();
  }
}
