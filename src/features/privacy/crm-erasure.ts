import type { Logger } from 'pino';
import type { Db } from '../../db/database.ts';
import { flushErasedContent } from '../../db/erased-content.ts';
import { type CrmClient, type CrmErasureResult, CrmError } from '../../integrations/crm/crm.ts';
import type { JobQueue } from '../../queue/job-queue.ts';
import { namedQueue, PermanentJobError, type QueueDefinition, type QueueWorker } from '../../queue/worker.ts';
import { CRM_ERASURE } from './limits.ts';
import {
  failCrmErasure,
  finishCrmErasure,
  getCrmErasure,
  recordCrmErasureRun,
  setAuditCrm,
} from './store.ts';

/**
 * Deleting the person from the CRM, after the local erasure committed: one attempt within the
 * request, then retries from the durable queue (a job queued in the erasure's own transaction, so a
 * crash before the attempt loses nothing). The address is kept in `privacy_crm_erasures` only until
 * the CRM confirmed; the job's payload holds the erasure's id, never the address.
 */
export interface CrmErasureDeps {
  db: Db;
  crm: CrmClient;
  jobs: JobQueue;
  worker: QueueWorker;
  logger: Logger;
  metrics?: { recordOutboundError(service: string): void };
}

export interface CrmErasureJob {
  erasureId: string;
}

export type CrmErasureOutcome =
  | { status: 'erased'; message: string; deleted: CrmErasureResult }
  | { status: 'queued'; message: string };

export const crmErasureQueue = (jobs: JobQueue) =>
  namedQueue<CrmErasureJob>(jobs, { name: CRM_ERASURE.queue, maxAttempts: CRM_ERASURE.maxAttempts });

export const crmErasureKey = (erasureId: string) => `${erasureId}:crm-erasure`;

/**
 * What an erasure deleted made to leave the database file (src/db/erased-content.ts). The erasure
 * has committed: a failure here is logged and the next checkpoint does the same.
 */
export async function flushErased(deps: Pick<CrmErasureDeps, 'db' | 'logger'>): Promise<void> {
  try {
    await flushErasedContent(deps.db);
  } catch (error) {
    deps.logger.warn({ err: error }, 'erased data not flushed from the database file yet');
  }
}

/**
 * One attempt; throws the CRM's error. Does nothing once the erasure is done. The in-request run
 * (`final: false`) records what it deleted and keeps the address; the queue's run (`final: true`, at
 * least CRM_ERASURE.safetyNetDelayMs later) searches again, adds what it found and only then lets the
 * address go. The second search catches a person that a CRM sync already running when the erasure
 * committed (its job row gone, its calls in flight) created after the first search.
 */
async function eraseOnce(
  deps: CrmErasureDeps,
  erasureId: string,
  timeoutMs: number,
  final: boolean,
): Promise<CrmErasureResult | null> {
  const erasure = await getCrmErasure(deps.db, erasureId);
  if (!erasure || erasure.status === 'done' || erasure.email === null) return null;
  const found = await deps.crm.erasePerson(
    { email: erasure.email, known: erasure.known },
    { signal: AbortSignal.timeout(timeoutMs) },
  );
  const earlier = erasure.result ?? {};
  const deleted: CrmErasureResult = {
    persons: found.persons + (earlier.persons ?? 0),
    deals: found.deals + (earlier.deals ?? 0),
    notes: found.notes + (earlier.notes ?? 0),
  };
  if (final) await finishCrmErasure(deps.db, erasureId, deleted);
  else await recordCrmErasureRun(deps.db, erasureId, deleted);
  await setAuditCrm(deps.db, erasureId, 'erased', deleted);
  // The address kept for the CRM is gone from the row: from the file too.
  if (final) await flushErased(deps);
  return deleted;
}

const ERASED = 'Deleted from Pipedrive (persons, their deals and notes).';
const describe = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 300);

/** The in-request attempt; on failure the queue's job is made due now. Never throws. */
export async function eraseFromCrmInline(
  deps: CrmErasureDeps,
  erasureId: string,
): Promise<CrmErasureOutcome> {
  try {
    const deleted = await eraseOnce(deps, erasureId, CRM_ERASURE.inlineTimeoutMs, false);
    return { status: 'erased', message: ERASED, deleted: deleted ?? { persons: 0, deals: 0, notes: 0 } };
  } catch (error) {
    deps.metrics?.recordOutboundError('crm');
    deps.logger.warn({ erasureId, err: describe(error) }, 'CRM erasure failed; queued for retry');
    try {
      await failCrmErasure(deps.db, erasureId, describe(error), 'pending');
      await setAuditCrm(deps.db, erasureId, 'retrying', { error: describe(error) });
      if (await deps.jobs.expedite(CRM_ERASURE.queue, crmErasureKey(erasureId))) deps.worker.poke();
    } catch (queueError) {
      deps.logger.error({ erasureId, err: queueError }, 'could not record the CRM erasure failure');
    }
    return {
      status: 'queued',
      message: `The CRM could not be reached or refused (${describe(error)}); the erasure is retried in the background.`,
    };
  }
}

export function crmErasureQueueDefinition(deps: CrmErasureDeps): QueueDefinition<CrmErasureJob> {
  return {
    name: CRM_ERASURE.queue,
    maxAttempts: CRM_ERASURE.maxAttempts,
    concurrency: 1,
    leaseMs: 120_000,
    async handle(payload) {
      try {
        await eraseOnce(deps, payload.erasureId, CRM_ERASURE.queueTimeoutMs, true);
      } catch (error) {
        deps.metrics?.recordOutboundError('crm');
        await failCrmErasure(deps.db, payload.erasureId, describe(error), 'pending');
        await setAuditCrm(deps.db, payload.erasureId, 'retrying', { error: describe(error) });
        if (error instanceof CrmError && error.permanent) throw new PermanentJobError(describe(error));
        throw error;
      }
    },
    async onDead(payload, error) {
      await failCrmErasure(deps.db, payload.erasureId, describe(error), 'failed');
      await setAuditCrm(deps.db, payload.erasureId, 'failed', { error: describe(error) });
    },
  };
}
