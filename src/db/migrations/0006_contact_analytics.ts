import { type Kysely, sql } from 'kysely';
import { engineOf } from '../database.ts';

/**
 * Contact submissions and analytics. Analytics keeps the raw events (listing, audits) plus rollups
 * maintained on write in the same transaction (`analytics_daily`: one counter per UTC day, dimension
 * and value), so statistics read a few thousand rollup rows instead of scanning millions of events.
 * See docs/analytics.md.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('contact_submissions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('contact_submissions_created_idx')
    .on('contact_submissions')
    .columns(['created_at', 'id'])
    .execute();

  await db.schema
    .createTable('analytics_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('page', 'text', (c) => c.notNull())
    .addColumn('referrer', 'text')
    .addColumn('referrer_host', 'text')
    .addColumn('title', 'text')
    .addColumn('properties', 'text')
    .addColumn('session_id', 'text')
    .addColumn('country', 'text')
    .addColumn('visitor_hash', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('analytics_events_created_idx')
    .on('analytics_events')
    .columns(['created_at', 'id'])
    .execute();

  // On SQLite the rollup table IS its primary-key b-tree (WITHOUT ROWID): a range of (dimension,
  // day) is read in key order with its counts, no second lookup per row.
  const sqlite = engineOf(db) === 'sqlite';
  await db.schema
    .createTable('analytics_daily')
    .addColumn('dimension', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('count', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('analytics_daily_pk', ['dimension', 'day', 'value'])
    .$call((b) => (sqlite ? b.modifyEnd(sql`without rowid`) : b))
    .execute();

  await db.schema
    .createTable('analytics_visitors')
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('visitor_hash', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('analytics_visitors_pk', ['day', 'visitor_hash'])
    .execute();

  await db.schema
    .createTable('analytics_salts')
    .addColumn('day', 'text', (c) => c.primaryKey())
    .addColumn('salt', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'analytics_salts',
    'analytics_visitors',
    'analytics_daily',
    'analytics_events',
    'contact_submissions',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
