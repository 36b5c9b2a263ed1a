import type { Logger } from 'pino';
import type { Db } from '../../db/database.ts';
import { type CrmClient, CrmError } from '../../integrations/crm/crm.ts';
import type { JobQueue } from '../../queue/job-queue.ts';
import { namedQueue, PermanentJobError, type QueueDefinition, type QueueWorker } from '../../queue/worker.ts';
import { crmDealTitle, crmNoteHtml } from './emails.ts';
import { CRM_INLINE_TIMEOUT_MS, CRM_QUEUE_TIMEOUT_MS } from './limits.ts';
import { getCrmIds, getLead, type PipedriveOutcome, saveCrmIds, setPipedriveOutcome } from './store.ts';

/** Retries of a CRM sync whose first (in-request) attempt failed. */
export const CRM_QUEUE = 'crm-sync';
/** With the queue's backoff (1 s doubling, capped at 15 min) this covers a CRM outage of a few hours. */
export const CRM_MAX_ATTEMPTS = 20;

export interface CrmJob {
  leadId: string;
}

export interface CrmDeps {
  db: Db;
  crm: CrmClient;
  jobs: JobQueue;
  worker: QueueWorker;
  logger: Logger;
  metrics?: { recordOutboundError(service: string): void };
}

export const CRM_SKIPPED_NOT_CONFIGURED: PipedriveOutcome = {
  success: false,
  leadId: null,
  message: 'CRM sync skipped: PIPEDRIVE_API_TOKEN is not set',
};

/**
 * Creates (or completes) the lead's person, organization, deal and note. Ids are saved as soon as each
 * object exists and existing ones are never recreated, so retries cannot duplicate a deal.
 */
async function syncOnce(
  deps: Pick<CrmDeps, 'db' | 'crm'>,
  leadId: string,
  options: { timeoutMs: number; retry: boolean },
): Promise<PipedriveOutcome> {
  const lead = await getLead(deps.db, leadId);
  const known = await getCrmIds(deps.db, leadId);
  if (!lead || !known) throw new CrmError(`lead ${leadId} no longer exists`, true);
  const ids = await deps.crm.syncLead(
    {
      reference: lead.id,
      name: lead.name,
      email: lead.email,
      phone: lead.phone,
      company: lead.company,
      title: crmDealTitle(lead),
      noteHtml: crmNoteHtml(lead),
    },
    {
      known,
      signal: AbortSignal.timeout(options.timeoutMs),
      searchExistingDeal: options.retry,
      onProgress: (partial) => saveCrmIds(deps.db, leadId, partial),
    },
  );
  const outcome: PipedriveOutcome = {
    success: true,
    leadId: ids.dealId,
    message: options.retry ? 'Synced to Pipedrive on retry' : 'Synced to Pipedrive',
  };
  await setPipedriveOutcome(deps.db, leadId, outcome);
  return outcome;
}

export function crmQueue(jobs: JobQueue) {
  return namedQueue<CrmJob>(jobs, { name: CRM_QUEUE, maxAttempts: CRM_MAX_ATTEMPTS });
}

/**
 * The in-request attempt with a short budget. On failure the outcome says so, the lead keeps it, and a
 * retry is queued (once per lead); it never throws.
 */
export async function syncLeadInline(deps: CrmDeps, leadId: string): Promise<PipedriveOutcome> {
  if (!deps.crm.enabled) {
    await setPipedriveOutcome(deps.db, leadId, CRM_SKIPPED_NOT_CONFIGURED);
    return CRM_SKIPPED_NOT_CONFIGURED;
  }
  try {
    return await syncOnce(deps, leadId, { timeoutMs: CRM_INLINE_TIMEOUT_MS, retry: false });
  } catch (error) {
    deps.metrics?.recordOutboundError('crm');
    deps.logger.warn(
      { leadId, err: error instanceof Error ? error.message : String(error) },
      'CRM sync failed; queued for retry',
    );
    const outcome: PipedriveOutcome = {
      success: false,
      leadId: null,
      message: 'CRM sync failed; it will be retried in the background',
    };
    try {
      await setPipedriveOutcome(deps.db, leadId, outcome);
      const job = await crmQueue(deps.jobs).enqueue({ leadId }, { idempotencyKey: `${leadId}:crm` });
      if (job.created) deps.worker.poke();
    } catch (queueError) {
      deps.logger.error({ leadId, err: queueError }, 'could not queue the CRM retry');
    }
    return outcome;
  }
}

export function crmQueueDefinition(deps: Pick<CrmDeps, 'db' | 'crm' | 'metrics'>): QueueDefinition<CrmJob> {
  return {
    name: CRM_QUEUE,
    maxAttempts: CRM_MAX_ATTEMPTS,
    concurrency: 1,
    leaseMs: 60_000,
    async handle({ leadId }) {
      if (!deps.crm.enabled) return;
      try {
        await syncOnce(deps, leadId, { timeoutMs: CRM_QUEUE_TIMEOUT_MS, retry: true });
      } catch (error) {
        deps.metrics?.recordOutboundError('crm');
        if (error instanceof CrmError && error.permanent) throw new PermanentJobError(error.message);
        throw error;
      }
    },
    async onDead({ leadId }, error) {
      await setPipedriveOutcome(deps.db, leadId, {
        success: false,
        leadId: null,
        message: `CRM sync failed: ${error instanceof Error ? error.message : String(error)}`.slice(0, 300),
      });
    },
  };
}
