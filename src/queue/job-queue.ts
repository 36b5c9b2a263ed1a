import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { type Db, engineOf } from '../db/database.ts';
import { bigint, integer, type RowOf, table, text } from '../db/table-spec.ts';
import { activeSpanContext } from '../tracing/context.ts';
import { formatTraceparent } from '../tracing/trace-context.ts';

/** The `jobs` table (migrations 0001, 0015). */
export const jobsTable = table({
  id: text(),
  queue: text(),
  payload: text(),
  status: text<JobStatus>(),
  attempts: integer(),
  max_attempts: integer(),
  run_at: bigint(),
  lease_until: bigint().orNull(),
  claim_token: text().orNull(),
  idempotency_key: text().orNull(),
  last_error: text().orNull(),
  created_at: bigint(),
  updated_at: bigint(),
  finished_at: bigint().orNull(),
  /** The `traceparent` of the request or job that enqueued it (tracing/). */
  trace_parent: text().orNull(),
});

declare module '../db/schema.ts' {
  interface Database {
    jobs: RowOf<typeof jobsTable>;
  }
}

export type JobStatus = 'pending' | 'running' | 'completed' | 'dead';
export const JOB_STATUSES: readonly JobStatus[] = ['pending', 'running', 'completed', 'dead'];

export interface EnqueueOptions {
  /** Run no earlier than this many milliseconds from now. */
  delayMs?: number;
  /** A second enqueue with the same key in the same queue returns the first job instead. */
  idempotencyKey?: string;
  maxAttempts?: number;
}

export interface EnqueueResult {
  id: string;
  /** False when an existing job with the same idempotency key was returned. */
  created: boolean;
}

export interface ClaimedJob<T = unknown> {
  id: string;
  queue: string;
  payload: T;
  /** 1 on the first run. */
  attempt: number;
  maxAttempts: number;
  claimToken: string;
  idempotencyKey: string | null;
  /** The `traceparent` of the work that enqueued it, if it ran in a span. */
  traceParent: string | null;
}

export interface QueueStatus {
  queue: string;
  counts: Record<JobStatus, number>;
  /** Pending jobs whose time has come (the rest wait for a retry delay). */
  ready: number;
  oldestPendingAt: number | null;
}

export interface JobRecord {
  id: string;
  status: JobStatus;
  attempts: number;
  maxAttempts: number;
  runAt: number;
  lastError: string | null;
  idempotencyKey: string | null;
  createdAt: number;
  finishedAt: number | null;
  payload: unknown;
}

export const DEFAULT_MAX_ATTEMPTS = 8;
export const BACKOFF_BASE_MS = 1000;
export const BACKOFF_MAX_MS = 15 * 60 * 1000;

/** Exponential backoff with ±20% jitter: 1 s, 2 s, 4 s … capped at 15 min. */
export function backoffDelayMs(attempt: number, baseMs = BACKOFF_BASE_MS, random = Math.random): number {
  const raw = Math.min(BACKOFF_MAX_MS, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(raw * (0.8 + random() * 0.4));
}

/**
 * The durable job queue on the application's database. Jobs are claimed with a lease; a job whose
 * worker died is claimed again once its lease has expired. Completion and failure are fenced by the
 * claim token, so a worker whose lease was taken over cannot overwrite the new owner's outcome.
 */
export class JobQueue {
  readonly #db: Db;
  readonly #now: () => number;
  readonly #backoffBaseMs: number;

  constructor(db: Db, options: { now?: () => number; backoffBaseMs?: number } = {}) {
    this.#db = db;
    this.#now = options.now ?? Date.now;
    this.#backoffBaseMs = options.backoffBaseMs ?? BACKOFF_BASE_MS;
  }

  async enqueue(queue: string, payload: unknown, options: EnqueueOptions = {}): Promise<EnqueueResult> {
    const now = this.#now();
    const id = randomUUID();
    const enqueuedIn = activeSpanContext();
    const inserted = await this.#db
      .insertInto('jobs')
      .values({
        id,
        queue,
        payload: JSON.stringify(payload ?? null),
        status: 'pending',
        attempts: 0,
        max_attempts: options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
        run_at: now + (options.delayMs ?? 0),
        idempotency_key: options.idempotencyKey ?? null,
        created_at: now,
        updated_at: now,
        trace_parent: enqueuedIn ? formatTraceparent(enqueuedIn) : null,
      })
      .onConflict((oc) => oc.columns(['queue', 'idempotency_key']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (inserted) return { id: inserted.id, created: true };
    const existing = await this.#db
      .selectFrom('jobs')
      .select('id')
      .where('queue', '=', queue)
      .where('idempotency_key', '=', options.idempotencyKey ?? '')
      .executeTakeFirstOrThrow();
    return { id: existing.id, created: false };
  }

  /**
   * Makes the pending job with this idempotency key due now (a delayed safety-net job whose work is
   * needed early). True when a job was moved.
   */
  async expedite(queue: string, idempotencyKey: string): Promise<boolean> {
    const now = this.#now();
    const result = await this.#db
      .updateTable('jobs')
      .set({ run_at: now, updated_at: now })
      .where('queue', '=', queue)
      .where('idempotency_key', '=', idempotencyKey)
      .where('status', '=', 'pending')
      .where('run_at', '>', now)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /**
   * Cancels the job with this idempotency key unless it has run or is running: a pending job (due,
   * delayed or waiting for a retry) or a dead one is deleted, so nothing runs it and the admin cannot
   * retry it. A later enqueue with the same key creates the job afresh. True when a job was cancelled.
   */
  async cancel(queue: string, idempotencyKey: string): Promise<boolean> {
    const result = await this.#db
      .deleteFrom('jobs')
      .where('queue', '=', queue)
      .where('idempotency_key', '=', idempotencyKey)
      .where('status', 'in', ['pending', 'dead'])
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Takes the next due job (or one whose lease expired) and leases it for `leaseMs`. */
  async claim<T = unknown>(queue: string, leaseMs: number): Promise<ClaimedJob<T> | null> {
    const now = this.#now();
    const token = randomUUID();
    const candidate = this.#db
      .selectFrom('jobs')
      .select('id')
      .where('queue', '=', queue)
      .where((eb) =>
        eb.or([
          eb.and([eb('status', '=', 'pending'), eb('run_at', '<=', now)]),
          eb.and([eb('status', '=', 'running'), eb('lease_until', '<', now)]),
        ]),
      )
      .orderBy('run_at')
      .limit(1);
    const lockedCandidate =
      engineOf(this.#db) === 'postgres' ? candidate.forUpdate().skipLocked() : candidate;
    const row = await this.#db
      .updateTable('jobs')
      .set({
        status: 'running',
        attempts: sql<number>`attempts + 1`,
        lease_until: now + leaseMs,
        claim_token: token,
        updated_at: now,
      })
      .where('id', '=', lockedCandidate)
      .returning(['id', 'queue', 'payload', 'attempts', 'max_attempts', 'idempotency_key', 'trace_parent'])
      .executeTakeFirst();
    if (!row) return null;
    return {
      id: row.id,
      queue: row.queue,
      payload: JSON.parse(row.payload) as T,
      attempt: Number(row.attempts),
      maxAttempts: Number(row.max_attempts),
      claimToken: token,
      idempotencyKey: row.idempotency_key,
      traceParent: row.trace_parent,
    };
  }

  /** Extends a running job's lease; false when the lease was lost to another worker. */
  async heartbeat(job: ClaimedJob, leaseMs: number): Promise<boolean> {
    const now = this.#now();
    const result = await this.#db
      .updateTable('jobs')
      .set({ lease_until: now + leaseMs, updated_at: now })
      .where('id', '=', job.id)
      .where('claim_token', '=', job.claimToken)
      .where('status', '=', 'running')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async complete(job: ClaimedJob): Promise<boolean> {
    const now = this.#now();
    const result = await this.#db
      .updateTable('jobs')
      .set({ status: 'completed', lease_until: null, last_error: null, updated_at: now, finished_at: now })
      .where('id', '=', job.id)
      .where('claim_token', '=', job.claimToken)
      .where('status', '=', 'running')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /**
   * Records a failed attempt: back to pending after a backoff delay, or `dead` once the attempts are
   * used up (or when `permanent`). Returns the state the job went to, or null when the lease was lost
   * to another worker (nothing recorded: the job is that worker's now).
   */
  async fail(
    job: ClaimedJob,
    error: unknown,
    options: { permanent?: boolean } = {},
  ): Promise<JobStatus | null> {
    const now = this.#now();
    const message = (error instanceof Error ? error.message : String(error)).slice(0, 2000);
    const dead = options.permanent === true || job.attempt >= job.maxAttempts;
    const status: JobStatus = dead ? 'dead' : 'pending';
    const result = await this.#db
      .updateTable('jobs')
      .set({
        status,
        last_error: message,
        lease_until: null,
        run_at: dead ? now : now + backoffDelayMs(job.attempt, this.#backoffBaseMs),
        updated_at: now,
        finished_at: dead ? now : null,
      })
      .where('id', '=', job.id)
      .where('claim_token', '=', job.claimToken)
      .where('status', '=', 'running')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1 ? status : null;
  }

  async status(queue: string): Promise<QueueStatus> {
    const now = this.#now();
    const rows = await this.#db
      .selectFrom('jobs')
      .select((eb) => [
        'status',
        eb.fn.countAll<number>().as('count'),
        eb.fn.min<number | null>('created_at').as('oldest'),
        eb.fn.sum<number>(eb.case().when('run_at', '<=', now).then(1).else(0).end()).as('ready'),
      ])
      .where('queue', '=', queue)
      .groupBy('status')
      .execute();
    const counts: Record<JobStatus, number> = { pending: 0, running: 0, completed: 0, dead: 0 };
    let ready = 0;
    let oldestPendingAt: number | null = null;
    for (const row of rows) {
      counts[row.status] = Number(row.count);
      if (row.status === 'pending') {
        ready = Number(row.ready);
        oldestPendingAt = row.oldest === null ? null : Number(row.oldest);
      }
    }
    return { queue, counts, ready, oldestPendingAt };
  }

  async list(queue: string, options: { status?: JobStatus; limit?: number } = {}): Promise<JobRecord[]> {
    let query = this.#db
      .selectFrom('jobs')
      .selectAll()
      .where('queue', '=', queue)
      .orderBy('created_at', 'desc')
      .limit(options.limit ?? 50);
    if (options.status) query = query.where('status', '=', options.status);
    const rows = await query.execute();
    return rows.map((r) => ({
      id: r.id,
      status: r.status,
      attempts: Number(r.attempts),
      maxAttempts: Number(r.max_attempts),
      runAt: Number(r.run_at),
      lastError: r.last_error,
      idempotencyKey: r.idempotency_key,
      createdAt: Number(r.created_at),
      finishedAt: r.finished_at === null ? null : Number(r.finished_at),
      payload: JSON.parse(r.payload),
    }));
  }

  /** Puts dead jobs (one, or all of the queue) back to pending with fresh attempts. */
  async retryDead(queue: string, jobId?: string): Promise<number> {
    const now = this.#now();
    let query = this.#db
      .updateTable('jobs')
      .set({
        status: 'pending',
        attempts: 0,
        run_at: now,
        last_error: null,
        finished_at: null,
        updated_at: now,
      })
      .where('queue', '=', queue)
      .where('status', '=', 'dead');
    if (jobId) query = query.where('id', '=', jobId);
    const result = await query.executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /** Deletes the queue's jobs that are not running (pending, completed and dead); returns how many. */
  async clear(queue: string): Promise<number> {
    const result = await this.#db
      .deleteFrom('jobs')
      .where('queue', '=', queue)
      .where('status', '!=', 'running')
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** Deletes completed jobs finished before `olderThanMs` ago; dead ones stay for inspection. */
  async prune(olderThanMs: number): Promise<number> {
    const result = await this.#db
      .deleteFrom('jobs')
      .where('status', '=', 'completed')
      .where('finished_at', '<', this.#now() - olderThanMs)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
