import { sql } from 'kysely';
import { type Db, engineOf } from './database.ts';

/**
 * After personal data was deleted, makes the deletion reach the disk. SQLite overwrites what it
 * deletes with zeros (`secure_delete`, set on every connection by `openSqlite`), but until the
 * write-ahead log is checkpointed the database file still holds the pages as they were, and the log
 * keeps old frames until it is written over. A TRUNCATE checkpoint copies the zeroed pages into the
 * file and empties the log; with another connection reading the log it does what it can, and the
 * next checkpoint finishes. PostgreSQL keeps a deleted row's bytes until VACUUM reuses its space:
 * nothing to do here (docs/privacy.md).
 */
export async function flushErasedContent(db: Db): Promise<void> {
  if (engineOf(db) !== 'sqlite') return;
  await sql`pragma wal_checkpoint(TRUNCATE)`.execute(db);
}
