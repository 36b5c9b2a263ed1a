import type { Logger } from 'pino';
import type { Db } from '../../db/database.ts';
import {
  GENERATION_STEPS,
  type GenerationStep,
  type PrototypeBrief,
  PrototypeGenerationError,
  type PrototypeGenerator,
} from '../../integrations/prototype-generator/types.ts';
import type { BackgroundTasks } from '../../queue/background-tasks.ts';
import type { NamedQueue } from '../../queue/worker.ts';
import type { PrototypeLead, PrototypeLeads } from './lead-port.ts';
import { PROTOTYPE_LIMITS } from './limits.ts';
import { errorMessage, stepMessage } from './messages.ts';
import {
  type Attempt,
  type AttemptOrigin,
  AttemptSupersededError,
  appendEvent,
  completeAttempt,
  completedStarts,
  eventsAfter,
  failAttempt,
  generationRequest,
  heartbeat,
  isStale,
  latestAttempt,
  recordProgress,
  seqBeforeAttempt,
  startAttempt,
} from './store.ts';

export interface PrototypeJob {
  leadId: string;
  /**
   * retry: a failed background attempt; watchdog: check a running one; stream-error: safety net;
   * reclassified: an admin corrected the lead's classification (start its prototype, or let go of it).
   */
  reason: 'retry' | 'watchdog' | 'stream-error' | 'manual' | 'reclassified';
  attemptId?: string;
}

/** Everything generation needs, built from the dependencies by the routes and the queue handler. */
export interface PrototypeContext {
  db: Db;
  generator: PrototypeGenerator;
  leads: PrototypeLeads;
  queue: NamedQueue<PrototypeJob>;
  tasks: BackgroundTasks;
  logger: Logger;
  publicBaseUrl: string;
  shutdownSignal?: AbortSignal;
  limits?: Partial<typeof PROTOTYPE_LIMITS>;
}

export function limitsOf(ctx: PrototypeContext) {
  return { ...PROTOTYPE_LIMITS, ...ctx.limits };
}

export const previewUrl = (ctx: Pick<PrototypeContext, 'publicBaseUrl'>, leadId: string) =>
  `${ctx.publicBaseUrl}/api/leads/${encodeURIComponent(leadId)}/preview`;
export const documentUrl = (ctx: Pick<PrototypeContext, 'publicBaseUrl'>, leadId: string) =>
  `${ctx.publicBaseUrl}/api/leads/${encodeURIComponent(leadId)}/prototype`;

/** SSE payloads (documented in docs/prototypes.md and the OpenAPI description). */
export interface ProgressPayload {
  leadId: string;
  attempt: number;
  step: GenerationStep;
  percent: number;
  message: string;
  at: string;
}
export interface CompletePayload {
  leadId: string;
  attempt: number;
  status: 'completed';
  generator: string;
  kind: string;
  previewUrl: string;
  documentUrl: string | null;
  demoUrl: string | null;
  completedAt: string;
  message: string;
}
export interface ErrorPayload {
  leadId: string;
  attempt: number | null;
  code: 'GENERATION_FAILED' | 'RATE_LIMITED' | 'STREAM_FAILED';
  message: string;
  /** True while PrototypeQueue will try again: keep listening. */
  retrying: boolean;
}

export function briefOf(lead: PrototypeLead): PrototypeBrief {
  return { ...lead.answers, leadId: lead.id, kind: lead.kind ?? 'landing', language: lead.language };
}

/** Starts an attempt (single-flight) and records its `queued` step; returns the running one otherwise. */
export async function beginAttempt(
  ctx: PrototypeContext,
  lead: PrototypeLead,
  origin: AttemptOrigin,
): Promise<{ attempt: Attempt; started: boolean }> {
  const { attempt, started, replacedStale } = await startAttempt(ctx.db, {
    leadId: lead.id,
    kind: lead.kind ?? 'landing',
    language: lead.language,
    generator: ctx.generator.name,
    origin,
    staleAfterMs: limitsOf(ctx).staleAfterMs,
  });
  if (replacedStale) {
    ctx.logger.warn({ leadId: lead.id, attemptId: replacedStale.id }, 'stale prototype attempt replaced');
  }
  if (started) {
    await recordProgress(ctx.db, attempt, { step: 'queued', percent: 2 }, () =>
      progressPayload(attempt, 'queued', 2),
    );
  }
  return { attempt, started };
}

function progressPayload(attempt: Attempt, step: GenerationStep, percent: number): ProgressPayload {
  return {
    leadId: attempt.leadId,
    attempt: attempt.attempt,
    step,
    percent,
    message: stepMessage(attempt.language, step),
    at: new Date().toISOString(),
  };
}

export function errorPayload(
  attempt: Pick<Attempt, 'leadId' | 'attempt' | 'language'> | null,
  leadId: string,
  language: Attempt['language'],
  code: ErrorPayload['code'],
  retrying: boolean,
): ErrorPayload {
  const kind = code === 'RATE_LIMITED' ? 'quota' : retrying ? 'retrying' : 'failed';
  return { leadId, attempt: attempt?.attempt ?? null, code, message: errorMessage(language, kind), retrying };
}

/** Where an attempt runs: outside the queue (in the background or a blocking request), or in it. */
export type RunPolicy = 'background' | 'blocking' | 'queue' | 'queue-final';

/** A run aborted because this instance is shutting down (retryable: it is handed over). */
class ShutdownAbort extends PrototypeGenerationError {
  constructor() {
    super('The server is shutting down; the generation continues elsewhere.', { retryable: true });
  }
}

export type RunOutcome =
  | { status: 'completed'; attempt: Attempt }
  | {
      status: 'failed';
      attempt: Attempt;
      error: string;
      retryable: boolean;
      final: boolean;
      /** This instance is shutting down: the attempt went to PrototypeQueue for another to finish. */
      handedOver?: boolean;
    }
  | { status: 'superseded'; attempt: Attempt };

/**
 * Runs one attempt to its end: the generator's progress goes to the database (fenced, so a
 * superseded run stops), a heartbeat proves the run is alive, the result and the lead's new status
 * are stored on success. On failure: a retryable one (an outside outage) goes to PrototypeQueue, whose
 * retries span over an hour (`outageRiddenOutMs`), the lead staying `generating` and its quota slot
 * held; a failure that cannot be retried, or the queue's last attempt's, marks the lead failed and
 * releases its quota.
 */
export async function runAttempt(
  ctx: PrototypeContext,
  attempt: Attempt,
  lead: PrototypeLead,
  policy: RunPolicy,
): Promise<RunOutcome> {
  const limits = limitsOf(ctx);
  const controller = new AbortController();
  const timeout = setTimeout(
    () => controller.abort(new PrototypeGenerationError('The generation took too long.')),
    limits.generationTimeoutMs,
  );
  const onShutdown = () => controller.abort(new ShutdownAbort());
  ctx.shutdownSignal?.addEventListener('abort', onShutdown, { once: true });
  if (ctx.shutdownSignal?.aborted) onShutdown(); // began as the instance stops: hand it over at once
  const beat = setInterval(() => {
    void heartbeat(ctx.db, attempt.id).then(
      (alive) => alive || controller.abort(new AttemptSupersededError(attempt.id)),
      () => {},
    );
  }, limits.heartbeatMs);
  const log = ctx.logger.child({ leadId: lead.id, attemptId: attempt.id, generator: ctx.generator.name });
  let percent = 2;
  try {
    const result = await ctx.generator.generate(briefOf(lead), {
      signal: controller.signal,
      request: await generationRequest(ctx.db, attempt),
      onProgress: async (update) => {
        if (!GENERATION_STEPS.includes(update.step) || update.step === 'complete') return;
        percent = Math.max(percent, Math.min(99, Math.round(update.percent)));
        const at = percent;
        await recordProgress(ctx.db, attempt, { step: update.step, percent: at }, () =>
          progressPayload(attempt, update.step, at),
        );
      },
    });
    if (result.fallbackReason) log.warn({ reason: result.fallbackReason }, 'prototype generator fell back');
    await completeAttempt(ctx.db, attempt, result, (_seq, completedAt) => ({
      leadId: lead.id,
      attempt: attempt.attempt,
      status: 'completed',
      generator: result.generator,
      kind: attempt.kind,
      previewUrl: previewUrl(ctx, lead.id),
      documentUrl: result.html ? documentUrl(ctx, lead.id) : null,
      demoUrl: result.demoUrl,
      completedAt: new Date(completedAt).toISOString(),
      message: stepMessage(attempt.language, 'complete'),
    }));
    await completeLead(ctx, lead.id);
    log.info({ policy }, 'prototype completed');
    return { status: 'completed', attempt };
  } catch (caught) {
    const error = controller.signal.aborted && controller.signal.reason ? controller.signal.reason : caught;
    if (error instanceof AttemptSupersededError) {
      log.warn('prototype attempt superseded by a newer one');
      return { status: 'superseded', attempt };
    }
    // Cut short by this instance's shutdown: never the lead's failure. Another instance finishes it.
    const handedOver = ctx.shutdownSignal?.aborted === true && error instanceof ShutdownAbort;
    const retryable = handedOver || !(error instanceof PrototypeGenerationError) || error.retryable;
    const final = !handedOver && (policy === 'queue-final' || !retryable);
    const message = error instanceof Error ? error.message : String(error);
    log.warn({ err: error, policy, final }, 'prototype attempt failed');
    const recorded = await failAttempt(ctx.db, attempt, message, () =>
      errorPayload(attempt, lead.id, attempt.language, 'GENERATION_FAILED', !final),
    ).catch((e: unknown) => {
      log.error({ err: e }, 'could not record the failed attempt');
      return false;
    });
    if (final) await finalizeFailure(ctx, lead.id, { appendEvent: !recorded, attemptId: attempt.id });
    else if (policy === 'background' || policy === 'blocking' || handedOver) {
      // A queue run handed over gets a fresh job: a shutdown does not use up the job's attempts.
      await enqueueRetry(ctx, lead.id, attempt.id, 'retry');
    }
    return { status: 'failed', attempt, error: message, retryable, final, handedOver };
  } finally {
    clearTimeout(timeout);
    clearInterval(beat);
    ctx.shutdownSignal?.removeEventListener('abort', onShutdown);
  }
}

/**
 * A job that looks at an attempt once it could have gone stale: if the instance running it died (no
 * heartbeat), the queue runs the generation again, so the lead never stays `generating` for good.
 * Every attempt run outside the queue (background or blocking) gets one before it starts.
 */
export async function scheduleWatchdog(
  ctx: PrototypeContext,
  attempt: Attempt,
  leadId: string,
): Promise<void> {
  const limits = limitsOf(ctx);
  await ctx.queue
    .enqueue(
      { leadId, reason: 'watchdog', attemptId: attempt.id },
      { delayMs: limits.staleAfterMs + limits.heartbeatMs, idempotencyKey: `watch:${attempt.id}` },
    )
    .catch((error: unknown) => ctx.logger.error({ err: error }, 'could not schedule the prototype watchdog'));
}

/** Runs an attempt after the request has returned; a watchdog job checks on it later. */
export function runInBackground(ctx: PrototypeContext, attempt: Attempt, lead: PrototypeLead): void {
  ctx.tasks.run(
    (async () => {
      await scheduleWatchdog(ctx, attempt, lead.id);
      await runAttempt(ctx, attempt, lead, 'background');
    })().catch((error: unknown) =>
      ctx.logger.error({ err: error, leadId: lead.id }, 'background generation failed'),
    ),
  );
}

export async function enqueueRetry(
  ctx: PrototypeContext,
  leadId: string,
  attemptId: string | undefined,
  reason: PrototypeJob['reason'],
  idempotencyKey?: string,
): Promise<void> {
  try {
    await ctx.queue.enqueue(
      { leadId, reason, ...(attemptId ? { attemptId } : {}) },
      { idempotencyKey: idempotencyKey ?? `${reason}:${attemptId ?? leadId}` },
    );
  } catch (error) {
    ctx.logger.error({ err: error, leadId }, 'could not enqueue the prototype to PrototypeQueue');
  }
}

/** A generation's result is stored: the lead is completed and its quota slot stays used. Idempotent. */
export async function completeLead(ctx: PrototypeContext, leadId: string): Promise<void> {
  await ctx.leads.setStatus(leadId, 'completed');
  await ctx.leads.complete(leadId);
}

/**
 * The end of the road for a generation: the lead is `failed`, its quota released, and streams get a
 * final `error` event. Idempotent (the queue's onDead may call it after a final attempt did).
 * `attemptId`: the attempt that failed, when known; any other one running fresh is left alone.
 */
export async function finalizeFailure(
  ctx: PrototypeContext,
  leadId: string,
  options: { appendEvent?: boolean; attemptId?: string } = {},
): Promise<void> {
  const latest = await latestAttempt(ctx.db, leadId);
  // Another fresh running attempt is a restart asked for since (a trigger, a stream; e.g. before the
  // queue's onDead came): not this failure's to end. Its own run and watchdog see it through.
  if (
    latest?.status === 'generating' &&
    latest.id !== options.attemptId &&
    !isStale(latest, Date.now(), limitsOf(ctx).staleAfterMs)
  ) {
    return;
  }
  const lead = await ctx.leads.get(leadId);
  if (latest?.status === 'completed') {
    // The attempt was stored as completed and what failed came after it (the lead's own update, say
    // the database between two writes): the visitor has a prototype, so the lead is completed.
    if (lead?.status === 'generating') await completeLead(ctx, leadId);
    return;
  }
  if (lead && lead.status === 'generating') {
    await ctx.leads.setStatus(leadId, 'failed');
    await ctx.leads.release(leadId, await completedStarts(ctx.db, leadId));
  }
  if (!latest) return;
  const language = lead?.language ?? latest.language;
  if (latest.status === 'generating') {
    await failAttempt(ctx.db, latest, 'abandoned after the last retry', () =>
      errorPayload(latest, leadId, language, 'GENERATION_FAILED', false),
    );
    return;
  }
  if (options.appendEvent === false) return;
  const events = await eventsAfter(ctx.db, leadId, await seqBeforeAttempt(ctx.db, latest.id), 1000);
  const last = events.at(-1);
  const alreadyFinal = last?.event === 'error' && (JSON.parse(last.data) as ErrorPayload).retrying === false;
  if (latest.status === 'failed' && !alreadyFinal) {
    await appendEvent(ctx.db, latest, 'error', () =>
      errorPayload(latest, leadId, language, 'GENERATION_FAILED', false),
    );
  }
}
