import { createHmac } from 'node:crypto';
import type { Transaction } from 'kysely';
import { sql } from 'kysely';
import { type Db, type DbOrTx, engineOf, withTransaction } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { bigint, integer, type RowOf, table, text } from '../../db/table-spec.ts';
import { limitKey } from '../../http/client-ip.ts';
import type { PrototypeKind } from './store.ts';

/** The `prototype_quota_counters` table (migration 0003). */
export const prototypeQuotaCountersTable = table({
  month: text(),
  kind: text(),
  bucket: text(),
  used: integer(),
});

/** The `prototype_quota_holds` table (migration 0003). */
export const prototypeQuotaHoldsTable = table({
  lead_id: text(),
  month: text(),
  kind: text(),
  bucket: text(),
  in_progress: integer(),
  created_at: bigint(),
  updated_at: bigint(),
});

/** The `lead_settings` table (migration 0003). */
export const leadSettingsTable = table({
  name: text(),
  value: text(),
});

declare module '../../db/schema.ts' {
  interface Database {
    prototype_quota_counters: RowOf<typeof prototypeQuotaCountersTable>;
    prototype_quota_holds: RowOf<typeof prototypeQuotaHoldsTable>;
    lead_settings: RowOf<typeof leadSettingsTable>;
  }
}

/** The visitor's identifiers. `ip` may be a raw IP or an `iph_…` hash as stored on a lead. */
export interface QuotaBuckets {
  ip: string | null;
  email: string;
}

export interface KindUsage {
  used: number;
  limit: number;
  remaining: number;
}

export interface QuotaUsage {
  landing: KindUsage;
  application: KindUsage;
  inProgress: boolean;
  inProgressType: PrototypeKind | null;
  /** First day of next month (UTC), `YYYY-MM-DD`. */
  resetDate: string;
}

export interface ReserveResult {
  allowed: boolean;
  resetDate: string;
  retryAfterSeconds: number;
}

export const PROTOTYPE_KINDS: readonly PrototypeKind[] = ['landing', 'application'];
const IP_HASH_PREFIX = 'iph_';

class QuotaExceeded extends Error {}

/**
 * SQLite: write first, so the transaction holds the write lock from its start (like BEGIN IMMEDIATE).
 * A transaction that read first and then wrote could fail with SQLITE_BUSY when another process
 * sharing the file wrote in between; taking the lock first makes it wait its turn instead.
 * PostgreSQL needs nothing: the counter upsert locks the row.
 */
async function takeWriteLock(tx: Transaction<Database>): Promise<void> {
  if (engineOf(tx) !== 'sqlite') return;
  await tx
    .updateTable('lead_settings')
    .set({ value: sql<string>`value` })
    .where('name', '=', 'bucket_salt')
    .execute();
}

function emailBucketKey(salt: string, email: string): string {
  const hash = createHmac('sha256', salt).update(`email:${email.trim().toLowerCase()}`).digest('hex');
  return `email:${hash.slice(0, 40)}`;
}

/**
 * The stored key of an address's bucket (a salted hash): the counters and holds under it are that
 * address's. Reads the salt through `db`, so it works inside a transaction.
 */
export async function emailBucketOf(db: DbOrTx, email: string): Promise<string> {
  const row = await db
    .selectFrom('lead_settings')
    .select('value')
    .where('name', '=', 'bucket_salt')
    .executeTakeFirstOrThrow();
  return emailBucketKey(row.value, email);
}

/** `YYYY-MM` of the UTC month containing `now`. */
export function monthKey(now: number): string {
  return new Date(now).toISOString().slice(0, 7);
}

/** Start of the next UTC month. */
export function nextMonthStart(now: number): number {
  const d = new Date(now);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}

/**
 * The monthly prototype quota: per UTC month, per kind, per bucket (the visitor's IP and e-mail, both
 * stored only as salted hashes). A reservation takes one slot in every bucket or in none, in one
 * transaction whose counter upserts only succeed below the limit, so two instances can never both take
 * the last slot. Holds are per lead, which makes reserve idempotent and lets release give slots back.
 */
export class PrototypeQuota {
  readonly #db: Db;
  readonly #limit: number;
  readonly #now: () => number;
  #salt: Promise<string> | null = null;

  constructor(db: Db, limit: number, now: () => number = Date.now) {
    this.#db = db;
    this.#limit = limit;
    this.#now = now;
  }

  get limit(): number {
    return this.#limit;
  }

  #loadSalt(): Promise<string> {
    this.#salt ??= this.#db
      .selectFrom('lead_settings')
      .select('value')
      .where('name', '=', 'bucket_salt')
      .executeTakeFirstOrThrow()
      .then((row) => row.value)
      .catch((error: unknown) => {
        this.#salt = null;
        throw error;
      });
    return this.#salt;
  }

  /**
   * The stored form of a client IP: a salted hash, never the address itself. An IPv6 client is its
   * /64 (limitKey): any address in it is the same bucket.
   */
  async hashIp(ip: string | null): Promise<string | null> {
    if (!ip) return null;
    if (ip.startsWith(IP_HASH_PREFIX)) return ip;
    const salt = await this.#loadSalt();
    const client = limitKey(ip);
    return `${IP_HASH_PREFIX}${createHmac('sha256', salt).update(`ip:${client}`).digest('hex').slice(0, 40)}`;
  }

  async #bucketKeys(buckets: QuotaBuckets): Promise<string[]> {
    const salt = await this.#loadSalt();
    const keys = [emailBucketKey(salt, buckets.email)];
    const ipHash = await this.hashIp(buckets.ip);
    if (ipHash) keys.push(`ip:${ipHash.slice(IP_HASH_PREFIX.length)}`);
    // A fixed order, so concurrent reservations lock counters in the same order (no deadlock).
    return keys.sort();
  }

  #reset(now: number) {
    const next = nextMonthStart(now);
    return {
      resetDate: new Date(next).toISOString().slice(0, 10),
      retryAfterSeconds: Math.max(1, Math.ceil((next - now) / 1000)),
    };
  }

  async usage(buckets: QuotaBuckets): Promise<QuotaUsage> {
    const now = this.#now();
    const month = monthKey(now);
    const keys = await this.#bucketKeys(buckets);
    const counters = await this.#db
      .selectFrom('prototype_quota_counters')
      .select(['kind', 'used'])
      .where('month', '=', month)
      .where('bucket', 'in', keys)
      .execute();
    const running = await this.#db
      .selectFrom('prototype_quota_holds')
      .select(['kind'])
      .where('month', '=', month)
      .where('bucket', 'in', keys)
      .where('in_progress', '=', 1)
      .orderBy('updated_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    const kindUsage = (kind: PrototypeKind): KindUsage => {
      // The stricter bucket decides: the most used one.
      const used = Math.max(0, ...counters.filter((c) => c.kind === kind).map((c) => Number(c.used)));
      return { used, limit: this.#limit, remaining: Math.max(0, this.#limit - used) };
    };
    return {
      landing: kindUsage('landing'),
      application: kindUsage('application'),
      inProgress: running !== undefined,
      inProgressType: (running?.kind as PrototypeKind | undefined) ?? null,
      resetDate: this.#reset(now).resetDate,
    };
  }

  /**
   * Takes one slot of `kind` this month in every bucket, for `leadId`. A lead that already holds its
   * slot this month is allowed again without consuming another.
   */
  async reserve(kind: PrototypeKind, buckets: QuotaBuckets, leadId: string): Promise<ReserveResult> {
    const now = this.#now();
    const month = monthKey(now);
    const keys = await this.#bucketKeys(buckets);
    const reset = this.#reset(now);
    if (this.#limit <= 0) return { allowed: false, ...reset };
    try {
      await withTransaction(this.#db, async (tx) => {
        await takeWriteLock(tx);
        const existing = await tx
          .selectFrom('prototype_quota_holds')
          .select('bucket')
          .where('lead_id', '=', leadId)
          .where('month', '=', month)
          .limit(1)
          .executeTakeFirst();
        if (existing) return;
        // The hold rows first: a second reservation for the same lead waits on (or collides with)
        // them and is then recognised as already holding the slot.
        const held = await tx
          .insertInto('prototype_quota_holds')
          .values(
            keys.map((bucket) => ({
              lead_id: leadId,
              month,
              kind,
              bucket,
              in_progress: 0,
              created_at: now,
              updated_at: now,
            })),
          )
          .onConflict((oc) => oc.columns(['lead_id', 'month', 'bucket']).doNothing())
          .returning('bucket')
          .execute();
        const fresh = new Set(held.map((h) => h.bucket));
        if (fresh.size === 0) return;
        for (const bucket of keys) {
          if (!fresh.has(bucket)) continue;
          const taken = await tx
            .insertInto('prototype_quota_counters')
            .values({ month, kind, bucket, used: 1 })
            .onConflict((oc) =>
              oc
                .columns(['month', 'kind', 'bucket'])
                .doUpdateSet({ used: sql<number>`prototype_quota_counters.used + 1` })
                .where('prototype_quota_counters.used', '<', this.#limit),
            )
            .returning('used')
            .executeTakeFirst();
          if (!taken) throw new QuotaExceeded();
        }
      });
      return { allowed: true, ...reset };
    } catch (error) {
      if (error instanceof QuotaExceeded) return { allowed: false, ...reset };
      throw error;
    }
  }

  async markInProgress(leadId: string): Promise<void> {
    await this.#setInProgress(leadId, 1);
  }

  /** Generation finished: the slot stays used, the in-progress mark goes. */
  async complete(leadId: string): Promise<void> {
    await this.#setInProgress(leadId, 0);
  }

  /**
   * Generation failed: the slot is given back to every bucket and the in-progress mark goes. The
   * holds of `keepMonths` stay (a prototype delivered that month still uses its slot), marked done.
   */
  async release(leadId: string, keepMonths: ReadonlySet<string> = new Set()): Promise<void> {
    await withTransaction(this.#db, async (tx) => {
      await takeWriteLock(tx);
      const holds = await tx
        .deleteFrom('prototype_quota_holds')
        .where('lead_id', '=', leadId)
        .$if(keepMonths.size > 0, (q) => q.where('month', 'not in', [...keepMonths]))
        .returning(['month', 'kind', 'bucket'])
        .execute();
      await tx
        .updateTable('prototype_quota_holds')
        .set({ in_progress: 0, updated_at: this.#now() })
        .where('lead_id', '=', leadId)
        .execute();
      for (const hold of holds) {
        await tx
          .updateTable('prototype_quota_counters')
          .set({ used: sql<number>`case when used > 0 then used - 1 else 0 end` })
          .where('month', '=', hold.month)
          .where('kind', '=', hold.kind)
          .where('bucket', '=', hold.bucket)
          .execute();
      }
    });
  }

  async #setInProgress(leadId: string, value: 0 | 1): Promise<void> {
    await this.#db
      .updateTable('prototype_quota_holds')
      .set({ in_progress: value, updated_at: this.#now() })
      .where('lead_id', '=', leadId)
      .execute();
  }
}
