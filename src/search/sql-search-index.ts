import { createHash, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { type Db, engineOf, withTransaction } from '../db/database.ts';
import { bigint, integer, type RowOf, table, text } from '../db/table-spec.ts';
import type { SearchHit, SearchIndex } from './search-index.ts';
import { indexText, queryTerms } from './search-text.ts';

/** The `search_documents` table (migration 0002). */
export const searchDocumentsTable = table({
  key: text(),
  url: text().orNull(),
  source: text().orNull(),
  title: text().orNull(),
  content_hash: text(),
  chunk_count: integer(),
  updated_at: bigint(),
});

/** The `search_chunks` table (migration 0002). */
export const searchChunksTable = table({
  id: text(),
  document_key: text(),
  position: integer(),
  url: text().orNull(),
  source: text().orNull(),
  title: text().orNull(),
  item_key: text().orNull(),
  text: text(),
  created_at: bigint(),
});

declare module '../db/schema.ts' {
  interface Database {
    search_documents: RowOf<typeof searchDocumentsTable>;
    search_chunks: RowOf<typeof searchChunksTable>;
  }
}

/** A document to index: its metadata and its chunks' text, in order. */
export interface IndexedDocument {
  /** Stable identity: the same key re-ingested replaces the previous chunks. */
  key: string;
  url: string | null;
  source: string | null;
  title: string | null;
  chunks: string[];
}

export type ReplaceOutcome = 'added' | 'updated' | 'unchanged';

const FALLBACK_SOURCE = 'search index';

/**
 * Part of every document's content hash: raised when what the index stores for the same text changes
 * (folding, stemming), so the next ingest rewrites each document once instead of skipping it as
 * unchanged. 2: combining marks dropped before folding (`n` + U+0303 is `ñ`); plurals stemmed so that
 * singular and plural meet.
 */
const INDEX_FORMAT = 2;

function contentHash(doc: Pick<IndexedDocument, 'url' | 'source' | 'title' | 'chunks'>): string {
  return createHash('sha256')
    .update(JSON.stringify([INDEX_FORMAT, doc.url, doc.source, doc.title, doc.chunks]))
    .digest('hex');
}

/** The search index on the app's database: SQLite FTS5 + bm25, or PostgreSQL tsvector + ts_rank. */
export class SqlSearchIndex implements SearchIndex {
  readonly #db: Db;
  readonly #postgres: boolean;

  constructor(db: Db) {
    this.#db = db;
    this.#postgres = engineOf(db) === 'postgres';
  }

  async search(query: string, options: { limit?: number } = {}): Promise<SearchHit[]> {
    const terms = queryTerms(query);
    if (terms.length === 0) return [];
    const limit = Math.max(1, Math.min(options.limit ?? 5, 50));
    const rows = this.#postgres
      ? await this.#searchPostgres(terms, limit)
      : await this.#searchSqlite(terms, limit);
    return rows.map((row) => ({
      // ai-api.md: the source is the first of url, source, title, item key, then a fallback.
      source: row.url || row.source || row.title || row.item_key || FALLBACK_SOURCE,
      text: row.text,
      score: Math.round(Number(row.score) * 1e6) / 1e6,
      url: row.url,
      title: row.title,
    }));
  }

  async #searchSqlite(terms: string[], limit: number) {
    // Each term quoted: FTS5 query syntax in visitor text can never be interpreted.
    const match = terms.map((t) => `"${t}"`).join(' OR ');
    const result = await sql<ChunkRow>`
      select c.url, c.source, c.title, c.item_key, c.text, -bm25(search_fts) as score
      from search_fts join search_chunks c on c.id = search_fts.chunk_id
      where search_fts match ${match}
      order by bm25(search_fts) limit ${limit}`.execute(this.#db);
    return result.rows;
  }

  async #searchPostgres(terms: string[], limit: number) {
    const tsquery = terms.join(' | '); // terms are [a-z0-9]+ after folding: no tsquery syntax can slip in
    // ts_rank (unlike bm25) ignores the chunk's length: every chunk holding a one-word query once ties.
    // Among equal ranks the shorter chunk (fewer distinct words) comes first, as bm25 would put it.
    const result = await sql<ChunkRow>`
      select url, source, title, item_key, text, ts_rank(tsv, to_tsquery('simple', ${tsquery})) as score
      from search_chunks
      where tsv @@ to_tsquery('simple', ${tsquery})
      order by score desc, length(tsv) asc, position asc limit ${limit}`.execute(this.#db);
    return result.rows;
  }

  /** Replaces a document's chunks in one transaction; a document whose content did not change is left alone. */
  async replaceDocument(doc: IndexedDocument): Promise<ReplaceOutcome> {
    const hash = contentHash(doc);
    return withTransaction(this.#db, async (tx) => {
      const existing = await tx
        .selectFrom('search_documents')
        .select('content_hash')
        .where('key', '=', doc.key)
        .executeTakeFirst();
      if (existing?.content_hash === hash) return 'unchanged';
      await this.#deleteChunks(tx, doc.key);
      const now = Date.now();
      await tx
        .insertInto('search_documents')
        .values({
          key: doc.key,
          url: doc.url,
          source: doc.source,
          title: doc.title,
          content_hash: hash,
          chunk_count: doc.chunks.length,
          updated_at: now,
        })
        .onConflict((oc) =>
          oc.column('key').doUpdateSet({
            url: doc.url,
            source: doc.source,
            title: doc.title,
            content_hash: hash,
            chunk_count: doc.chunks.length,
            updated_at: now,
          }),
        )
        .execute();
      for (const [position, text] of doc.chunks.entries()) {
        const id = randomUUID();
        const body = indexText(`${doc.title ?? ''} ${text}`);
        const row = {
          id,
          document_key: doc.key,
          position,
          url: doc.url,
          source: doc.source,
          title: doc.title,
          item_key: `${doc.key}#${position}`,
          text,
          created_at: now,
        };
        if (this.#postgres) {
          await sql`insert into search_chunks (id, document_key, position, url, source, title, item_key, text, created_at, tsv)
            values (${row.id}, ${row.document_key}, ${row.position}, ${row.url}, ${row.source}, ${row.title}, ${row.item_key}, ${row.text}, ${row.created_at}, to_tsvector('simple', ${body}))`.execute(
            tx,
          );
        } else {
          await tx.insertInto('search_chunks').values(row).execute();
          await sql`insert into search_fts (chunk_id, body) values (${id}, ${body})`.execute(tx);
        }
      }
      return existing ? 'updated' : 'added';
    });
  }

  /** Removes a document and its chunks; true when it existed. */
  async removeDocument(key: string): Promise<boolean> {
    return withTransaction(this.#db, async (tx) => {
      await this.#deleteChunks(tx, key);
      const result = await tx.deleteFrom('search_documents').where('key', '=', key).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    });
  }

  /** The keys of the documents whose key starts with `prefix`. */
  async documentKeys(prefix: string): Promise<string[]> {
    const rows = await this.#db
      .selectFrom('search_documents')
      .select('key')
      .where(sql<string>`substr(key, 1, ${[...prefix].length})`, '=', prefix) // length in characters
      .execute();
    return rows.map((row) => row.key);
  }

  /** The documents keyed by their own URL (pages, sitemap pages) with their `source`. */
  async urlDocumentSources(): Promise<Map<string, string | null>> {
    const rows = await this.#db
      .selectFrom('search_documents')
      .select(['key', 'source'])
      .whereRef('key', '=', 'url')
      .execute();
    return new Map(rows.map((row) => [row.key, row.source]));
  }

  /** Changes a document's `source` (on its chunks too) without re-chunking it. */
  async setDocumentSource(key: string, source: string | null): Promise<void> {
    await withTransaction(this.#db, async (tx) => {
      const doc = await tx
        .selectFrom('search_documents')
        .select(['url', 'title'])
        .where('key', '=', key)
        .executeTakeFirst();
      if (!doc) return;
      const chunks = await tx
        .selectFrom('search_chunks')
        .select('text')
        .where('document_key', '=', key)
        .orderBy('position')
        .execute();
      const content_hash = contentHash({ ...doc, source, chunks: chunks.map((c) => c.text) });
      await tx.updateTable('search_documents').set({ source, content_hash }).where('key', '=', key).execute();
      await tx.updateTable('search_chunks').set({ source }).where('document_key', '=', key).execute();
    });
  }

  async stats(): Promise<{ documents: number; chunks: number }> {
    const documents = await this.#db
      .selectFrom('search_documents')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const chunks = await this.#db
      .selectFrom('search_chunks')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return { documents: Number(documents.n), chunks: Number(chunks.n) };
  }

  async #deleteChunks(tx: Db, key: string) {
    if (!this.#postgres) {
      await sql`delete from search_fts where chunk_id in (select id from search_chunks where document_key = ${key})`.execute(
        tx,
      );
    }
    await tx.deleteFrom('search_chunks').where('document_key', '=', key).execute();
  }
}

interface ChunkRow {
  url: string | null;
  source: string | null;
  title: string | null;
  item_key: string | null;
  text: string;
  score: number | string;
}
