import { sql } from 'kysely';
import type { Db } from './database.ts';
import { bigint, integer, type RowOf, table, text } from './table-spec.ts';

/** The `cache_entries` table (migration 0001). */
export const cacheEntriesTable = table({
  key: text(),
  value: text(),
  size: integer(),
  created_at: bigint(),
  expires_at: bigint(),
  stale_until: bigint(),
});

declare module './schema.ts' {
  interface Database {
    cache_entries: RowOf<typeof cacheEntriesTable>;
  }
}

export interface CacheEntry<T> {
  value: T;
  createdAt: number;
  expiresAt: number;
  /** False once the TTL has passed; such entries are kept a while for stale-if-error. */
  fresh: boolean;
}

export interface CacheStats {
  entries: number;
  bytes: number;
  oldest: number | null;
  newest: number | null;
}

/** How long an expired entry is kept so it can be served when the upstream fails. */
export const DEFAULT_STALE_WINDOW_MS = 24 * 60 * 60 * 1000;

/** Escapes LIKE wildcards so a prefix matches literally (escape character `\`). */
function likePrefix(prefix: string): string {
  return `${prefix.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}

/**
 * A TTL cache in the database, shared by every instance. Values are JSON. Entries past their TTL are
 * returned with `fresh: false` until their stale window ends, then pruned.
 */
export class CacheStore {
  readonly #db: Db;
  readonly #now: () => number;

  constructor(db: Db, now: () => number = Date.now) {
    this.#db = db;
    this.#now = now;
  }

  async get<T>(key: string): Promise<CacheEntry<T> | null> {
    const row = await this.#db
      .selectFrom('cache_entries')
      .select(['value', 'created_at', 'expires_at', 'stale_until'])
      .where('key', '=', key)
      .executeTakeFirst();
    const now = this.#now();
    if (!row || row.stale_until <= now) return null;
    return {
      value: JSON.parse(row.value) as T,
      createdAt: row.created_at,
      expiresAt: row.expires_at,
      fresh: row.expires_at > now,
    };
  }

  async set(key: string, value: unknown, ttlSeconds: number, staleWindowMs = DEFAULT_STALE_WINDOW_MS) {
    const now = this.#now();
    const text = JSON.stringify(value);
    const row = {
      key,
      value: text,
      size: Buffer.byteLength(text),
      created_at: now,
      expires_at: now + ttlSeconds * 1000,
      stale_until: now + ttlSeconds * 1000 + staleWindowMs,
    };
    await this.#db
      .insertInto('cache_entries')
      .values(row)
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({
          value: row.value,
          size: row.size,
          created_at: row.created_at,
          expires_at: row.expires_at,
          stale_until: row.stale_until,
        }),
      )
      .execute();
  }

  async delete(key: string): Promise<void> {
    await this.#db.deleteFrom('cache_entries').where('key', '=', key).execute();
  }

  /** Deletes every entry whose key starts with `prefix`; returns how many went. */
  async purgePrefix(prefix: string): Promise<number> {
    const result = await this.#db
      .deleteFrom('cache_entries')
      .where(sql<boolean>`key like ${likePrefix(prefix)} escape '\\'`)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async stats(prefix: string): Promise<CacheStats> {
    const row = await this.#db
      .selectFrom('cache_entries')
      .select((eb) => [
        eb.fn.countAll<number>().as('entries'),
        eb.fn.sum<number | null>('size').as('bytes'),
        eb.fn.min<number | null>('created_at').as('oldest'),
        eb.fn.max<number | null>('created_at').as('newest'),
      ])
      .where(sql<boolean>`key like ${likePrefix(prefix)} escape '\\'`)
      .where('stale_until', '>', this.#now())
      .executeTakeFirstOrThrow();
    return {
      entries: Number(row.entries),
      bytes: Number(row.bytes ?? 0),
      oldest: row.oldest === null ? null : Number(row.oldest),
      newest: row.newest === null ? null : Number(row.newest),
    };
  }

  /** Removes entries past their stale window. */
  async prune(): Promise<number> {
    const result = await this.#db
      .deleteFrom('cache_entries')
      .where('stale_until', '<=', this.#now())
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
