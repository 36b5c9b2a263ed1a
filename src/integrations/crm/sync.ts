import type { Logger } from 'pino';
import type { Db } from '../../db/database.ts';
import type { JobQueue } from '../../queue/job-queue.ts';
import { namedQueue, PermanentJobError, type QueueDefinition, type QueueWorker } from '../../queue/worker.ts';
import { type CrmClient, CrmError, type CrmIds, type CrmLeadInput } from './crm.ts';

/**
 * Syncing a stored record (a lead, a support contact request) to the CRM: one short in-request attempt,
 * then retries from the durable queue. Features plug in a `CrmRecordSource` that loads the record and
 * keeps its CRM ids and outcome; the sync and the retry queue are shared.
 */

/** Retries of a CRM sync whose first (in-request) attempt failed. */
export const CRM_QUEUE = 'crm-sync';
/** With the queue's backoff (1 s doubling, capped at 15 min) this covers a CRM outage of a few hours. */
export const CRM_MAX_ATTEMPTS = 20;
/** Budget of the first, in-request CRM attempt; later attempts run from the queue. */
export const CRM_INLINE_TIMEOUT_MS = 4000;
export const CRM_QUEUE_TIMEOUT_MS = 15_000;
/**
 * A record's CRM job is queued with the record itself (same transaction), this far in the future: if
 * the process dies during the in-request attempt, the job still syncs it. Far beyond the in-request
 * budget, so the job never runs alongside that attempt; a failed attempt makes it due at once.
 */
export const CRM_SAFETY_NET_DELAY_MS = 15_000;

/** The outcome reported to the visitor (`pipedrive` in responses) and kept on the record. */
export interface CrmOutcome {
  success: boolean;
  /** The Pipedrive deal id. */
  leadId: number | null;
  message: string;
}

/** A feature's records as the CRM sync sees them. */
export interface CrmRecordSource {
  /** The record's CRM input and the ids a previous attempt created; null when it no longer exists. */
  load(db: Db, id: string): Promise<{ input: CrmLeadInput; known: CrmIds } | null>;
  saveIds(db: Db, id: string, ids: Partial<CrmIds>): Promise<void>;
  saveOutcome(db: Db, id: string, outcome: CrmOutcome): Promise<void>;
}

/** Job payload: `{source, id}`; `{leadId}` is the older shape of lead jobs, still understood. */
export type CrmJob = { source: string; id: string } | { leadId: string };

export interface CrmDeps {
  db: Db;
  crm: CrmClient;
  jobs: JobQueue;
  worker: QueueWorker;
  logger: Logger;
  metrics?: { recordOutboundError(service: string): void };
}

export const CRM_SKIPPED_NOT_CONFIGURED: CrmOutcome = {
  success: false,
  leadId: null,
  message: 'CRM sync skipped: PIPEDRIVE_API_TOKEN is not set',
};

/**
 * Creates (or completes) the record's person, organization, deal and note. Ids are saved as soon as
 * each object exists and existing ones are never recreated, so retries cannot duplicate a deal.
 */
async function syncOnce(
  deps: Pick<CrmDeps, 'db' | 'crm'>,
  source: CrmRecordSource,
  id: string,
  options: { timeoutMs: number; retry: boolean },
): Promise<CrmOutcome> {
  const record = await source.load(deps.db, id);
  if (!record) throw new CrmError(`record ${id} no longer exists`, true);
  const { known } = record;
  const alreadySynced = known.dealId !== null && known.noteId !== null;
  const ids = await deps.crm.syncLead(record.input, {
    known: record.known,
    signal: AbortSignal.timeout(options.timeoutMs),
    searchExistingDeal: options.retry,
    onProgress: (partial) => source.saveIds(deps.db, id, partial),
  });
  const outcome: CrmOutcome = {
    success: true,
    leadId: ids.dealId,
    message: options.retry && !alreadySynced ? 'Synced to Pipedrive on retry' : 'Synced to Pipedrive',
  };
  await source.saveOutcome(deps.db, id, outcome);
  return outcome;
}

export function crmQueue(jobs: JobQueue) {
  return namedQueue<CrmJob>(jobs, { name: CRM_QUEUE, maxAttempts: CRM_MAX_ATTEMPTS });
}

/**
 * Queues the record's CRM job, delayed by CRM_SAFETY_NET_DELAY_MS; call it in the transaction that
 * stores the record (`jobs` bound to that transaction). Once the in-request attempt succeeded the job
 * finds every id known and makes no CRM call.
 */
export function queueCrmSafetyNet(jobs: JobQueue, sourceName: string, id: string) {
  return crmQueue(jobs).enqueue(
    { source: sourceName, id },
    { idempotencyKey: `${id}:crm`, delayMs: CRM_SAFETY_NET_DELAY_MS },
  );
}

/**
 * Queues the record's CRM sync to run now from the queue (no in-request attempt): a record that
 * becomes a lead after it was stored (an admin's correction). Once per record: the key is `<id>:crm`,
 * and a record whose deal exists makes no CRM call. True when a job was queued.
 */
export async function queueCrmSync(jobs: JobQueue, sourceName: string, id: string): Promise<boolean> {
  const job = await crmQueue(jobs).enqueue({ source: sourceName, id }, { idempotencyKey: `${id}:crm` });
  return job.created || (await jobs.expedite(CRM_QUEUE, `${id}:crm`));
}

/** Cancels the record's CRM sync if it has not run (pending or dead); true when one was cancelled. */
export function cancelCrmSync(jobs: JobQueue, id: string): Promise<boolean> {
  return jobs.cancel(CRM_QUEUE, `${id}:crm`);
}

/**
 * The in-request attempt with a short budget. On failure the outcome says so, the record keeps it, and
 * a retry is queued (once per record, key `<id>:crm`); it never throws.
 */
export async function syncRecordInline(
  deps: CrmDeps,
  sourceName: string,
  source: CrmRecordSource,
  id: string,
): Promise<CrmOutcome> {
  if (!deps.crm.enabled) {
    await source.saveOutcome(deps.db, id, CRM_SKIPPED_NOT_CONFIGURED);
    return CRM_SKIPPED_NOT_CONFIGURED;
  }
  try {
    return await syncOnce(deps, source, id, { timeoutMs: CRM_INLINE_TIMEOUT_MS, retry: false });
  } catch (error) {
    deps.metrics?.recordOutboundError('crm');
    deps.logger.warn(
      { source: sourceName, id, err: error instanceof Error ? error.message : String(error) },
      'CRM sync failed; queued for retry',
    );
    const outcome: CrmOutcome = {
      success: false,
      leadId: null,
      message: 'CRM sync failed; it will be retried in the background',
    };
    try {
      await source.saveOutcome(deps.db, id, outcome);
      const job = await crmQueue(deps.jobs).enqueue(
        { source: sourceName, id },
        { idempotencyKey: `${id}:crm` },
      );
      // A safety-net job queued with the record is moved forward instead.
      if (job.created || (await deps.jobs.expedite(CRM_QUEUE, `${id}:crm`))) deps.worker.poke();
    } catch (queueError) {
      deps.logger.error({ source: sourceName, id, err: queueError }, 'could not queue the CRM retry');
    }
    return outcome;
  }
}

function resolveJob(job: CrmJob): { source: string; id: string } {
  return 'leadId' in job ? { source: 'lead', id: job.leadId } : job;
}

/** The retry queue's handler, for every registered source (`{lead: …, support: …}`). */
export function crmQueueDefinition(
  deps: Pick<CrmDeps, 'db' | 'crm' | 'metrics'>,
  sources: Record<string, CrmRecordSource>,
): QueueDefinition<CrmJob> {
  const sourceOf = (name: string) => {
    const source = sources[name];
    if (!source) throw new PermanentJobError(`unknown CRM record source ${name}`);
    return source;
  };
  return {
    name: CRM_QUEUE,
    maxAttempts: CRM_MAX_ATTEMPTS,
    concurrency: 1,
    leaseMs: 60_000,
    async handle(job) {
      if (!deps.crm.enabled) return;
      const { source, id } = resolveJob(job);
      try {
        await syncOnce(deps, sourceOf(source), id, { timeoutMs: CRM_QUEUE_TIMEOUT_MS, retry: true });
      } catch (error) {
        deps.metrics?.recordOutboundError('crm');
        if (error instanceof CrmError && error.permanent) throw new PermanentJobError(error.message);
        throw error;
      }
    },
    async onDead(job, error) {
      const { source, id } = resolveJob(job);
      const target = sources[source];
      if (!target) return;
      await target.saveOutcome(deps.db, id, {
        success: false,
        leadId: null,
        message: `CRM sync failed: ${error instanceof Error ? error.message : String(error)}`.slice(0, 300),
      });
    },
  };
}
