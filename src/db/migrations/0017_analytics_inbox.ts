import { type Kysely, sql } from 'kysely';
import { engineOf } from '../database.ts';

/**
 * The analytics inbox (docs/analytics.md, "Write path"): a tracked event is committed here, as one
 * row of JSON, before it is acknowledged; the visits and rollups are brought up to date from these
 * rows in larger batches later (a fold), which deletes them in the same transaction. One b-tree on
 * SQLite (`without rowid`), keyed in arrival order.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('analytics_inbox')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('event', 'text', (c) => c.notNull())
    .$call((b) => (engineOf(db) === 'sqlite' ? b.modifyEnd(sql`without rowid`) : b))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('analytics_inbox').ifExists().execute();
}
