import { createHmac } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from './database.ts';
import { bigint, integer, type RowOf, table, text } from './table-spec.ts';

/** The `rate_limits` table (migration 0001). */
export const rateLimitsTable = table({
  key: text(),
  count: integer(),
  window_end: bigint(),
});

/** The `counters` table (migration 0001). */
export const countersTable = table({
  name: text(),
  value: bigint(),
});

/** The `service_settings` table (migration 0009). */
export const serviceSettingsTable = table({
  name: text(),
  value: text(),
});

declare module './schema.ts' {
  interface Database {
    rate_limits: RowOf<typeof rateLimitsTable>;
    counters: RowOf<typeof countersTable>;
    service_settings: RowOf<typeof serviceSettingsTable>;
  }
}

export interface RateLimitResult {
  allowed: boolean;
  count: number;
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  retryAfterSeconds: number;
}

/**
 * Fixed-window counters in the database, so a limit holds across every instance. One upsert both
 * counts and reads, so two instances cannot both take the last slot.
 *
 * Keys name a client (`contact:203.0.113.7`), so they are stored as the limit's name and a keyed hash
 * of the whole key (`contact:3f9a…`): the table never holds an IP address. The secret is shared by
 * every instance through the database. Expired windows are deleted by the housekeeping (`prune`).
 */
export class RateLimiter {
  readonly #db: Db;
  readonly #now: () => number;
  #secret: Promise<string> | null = null;

  constructor(db: Db, now: () => number = Date.now) {
    this.#db = db;
    this.#now = now;
  }

  /** The stored form of a key: its name (up to the first `:`) and 128 bits of HMAC-SHA-256 of all of it. */
  async storedKey(key: string): Promise<string> {
    const secret = await this.#loadSecret();
    const colon = key.indexOf(':');
    const name = colon >= 0 ? key.slice(0, colon) : 'key';
    return `${name}:${createHmac('sha256', secret).update(key).digest('hex').slice(0, 32)}`;
  }

  /** Read once per process; a failed read is tried again on the next call. */
  #loadSecret(): Promise<string> {
    if (this.#secret === null) {
      const loading = this.#db
        .selectFrom('service_settings')
        .select('value')
        .where('name', '=', 'rate_limit_key_secret')
        .executeTakeFirstOrThrow()
        .then((row) => row.value);
      loading.catch(() => {
        if (this.#secret === loading) this.#secret = null;
      });
      this.#secret = loading;
    }
    return this.#secret;
  }

  /** Counts `cost` hits (default 1) in the key's window and reports the window's total. */
  async hit(key: string, limit: number, windowMs: number, cost = 1): Promise<RateLimitResult> {
    const storedKey = await this.storedKey(key);
    const now = this.#now();
    const windowEnd = now + windowMs;
    const row = await this.#db
      .insertInto('rate_limits')
      .values({ key: storedKey, count: cost, window_end: windowEnd })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({
          count: sql<number>`case when rate_limits.window_end <= ${now} then ${cost} else rate_limits.count + ${cost} end`,
          window_end: sql<number>`case when rate_limits.window_end <= ${now} then ${windowEnd} else rate_limits.window_end end`,
        }),
      )
      .returning(['count', 'window_end'])
      .executeTakeFirstOrThrow();
    const count = Number(row.count);
    return {
      allowed: count <= limit,
      count,
      limit,
      remaining: Math.max(0, limit - count),
      retryAfterSeconds: Math.max(1, Math.ceil((Number(row.window_end) - now) / 1000)),
    };
  }

  async prune(): Promise<number> {
    const result = await this.#db
      .deleteFrom('rate_limits')
      .where('window_end', '<=', this.#now())
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}

/** Monotonic named counters shared by every instance (bot drops, cache hits, …). */
export async function incrementCounter(db: Db, name: string, by = 1): Promise<void> {
  await db
    .insertInto('counters')
    .values({ name, value: by })
    .onConflict((oc) => oc.column('name').doUpdateSet({ value: sql<number>`counters.value + ${by}` }))
    .execute();
}

export async function readCounters(db: Db, names: string[]): Promise<Record<string, number>> {
  const result: Record<string, number> = Object.fromEntries(names.map((n) => [n, 0]));
  if (names.length === 0) return result;
  const rows = await db.selectFrom('counters').select(['name', 'value']).where('name', 'in', names).execute();
  for (const row of rows) result[row.name] = Number(row.value);
  return result;
}
