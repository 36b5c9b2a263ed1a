import { randomUUID } from 'node:crypto';
import { type Db, type DbOrTx, withTransaction } from '../../db/database.ts';
import { bigint, integer, type RowOf, table, text } from '../../db/table-spec.ts';
import type {
  GeneratedFile,
  GenerationRequest,
  PrototypeKind,
  PrototypeLanguage,
} from '../../integrations/prototype-generator/types.ts';

export type AttemptStatus = 'generating' | 'completed' | 'failed';
export type AttemptOrigin = 'trigger' | 'generate' | 'stream' | 'queue' | 'chat';
export type StreamEventName = 'progress' | 'complete' | 'error';

/** The `prototype_attempts` table (migration 0007). */
export const prototypeAttemptsTable = table({
  id: text(),
  lead_id: text(),
  attempt: integer(),
  status: text<AttemptStatus>(),
  kind: text(),
  language: text(),
  generator: text(),
  origin: text(),
  step: text(),
  percent: integer(),
  generating_at: bigint(),
  completed_at: bigint().orNull(),
  failed_at: bigint().orNull(),
  last_progress_at: bigint(),
  heartbeat_at: bigint(),
  error: text().orNull(),
  fallback_reason: text().orNull(),
  html: text().orNull(),
  demo_url: text().orNull(),
  files: text().orNull(),
  external_id: text().orNull(),
  updated_at: bigint(),
});

/** The `prototype_events` table (migration 0007). */
export const prototypeEventsTable = table({
  lead_id: text(),
  seq: integer(),
  attempt_id: text(),
  event: text<StreamEventName>(),
  data: text(),
  created_at: bigint(),
});

declare module '../../db/schema.ts' {
  interface Database {
    prototype_attempts: RowOf<typeof prototypeAttemptsTable>;
    prototype_events: RowOf<typeof prototypeEventsTable>;
  }
}

export interface Attempt {
  id: string;
  leadId: string;
  attempt: number;
  status: AttemptStatus;
  kind: PrototypeKind;
  language: PrototypeLanguage;
  generator: string;
  origin: AttemptOrigin;
  step: string;
  percent: number;
  generatingAt: number;
  completedAt: number | null;
  failedAt: number | null;
  lastProgressAt: number;
  heartbeatAt: number;
  error: string | null;
  fallbackReason: string | null;
  demoUrl: string | null;
  externalId: string | null;
  hasHtml: boolean;
}

export interface StoredEvent {
  seq: number;
  attemptId: string;
  event: StreamEventName;
  /** The JSON text stored for the event's data. */
  data: string;
  createdAt: number;
}

/** A write by an attempt that is no longer the running one (it went stale and was replaced). */
export class AttemptSupersededError extends Error {
  override name = 'AttemptSupersededError';
}

const ATTEMPT_COLUMNS = [
  'id',
  'lead_id',
  'attempt',
  'status',
  'kind',
  'language',
  'generator',
  'origin',
  'step',
  'percent',
  'generating_at',
  'completed_at',
  'failed_at',
  'last_progress_at',
  'heartbeat_at',
  'error',
  'fallback_reason',
  'demo_url',
  'external_id',
] as const;

type AttemptRow = Pick<
  import('../../db/schema.ts').Database['prototype_attempts'],
  (typeof ATTEMPT_COLUMNS)[number]
> & { has_html: number | boolean | string };

function toAttempt(r: AttemptRow): Attempt {
  const num = (v: number | null) => (v === null ? null : Number(v));
  return {
    id: r.id,
    leadId: r.lead_id,
    attempt: Number(r.attempt),
    status: r.status,
    kind: r.kind as PrototypeKind,
    language: r.language as PrototypeLanguage,
    generator: r.generator,
    origin: r.origin as AttemptOrigin,
    step: r.step,
    percent: Number(r.percent),
    generatingAt: Number(r.generating_at),
    completedAt: num(r.completed_at),
    failedAt: num(r.failed_at),
    lastProgressAt: Number(r.last_progress_at),
    heartbeatAt: Number(r.heartbeat_at),
    error: r.error,
    fallbackReason: r.fallback_reason,
    demoUrl: r.demo_url,
    externalId: r.external_id,
    hasHtml: r.has_html === true || Number(r.has_html) === 1,
  };
}

function selectAttempts(db: DbOrTx) {
  return db
    .selectFrom('prototype_attempts')
    .select(ATTEMPT_COLUMNS)
    .select((eb) => eb.case().when('html', 'is not', null).then(1).else(0).end().as('has_html'));
}

export async function latestAttempt(db: DbOrTx, leadId: string): Promise<Attempt | null> {
  const row = await selectAttempts(db)
    .where('lead_id', '=', leadId)
    .orderBy('attempt', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? toAttempt(row) : null;
}

/** When each completed generation of a lead started (its quota month). */
export async function completedStarts(db: DbOrTx, leadId: string): Promise<number[]> {
  const rows = await db
    .selectFrom('prototype_attempts')
    .select('generating_at')
    .where('lead_id', '=', leadId)
    .where('status', '=', 'completed')
    .execute();
  return rows.map((r) => Number(r.generating_at));
}

export async function attemptById(db: DbOrTx, id: string): Promise<Attempt | null> {
  const row = await selectAttempts(db).where('id', '=', id).executeTakeFirst();
  return row ? toAttempt(row) : null;
}

/** The newest completed attempt of a lead (what the preview shows), with its document. */
export async function latestResult(
  db: DbOrTx,
  leadId: string,
): Promise<(Attempt & { html: string | null; files: GeneratedFile[] }) | null> {
  const row = await selectAttempts(db)
    .select(['html', 'files'])
    .where('lead_id', '=', leadId)
    .where('status', '=', 'completed')
    .orderBy('attempt', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!row) return null;
  return {
    ...toAttempt(row),
    html: row.html,
    files: row.files ? (JSON.parse(row.files) as GeneratedFile[]) : [],
  };
}

/**
 * Whether a failed attempt ended its generation request (an `error` event with `retrying: false`),
 * rather than leaving it to PrototypeQueue's retry, a takeover or a hand-over.
 */
export async function failedForGood(db: DbOrTx, attemptId: string): Promise<boolean> {
  const errors = await db
    .selectFrom('prototype_events')
    .select('data')
    .where('attempt_id', '=', attemptId)
    .where('event', '=', 'error')
    .execute();
  return errors.some((e) => (JSON.parse(e.data) as { retrying?: boolean }).retrying === false);
}

export function isStale(attempt: Attempt, now: number, staleAfterMs: number): boolean {
  return (
    attempt.status === 'generating' &&
    now - Math.max(attempt.heartbeatAt, attempt.lastProgressAt) > staleAfterMs
  );
}

/**
 * The generation request an attempt belongs to. A request runs from the attempt that follows the
 * lead's last ended one (a `complete`, or an `error` with `retrying: false`) to its own end: its
 * retries, takeovers and restarts while the lead stays `generating` are the same request, and the
 * request's key is its first attempt's id.
 */
export async function generationRequest(
  db: DbOrTx,
  attempt: Pick<Attempt, 'id' | 'leadId' | 'attempt'>,
): Promise<GenerationRequest> {
  const ends = await db
    .selectFrom('prototype_events as e')
    .innerJoin('prototype_attempts as a', 'a.id', 'e.attempt_id')
    .select(['a.attempt', 'e.event', 'e.data'])
    .where('e.lead_id', '=', attempt.leadId)
    .where('e.event', 'in', ['complete', 'error'])
    .where('a.attempt', '<', attempt.attempt)
    .execute();
  const lastEnded = Math.max(
    0,
    ...ends
      .filter(
        (e) => e.event === 'complete' || (JSON.parse(e.data) as { retrying?: boolean }).retrying === false,
      )
      .map((e) => Number(e.attempt)),
  );
  const first = await db
    .selectFrom('prototype_attempts')
    .select('id')
    .where('lead_id', '=', attempt.leadId)
    .where('attempt', '>', lastEnded)
    .orderBy('attempt')
    .limit(1)
    .executeTakeFirst();
  const key = first?.id ?? attempt.id;
  return { key, retry: key !== attempt.id };
}

/** SQLite's extended result codes for a UNIQUE and a PRIMARY KEY constraint. */
const SQLITE_UNIQUE_ERRCODES = new Set([2067, 1555]);

/** A duplicate key (the race this store settles), not any other constraint (NOT NULL, CHECK…). */
function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; errcode?: number } | null;
  return e?.code === '23505' || SQLITE_UNIQUE_ERRCODES.has(e?.errcode ?? -1);
}

export interface StartAttemptInput {
  leadId: string;
  kind: PrototypeKind;
  language: PrototypeLanguage;
  generator: string;
  origin: AttemptOrigin;
  staleAfterMs: number;
  now?: number;
}

/**
 * Starts a new attempt unless one is already running (fresh): single-flight across instances. A
 * stale running attempt is marked failed (fenced on its heartbeat) and replaced. Two instances
 * racing insert the same attempt number; the loser returns the winner's attempt.
 */
export async function startAttempt(
  db: Db,
  input: StartAttemptInput,
): Promise<{ attempt: Attempt; started: boolean; replacedStale: Attempt | null }> {
  const now = input.now ?? Date.now();
  try {
    return await withTransaction(db, async (tx) => {
      const latest = await latestAttempt(tx, input.leadId);
      let replacedStale: Attempt | null = null;
      if (latest?.status === 'generating') {
        if (!isStale(latest, now, input.staleAfterMs))
          return { attempt: latest, started: false, replacedStale };
        const cutoff = now - input.staleAfterMs;
        const fenced = await tx
          .updateTable('prototype_attempts')
          .set({
            status: 'failed',
            failed_at: now,
            error: 'stale: no progress from its worker',
            updated_at: now,
          })
          .where('id', '=', latest.id)
          .where('status', '=', 'generating')
          .where('heartbeat_at', '<', cutoff)
          .where('last_progress_at', '<', cutoff)
          .executeTakeFirst();
        if (Number(fenced.numUpdatedRows) === 0) {
          // Its heartbeat landed between the read and this update: alive after all, not replaced.
          const alive = await latestAttempt(tx, input.leadId);
          return { attempt: alive ?? latest, started: false, replacedStale };
        }
        replacedStale = latest;
      }
      const id = `pa_${randomUUID()}`;
      await tx
        .insertInto('prototype_attempts')
        .values({
          id,
          lead_id: input.leadId,
          attempt: (latest?.attempt ?? 0) + 1,
          status: 'generating',
          kind: input.kind,
          language: input.language,
          generator: input.generator,
          origin: input.origin,
          step: 'queued',
          percent: 0,
          generating_at: now,
          last_progress_at: now,
          heartbeat_at: now,
          updated_at: now,
        })
        .execute();
      const attempt = (await attemptById(tx, id))!;
      return { attempt, started: true, replacedStale };
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const winner = await latestAttempt(db, input.leadId);
    if (!winner) throw error;
    return { attempt: winner, started: false, replacedStale: null };
  }
}

/** Appends an event with the lead's next sequence number (retried when another writer took it). */
async function insertEvent(
  tx: DbOrTx,
  attempt: Pick<Attempt, 'id' | 'leadId'>,
  event: StreamEventName,
  data: (seq: number) => unknown,
  now: number,
): Promise<number> {
  const row = await tx
    .selectFrom('prototype_events')
    .select((eb) => eb.fn.max<number | null>('seq').as('max'))
    .where('lead_id', '=', attempt.leadId)
    .executeTakeFirst();
  const seq = Number(row?.max ?? 0) + 1;
  await tx
    .insertInto('prototype_events')
    .values({
      lead_id: attempt.leadId,
      seq,
      attempt_id: attempt.id,
      event,
      data: JSON.stringify(data(seq)),
      created_at: now,
    })
    .execute();
  return seq;
}

async function withSeqRetry<T>(fn: () => Promise<T>): Promise<T> {
  for (let tries = 0; ; tries++) {
    try {
      return await fn();
    } catch (error) {
      if (tries >= 4 || !isUniqueViolation(error)) throw error;
    }
  }
}

/**
 * Records progress of the running attempt and its event, atomically and fenced: a superseded
 * attempt (marked failed as stale) gets AttemptSupersededError and must stop.
 */
export async function recordProgress(
  db: Db,
  attempt: Attempt,
  update: { step: string; percent: number },
  data: (seq: number) => unknown,
): Promise<number> {
  return withSeqRetry(() =>
    withTransaction(db, async (tx) => {
      const now = Date.now();
      const result = await tx
        .updateTable('prototype_attempts')
        .set({
          step: update.step,
          percent: update.percent,
          last_progress_at: now,
          heartbeat_at: now,
          updated_at: now,
        })
        .where('id', '=', attempt.id)
        .where('status', '=', 'generating')
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) throw new AttemptSupersededError(attempt.id);
      return insertEvent(tx, attempt, 'progress', data, now);
    }),
  );
}

export async function heartbeat(db: Db, attemptId: string): Promise<boolean> {
  const now = Date.now();
  const result = await db
    .updateTable('prototype_attempts')
    .set({ heartbeat_at: now, updated_at: now })
    .where('id', '=', attemptId)
    .where('status', '=', 'generating')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export interface AttemptOutcome {
  html: string | null;
  demoUrl: string | null;
  files: GeneratedFile[];
  externalId: string | null;
  fallbackReason?: string;
}

/** Stores the result, marks the attempt completed and appends the `complete` event, in one transaction. */
export async function completeAttempt(
  db: Db,
  attempt: Attempt,
  outcome: AttemptOutcome,
  data: (seq: number, completedAt: number) => unknown,
): Promise<number> {
  return withSeqRetry(() =>
    withTransaction(db, async (tx) => {
      const now = Date.now();
      const result = await tx
        .updateTable('prototype_attempts')
        .set({
          status: 'completed',
          step: 'complete',
          percent: 100,
          completed_at: now,
          last_progress_at: now,
          heartbeat_at: now,
          html: outcome.html,
          demo_url: outcome.demoUrl,
          files: JSON.stringify(outcome.files),
          external_id: outcome.externalId,
          fallback_reason: outcome.fallbackReason ?? null,
          updated_at: now,
        })
        .where('id', '=', attempt.id)
        .where('status', '=', 'generating')
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) throw new AttemptSupersededError(attempt.id);
      return insertEvent(tx, attempt, 'complete', (seq) => data(seq, now), now);
    }),
  );
}

/** Marks the attempt failed and appends its `error` event; false when it was not running any more. */
export async function failAttempt(
  db: Db,
  attempt: Attempt,
  error: string,
  data: (seq: number) => unknown,
): Promise<boolean> {
  return withSeqRetry(() =>
    withTransaction(db, async (tx) => {
      const now = Date.now();
      const result = await tx
        .updateTable('prototype_attempts')
        .set({ status: 'failed', failed_at: now, error: error.slice(0, 1000), updated_at: now })
        .where('id', '=', attempt.id)
        .where('status', '=', 'generating')
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) return false;
      await insertEvent(tx, attempt, 'error', data, now);
      return true;
    }),
  );
}

/** Appends an event outside an attempt's own run (the queue's final failure, a refused restart). */
export async function appendEvent(
  db: Db,
  attempt: Pick<Attempt, 'id' | 'leadId'>,
  event: StreamEventName,
  data: (seq: number) => unknown,
): Promise<number> {
  return withSeqRetry(() => withTransaction(db, (tx) => insertEvent(tx, attempt, event, data, Date.now())));
}

export async function eventsAfter(
  db: DbOrTx,
  leadId: string,
  afterSeq: number,
  limit = 100,
): Promise<StoredEvent[]> {
  const rows = await db
    .selectFrom('prototype_events')
    .select(['seq', 'attempt_id', 'event', 'data', 'created_at'])
    .where('lead_id', '=', leadId)
    .where('seq', '>', afterSeq)
    .orderBy('seq')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    seq: Number(r.seq),
    attemptId: r.attempt_id,
    event: r.event,
    data: r.data,
    createdAt: Number(r.created_at),
  }));
}

/** The sequence number just before an attempt's first event (where a fresh stream starts). */
export async function seqBeforeAttempt(db: DbOrTx, attemptId: string): Promise<number> {
  const row = await db
    .selectFrom('prototype_events')
    .select((eb) => eb.fn.min<number | null>('seq').as('min'))
    .where('attempt_id', '=', attemptId)
    .executeTakeFirst();
  if (row?.min !== null && row?.min !== undefined) return Number(row.min) - 1;
  const last = await db
    .selectFrom('prototype_events')
    .innerJoin('prototype_attempts', 'prototype_attempts.lead_id', 'prototype_events.lead_id')
    .select((eb) => eb.fn.max<number | null>('prototype_events.seq').as('max'))
    .where('prototype_attempts.id', '=', attemptId)
    .executeTakeFirst();
  return Number(last?.max ?? 0);
}
