import { type Kysely, sql } from 'kysely';
import { engineOf } from '../database.ts';

/**
 * The stats' read side at scale (issue 29, docs/analytics.md "Reading at scale"):
 *
 * - monthly rollups (`analytics_monthly`, `analytics_visit_monthly`, month `YYYY-MM`), the same
 *   counters as the daily ones, maintained on write in the same transaction and filled here from the
 *   daily rows: a range reads whole months from them and only the days of its partial months;
 * - a sample key on each visit (`analytics_visits.sample`, 0–9999, indexed with the day): a filtered
 *   report over more visits than its budget reads the visits whose key is below a threshold, an index
 *   range, and scales. New visits take it from their id's random bits; existing ones get a random one;
 * - the events' visit index gains the page, type, country and referrer host: the `page` filter and a
 *   filtered report's event lists are read from the index alone.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const sqlite = engineOf(db) === 'sqlite';
  await db.schema
    .createTable('analytics_monthly')
    .addColumn('dimension', 'text', (c) => c.notNull())
    .addColumn('month', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('count', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('analytics_monthly_pk', ['dimension', 'month', 'value'])
    .$call((b) => (sqlite ? b.modifyEnd(sql`without rowid`) : b))
    .execute();
  let visitMonthly = db.schema
    .createTable('analytics_visit_monthly')
    .addColumn('dimension', 'text', (c) => c.notNull())
    .addColumn('month', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull());
  for (const metric of VISIT_METRICS)
    visitMonthly = visitMonthly.addColumn(metric, 'bigint', (c) => c.notNull());
  await visitMonthly
    .addPrimaryKeyConstraint('analytics_visit_monthly_pk', ['dimension', 'month', 'value'])
    .$call((b) => (sqlite ? b.modifyEnd(sql`without rowid`) : b))
    .execute();
  await sql`insert into analytics_monthly (dimension, month, value, count)
    select dimension, substr(day, 1, 7), value, sum(count) from analytics_daily
    group by dimension, substr(day, 1, 7), value`.execute(db);
  const metrics = sql.join(VISIT_METRICS.map((m) => sql.ref(m)));
  const sums = sql.join(VISIT_METRICS.map((m) => sql`sum(${sql.ref(m)})`));
  await sql`insert into analytics_visit_monthly (dimension, month, value, ${metrics})
    select dimension, substr(day, 1, 7), value, ${sums} from analytics_visit_daily
    group by dimension, substr(day, 1, 7), value`.execute(db);

  await db.schema
    .alterTable('analytics_visits')
    .addColumn('sample', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`update analytics_visits set sample = ${
    sqlite ? sql`abs(random()) % 10000` : sql`floor(random() * 10000)::integer`
  }`.execute(db);
  // The sample's range, carrying every column a filter reads that never changes after the visit's
  // first event (so a visit's update never touches it): the filters are checked in the index, and
  // only the visits that match are read from the table.
  await db.schema
    .createIndex('analytics_visits_sample_idx')
    .on('analytics_visits')
    .columns(['sample', 'day', ...SAMPLE_INDEX_COLUMNS])
    .execute();
  // The `page` filter asks, per visit, whether it had an event on the page, and a filtered report
  // counts its visits' events by page, type, country and referrer: both answered from this index
  // alone (the visit_id index it replaces made them read every event row; events never change).
  await db.schema
    .createIndex('analytics_events_visit_page_idx')
    .on('analytics_events')
    .columns(['visit_id', 'page', 'type', 'country', 'referrer_host'])
    .execute();
  await db.schema.dropIndex('analytics_events_visit_idx').execute();
}

/** The visit's immutable filter columns, and its id (the `page` filter's probe). */
const SAMPLE_INDEX_COLUMNS = [
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
];

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
  await db.schema
    .createIndex('analytics_events_visit_idx')
    .on('analytics_events')
    .column('visit_id')
    .execute();
  await db.schema.dropIndex('analytics_events_visit_page_idx').ifExists().execute();
  await db.schema.dropIndex('analytics_visits_sample_idx').ifExists().execute();
  await db.schema.alterTable('analytics_visits').dropColumn('sample').execute();
  await db.schema.dropTable('analytics_visit_monthly').ifExists().execute();
  await db.schema.dropTable('analytics_monthly').ifExists().execute();
}
