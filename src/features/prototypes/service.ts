import {
  beginAttempt,
  limitsOf,
  type PrototypeContext,
  type RunOutcome,
  runAttempt,
  runInBackground,
  scheduleWatchdog,
} from './generation.ts';
import { isRefused, type PrototypeLead, type QuotaDecision } from './lead-port.ts';
import { type Attempt, attemptById, failedForGood, isStale, latestAttempt } from './store.ts';

/** Why generation cannot start for a lead; the routes map each to an HTTP error. */
export class PrototypeRefusal extends Error {
  override name = 'PrototypeRefusal';
  readonly reason: 'not_found' | 'refused' | 'not_eligible' | 'quota';
  readonly quota: Extract<QuotaDecision, { allowed: false }> | null;
  constructor(reason: PrototypeRefusal['reason'], message: string, quota: PrototypeRefusal['quota'] = null) {
    super(message);
    this.reason = reason;
    this.quota = quota;
  }
}

/** The lead, if generation may be asked for at all (exists, not spam or vendor, asked for a prototype). */
export async function eligibleLead(ctx: PrototypeContext, leadId: string): Promise<PrototypeLead> {
  const lead = await ctx.leads.get(leadId);
  if (!lead) throw new PrototypeRefusal('not_found', `No lead has the id ${leadId}.`);
  if (isRefused(lead)) {
    throw new PrototypeRefusal('refused', 'Prototype generation is not available for this lead.');
  }
  if (!lead.kind) {
    throw new PrototypeRefusal(
      'not_eligible',
      'This lead did not ask for a prototype (steps.prototype is neither landing nor application).',
    );
  }
  return lead;
}

/**
 * Makes sure the lead holds its quota slot and is `generating`. A lead already generating holds its
 * slot; otherwise the monthly quota is re-checked, the buckets marked in progress, the status set.
 */
export async function holdQuota(ctx: PrototypeContext, lead: PrototypeLead): Promise<void> {
  if (lead.status === 'generating') return;
  const decision = await ctx.leads.reserve(lead);
  if (!decision.allowed) {
    throw new PrototypeRefusal(
      'quota',
      `The monthly prototype limit is reached; it resets on ${decision.resetDate}.`,
      decision,
    );
  }
  await ctx.leads.markInProgress(lead.id);
  await ctx.leads.setStatus(lead.id, 'generating');
  lead.status = 'generating';
}

function running(ctx: PrototypeContext, attempt: Attempt | null): attempt is Attempt {
  return attempt?.status === 'generating' && !isStale(attempt, Date.now(), limitsOf(ctx).staleAfterMs);
}

/**
 * POST trigger-generation: returns the running attempt when there is one (no double generation);
 * otherwise holds the quota, starts a new attempt and runs it in the background.
 */
export async function triggerGeneration(
  ctx: PrototypeContext,
  leadId: string,
): Promise<{ attempt: Attempt; started: boolean; lead: PrototypeLead }> {
  const lead = await eligibleLead(ctx, leadId);
  const latest = await latestAttempt(ctx.db, leadId);
  if (running(ctx, latest)) return { attempt: latest, started: false, lead };
  await holdQuota(ctx, lead);
  const { attempt, started } = await beginAttempt(ctx, lead, 'trigger');
  if (started) runInBackground(ctx, attempt, lead);
  return { attempt, started, lead };
}

/**
 * For generate-stream: resumes what exists; starts (or restarts) when there is no attempt yet, or the
 * last one failed or went stale. Quota refusals surface as PrototypeRefusal('quota').
 */
export async function ensureForStream(ctx: PrototypeContext, lead: PrototypeLead): Promise<Attempt> {
  const latest = await latestAttempt(ctx.db, lead.id);
  if (latest && (latest.status === 'completed' || running(ctx, latest))) return latest;
  await holdQuota(ctx, lead);
  const { attempt, started } = await beginAttempt(ctx, lead, 'stream');
  if (started) runInBackground(ctx, attempt, lead);
  return attempt;
}

/**
 * Waits for an attempt (run elsewhere) to finish; null when it went stale or the wait timed out,
 * `shutdown` when this instance stops meanwhile (the attempt goes on where it runs).
 */
async function waitFor(
  ctx: PrototypeContext,
  attemptId: string,
  timeoutMs: number,
): Promise<Attempt | 'shutdown' | null> {
  const deadline = Date.now() + timeoutMs;
  const { staleAfterMs, streamPollMs } = limitsOf(ctx);
  while (Date.now() < deadline) {
    if (ctx.shutdownSignal?.aborted) return 'shutdown';
    const attempt = await attemptById(ctx.db, attemptId);
    if (!attempt) return null;
    if (attempt.status !== 'generating') return attempt;
    if (isStale(attempt, Date.now(), staleAfterMs)) return null;
    await new Promise((resolve) => setTimeout(resolve, streamPollMs));
  }
  return null;
}

/**
 * The blocking variant (POST generate and the trusted chat path): runs an attempt in this request
 * and returns its outcome; when one is already running it waits for that one instead.
 */
export async function generateNow(
  ctx: PrototypeContext,
  leadId: string,
  origin: 'generate' | 'chat',
): Promise<RunOutcome> {
  const lead = await eligibleLead(ctx, leadId);
  let failure: Extract<RunOutcome, { status: 'failed' }> | null = null;
  for (let round = 0; round < 2; round++) {
    const latest = await latestAttempt(ctx.db, leadId);
    let attempt: Attempt | null = running(ctx, latest) ? latest : null;
    if (!attempt) {
      await holdQuota(ctx, lead);
      const begun = await beginAttempt(ctx, lead, origin);
      if (begun.started) {
        // Should this instance die mid-generation, the request dies with it: the queue finishes.
        await scheduleWatchdog(ctx, begun.attempt, lead.id);
        return runAttempt(ctx, begun.attempt, lead, 'blocking');
      }
      attempt = begun.attempt;
    }
    const finished = await waitFor(ctx, attempt.id, limitsOf(ctx).blockingWaitMs);
    if (finished === 'shutdown') {
      const error = 'this instance shut down while waiting';
      return { status: 'failed', attempt, error, retryable: true, final: false, handedOver: true };
    }
    if (finished?.status === 'completed') return { status: 'completed', attempt: finished };
    if (finished?.status === 'failed') {
      const error = finished.error ?? 'failed';
      if (await failedForGood(ctx.db, finished.id)) {
        return { status: 'failed', attempt: finished, error, retryable: true, final: true };
      }
      // A failure PrototypeQueue retries (a background run's, or one a shutdown handed over) is not
      // the end: the lead still waits for its prototype, so this request carries on with it.
      failure = { status: 'failed', attempt: finished, error, retryable: true, final: false };
      if (ctx.shutdownSignal?.aborted) return { ...failure, handedOver: true };
    }
    // It went stale (its instance died) or failed with a retry pending: take over on the next round.
  }
  if (failure) return failure;
  throw new Error('the running prototype attempt could not be awaited');
}
