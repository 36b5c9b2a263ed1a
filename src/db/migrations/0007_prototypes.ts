import type { Kysely } from 'kysely';

/**
 * Prototype generation state, shared by every instance: one row per attempt (status, timestamps of
 * the generating/completed/failed transitions, last progress and heartbeat, the result) and the
 * event log that generate-stream replays (per-lead sequence numbers are the SSE ids).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('prototype_attempts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('lead_id', 'text', (c) => c.notNull())
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('language', 'text', (c) => c.notNull())
    .addColumn('generator', 'text', (c) => c.notNull())
    .addColumn('origin', 'text', (c) => c.notNull())
    .addColumn('step', 'text', (c) => c.notNull())
    .addColumn('percent', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('generating_at', 'bigint', (c) => c.notNull())
    .addColumn('completed_at', 'bigint')
    .addColumn('failed_at', 'bigint')
    .addColumn('last_progress_at', 'bigint', (c) => c.notNull())
    .addColumn('heartbeat_at', 'bigint', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('fallback_reason', 'text')
    .addColumn('html', 'text')
    .addColumn('demo_url', 'text')
    .addColumn('files', 'text')
    .addColumn('external_id', 'text')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('prototype_attempts_lead_idx')
    .on('prototype_attempts')
    .columns(['lead_id', 'attempt'])
    .unique()
    .execute();
  await db.schema
    .createIndex('prototype_attempts_status_idx')
    .on('prototype_attempts')
    .columns(['status', 'heartbeat_at'])
    .execute();

  await db.schema
    .createTable('prototype_events')
    .addColumn('lead_id', 'text', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('attempt_id', 'text', (c) => c.notNull())
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('prototype_events_pk', ['lead_id', 'seq'])
    .execute();
  await db.schema
    .createIndex('prototype_events_attempt_idx')
    .on('prototype_events')
    .column('attempt_id')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('prototype_events').ifExists().execute();
  await db.schema.dropTable('prototype_attempts').ifExists().execute();
}
