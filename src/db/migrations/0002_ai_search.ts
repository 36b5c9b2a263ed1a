import { type Kysely, sql } from 'kysely';
import { engineOf } from '../database.ts';

/**
 * The search index: one row per ingested document (for idempotent re-ingestion) and its chunks.
 * Full text: an FTS5 table ranked with bm25() on SQLite, a `tsvector` column with a GIN index ranked
 * with ts_rank() on PostgreSQL. Both index text folded in application code (lower case, accents
 * removed, light plural stripping), so English and Spanish need no database extension.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('search_documents')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('url', 'text')
    .addColumn('source', 'text')
    .addColumn('title', 'text')
    .addColumn('content_hash', 'text', (c) => c.notNull())
    .addColumn('chunk_count', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  const postgres = engineOf(db) === 'postgres';
  let chunks = db.schema
    .createTable('search_chunks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('document_key', 'text', (c) =>
      c.notNull().references('search_documents.key').onDelete('cascade'),
    )
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('url', 'text')
    .addColumn('source', 'text')
    .addColumn('title', 'text')
    .addColumn('item_key', 'text')
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull());
  if (postgres) chunks = chunks.addColumn('tsv', sql`tsvector`, (c) => c.notNull());
  await chunks.execute();
  await db.schema
    .createIndex('search_chunks_document_idx')
    .on('search_chunks')
    .column('document_key')
    .execute();

  if (postgres) {
    await sql`create index search_chunks_tsv_idx on search_chunks using gin (tsv)`.execute(db);
  } else {
    await sql`create virtual table search_fts using fts5(chunk_id unindexed, body)`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (engineOf(db) === 'sqlite') await sql`drop table if exists search_fts`.execute(db);
  await db.schema.dropTable('search_chunks').ifExists().execute();
  await db.schema.dropTable('search_documents').ifExists().execute();
}
