import type { JobQueue } from '../../queue/job-queue.ts';
import { type NamedQueue, namedQueue, PermanentJobError, type QueueDefinition } from '../../queue/worker.ts';
import {
  beginAttempt,
  completeLead,
  finalizeFailure,
  limitsOf,
  type PrototypeContext,
  type PrototypeJob,
  runAttempt,
} from './generation.ts';
import { isRefused } from './lead-port.ts';
import { PROTOTYPE_LIMITS } from './limits.ts';
import { holdQuota, PrototypeRefusal } from './service.ts';
import { completedStarts, isStale, latestAttempt } from './store.ts';

/** PrototypeQueue: the durable safety net behind every background generation. */
export const PROTOTYPE_QUEUE = 'prototype-generation';

/** The queue's `/enqueue`, `/status`, `/clear` (and `retryDead`) operations, for the service and the admin. */
export function prototypeQueue(jobs: JobQueue): NamedQueue<PrototypeJob> {
  return namedQueue<PrototypeJob>(jobs, {
    name: PROTOTYPE_QUEUE,
    maxAttempts: PROTOTYPE_LIMITS.queueMaxAttempts,
  });
}

/**
 * One job makes sure the lead ends with a prototype: nothing to do when it is completed (or the lead
 * no longer waits for one); a fresh running attempt is checked again later (watchdog); a failed,
 * stale or missing one is run here. A failure throws, so the queue retries with backoff; the last
 * attempt's failure is final (lead `failed`, quota released, a final `error` event).
 */
export async function handlePrototypeJob(
  ctx: PrototypeContext,
  payload: PrototypeJob,
  job: { attempt: number; maxAttempts: number },
): Promise<void> {
  if (payload.reason === 'reclassified' && !(await followCorrection(ctx, payload.leadId))) return;
  const lead = await ctx.leads.get(payload.leadId);
  if (!lead || isRefused(lead) || !lead.kind || lead.status !== 'generating') return;
  const latest = await latestAttempt(ctx.db, lead.id);
  // Its result is stored but the lead still says generating (its own update failed): finish that.
  if (latest?.status === 'completed') return completeLead(ctx, lead.id);
  const limits = limitsOf(ctx);
  if (latest?.status === 'generating' && !isStale(latest, Date.now(), limits.staleAfterMs)) {
    // Someone is on it; look again once it could have gone stale.
    await ctx.queue.enqueue(
      { leadId: lead.id, reason: 'watchdog', attemptId: latest.id },
      {
        delayMs: limits.staleAfterMs + limits.heartbeatMs,
        idempotencyKey: `watch:${latest.id}:${Date.now()}`,
      },
    );
    return;
  }
  if (
    payload.reason === 'watchdog' &&
    (latest?.id !== payload.attemptId || latest?.status !== 'generating')
  ) {
    // The watched attempt finished (a failure has its own retry job) or was replaced: nothing to watch.
    return;
  }
  const { attempt, started } = await beginAttempt(ctx, lead, 'queue');
  if (!started) return;
  const last = job.attempt >= job.maxAttempts;
  const outcome = await runAttempt(ctx, attempt, lead, last ? 'queue-final' : 'queue');
  if (outcome.status !== 'failed' || outcome.handedOver) return;
  if (!outcome.retryable) throw new PermanentJobError(outcome.error);
  throw new Error(outcome.error);
}

/**
 * An admin corrected the lead's classification. Made a lead: its prototype is started here if it
 * asked for one and the monthly quota allows (true: generate now); one already delivered completes
 * the lead instead. Made spam or vendor: nothing more is generated (the lead's other jobs find it
 * refused); its quota slot is given back unless a prototype was delivered, whose slot stays used.
 */
async function followCorrection(ctx: PrototypeContext, leadId: string): Promise<boolean> {
  const lead = await ctx.leads.get(leadId);
  if (!lead?.kind) return false;
  const latest = await latestAttempt(ctx.db, lead.id);
  if (isRefused(lead)) {
    if (latest?.status === 'completed') await ctx.leads.complete(lead.id);
    else await ctx.leads.release(lead.id, await completedStarts(ctx.db, lead.id));
    return false;
  }
  // Moved on since (a trigger from the preview page, say): that path sees it through.
  if (lead.status !== 'new') return false;
  if (latest?.status === 'completed') {
    await completeLead(ctx, lead.id);
    return false;
  }
  try {
    await holdQuota(ctx, lead);
  } catch (error) {
    if (!(error instanceof PrototypeRefusal)) throw error;
    ctx.logger.info({ leadId, reason: error.reason }, 'prototype after a correction not started: quota');
    return false;
  }
  return true;
}

/** Queues the job that follows an admin's correction of the lead (in the correction's transaction). */
export async function queuePrototypeAfterCorrection(
  jobs: JobQueue,
  leadId: string,
  correctionId: string,
): Promise<void> {
  await prototypeQueue(jobs).enqueue(
    { leadId, reason: 'reclassified' },
    { idempotencyKey: `${correctionId}:prototype` },
  );
}

export function prototypeQueueDefinition(ctx: () => PrototypeContext): QueueDefinition<PrototypeJob> {
  return {
    name: PROTOTYPE_QUEUE,
    maxAttempts: PROTOTYPE_LIMITS.queueMaxAttempts,
    concurrency: PROTOTYPE_LIMITS.queueConcurrency,
    // A generation may run for minutes; the worker renews the lease while it does.
    leaseMs: 60_000,
    handle: (payload, job) => handlePrototypeJob(ctx(), payload, job),
    onDead: (payload) => finalizeFailure(ctx(), payload.leadId),
  };
}
