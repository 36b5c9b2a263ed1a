import { sql } from 'kysely';
import type { Logger } from 'pino';
import type { Config } from '../../config.ts';
import { type Db, withTransaction } from '../../db/database.ts';
import type { CrmClient } from '../../integrations/crm/crm.ts';
import { CRM_SKIPPED_NOT_CONFIGURED } from '../../integrations/crm/sync.ts';
import {
  type CorrectionDeps,
  emptyEffects,
  refusedStatusFor,
  startCrmSync,
  startEmail,
  stopCrmSync,
  stopEmail,
} from '../../integrations/llm/correction-effects.ts';
import {
  type Correction,
  correctionsOf,
  newCorrectionId,
  recordCorrection,
} from '../../integrations/llm/corrections.ts';
import type { MailTransport } from '../../integrations/mail/transport.ts';
import { JobQueue } from '../../queue/job-queue.ts';
import type { QueueWorker } from '../../queue/worker.ts';
import { LEAD_CRM_SOURCE } from './crm-sync.ts';
import { confirmationEmail, notificationEmail, vendorDeclineEmail } from './emails.ts';
import { LeadNotFound } from './errors.ts';
import {
  getCrmIds,
  getLead,
  type Lead,
  type LeadClassification,
  type LeadStatus,
  setPipedriveOutcome,
} from './store.ts';
import { previewUrlOf } from './submit.ts';

/**
 * An admin's correction of a lead's classification (POST /admin/api/leads/{id}/classification).
 * The lead's status follows the States table for the corrected class, and the side effects follow
 * the status: a spam or vendor lead made a lead gets what it skipped (the confirmation and
 * notification e-mails, the CRM sync, its prototype if it asked for one and the quota allows), a
 * lead made spam or vendor loses what has not run yet, and a vendor gets its decline. Everything is
 * queued in the transaction that changes the lead, after a lock on its row: repeated or concurrent
 * corrections to the same class change nothing more, and each side effect runs at most once.
 */

export interface ReclassifyDeps {
  config: Config;
  db: Db;
  jobs: JobQueue;
  worker: QueueWorker;
  crm: CrmClient;
  mail: MailTransport;
  logger: Logger;
}

/**
 * The prototypes feature's part, handed in by the caller (this feature cannot import it): queues,
 * in the correction's transaction, the job that starts the lead's prototype (the lead became a lead)
 * or lets go of its quota slot (it became spam or vendor). Keyed by the correction.
 */
export type QueuePrototypeFollowUp = (jobs: JobQueue, leadId: string, correctionId: string) => Promise<void>;

export interface LeadCorrectionOutcome {
  lead: Lead;
  /** False when the lead already had this classification and status: nothing was done. */
  changed: boolean;
  correction: Correction | null;
}

const REFUSED: readonly LeadStatus[] = ['spam', 'vendor'];
const isRefused = (status: LeadStatus) => REFUSED.includes(status);

/** What the lead's status becomes: spam or vendor per the filters, else it stays (or becomes) a lead. */
function statusAfter(lead: Lead, to: LeadClassification, config: Config): LeadStatus {
  const refused = refusedStatusFor(to, config.filters);
  if (refused) return refused;
  // The prototypes feature moves `new` on (generating, completed) when it runs the prototype job.
  return isRefused(lead.status) ? 'new' : lead.status;
}

export async function reclassifyLead(
  deps: ReclassifyDeps,
  queuePrototype: QueuePrototypeFollowUp,
  leadId: string,
  to: LeadClassification,
): Promise<LeadCorrectionOutcome> {
  const outcome = await withTransaction(deps.db, async (tx) => {
    // The lock: a write first, so a concurrent correction of this lead waits for this one to commit
    // (PostgreSQL's row lock; SQLite's write lock) and then finds the lead already corrected.
    const locked = await tx
      .updateTable('leads')
      .set({ updated_at: sql<number>`updated_at` })
      .where('id', '=', leadId)
      .executeTakeFirst();
    if (Number(locked.numUpdatedRows) === 0) throw new LeadNotFound(`No lead has the id ${leadId}.`);
    const lead = (await getLead(tx, leadId))!;
    const status = statusAfter(lead, to, deps.config);
    if (lead.classification === to && lead.status === status) {
      return { lead, changed: false, correction: null };
    }

    const now = Date.now();
    const corrected: Lead = {
      ...lead,
      classification: to,
      classificationReason: `Marked ${to} by an admin (the ${lead.classifiedBy === 'llm' ? 'language model' : 'built-in classifier'} said ${lead.classification}: ${lead.classificationReason})`,
      status,
    };
    const txDeps: CorrectionDeps = { ...deps, db: tx, jobs: new JobQueue(tx) };
    const effects = emptyEffects();
    const dealId = (await getCrmIds(tx, leadId))?.dealId ?? null;
    const why = `cancelled: the lead was marked ${to}`;
    const correctionId = newCorrectionId();

    if (lead.status === 'vendor' && status !== 'vendor') {
      await stopEmail(txDeps, effects, 'vendor decline e-mail', `${leadId}:vendor-decline`, why);
    }
    if (isRefused(lead.status) && !isRefused(status)) {
      const previewUrl = lead.prototypeKind ? previewUrlOf(deps.config, leadId) : null;
      await startEmail(
        txDeps,
        effects,
        'confirmation e-mail',
        confirmationEmail(corrected, previewUrl),
        `${leadId}:confirmation`,
      );
      await startEmail(
        txDeps,
        effects,
        'notification e-mail',
        notificationEmail(corrected, deps.config.mail.supportEmail, previewUrl),
        `${leadId}:notification`,
      );
      await startCrmSync(txDeps, effects, LEAD_CRM_SOURCE, leadId, dealId);
      await setPipedriveOutcome(
        tx,
        leadId,
        deps.crm.enabled
          ? dealId === null
            ? { success: false, leadId: null, message: 'CRM sync queued after an admin marked this a lead' }
            : (lead.pipedrive ?? { success: true, leadId: dealId, message: 'Synced to Pipedrive' })
          : CRM_SKIPPED_NOT_CONFIGURED,
      );
      if (lead.prototypeKind) {
        await queuePrototype(txDeps.jobs, leadId, correctionId);
        effects.started.push('prototype (if the monthly quota allows)');
      }
    }
    if (!isRefused(lead.status) && isRefused(status)) {
      await stopEmail(txDeps, effects, 'confirmation e-mail', `${leadId}:confirmation`, why);
      await stopEmail(txDeps, effects, 'notification e-mail', `${leadId}:notification`, why);
      await stopCrmSync(txDeps, effects, leadId, dealId);
      if (lead.prototypeKind) {
        await queuePrototype(txDeps.jobs, leadId, correctionId);
        if (lead.status === 'completed') effects.kept.push('prototype');
        else if (lead.status === 'generating') effects.stopped.push('prototype generation');
      }
    }
    if (status === 'vendor' && lead.status !== 'vendor') {
      await startEmail(
        txDeps,
        effects,
        'vendor decline e-mail',
        vendorDeclineEmail(corrected),
        `${leadId}:vendor-decline`,
      );
    }

    await tx
      .updateTable('leads')
      .set({ classification: to, status, updated_at: now })
      .where('id', '=', leadId)
      .execute();
    const correction: Correction = {
      id: correctionId,
      source: 'lead',
      recordId: leadId,
      from: lead.classification,
      to,
      fromStatus: lead.status,
      toStatus: status,
      effects,
      createdAt: now,
    };
    await recordCorrection(tx, correction);
    return { lead: (await getLead(tx, leadId))!, changed: true, correction };
  });
  if (outcome.changed) {
    deps.worker.poke();
    deps.logger.info(
      {
        leadId,
        from: outcome.correction?.from,
        to,
        status: outcome.lead.status,
        effects: outcome.correction?.effects,
      },
      'lead classification corrected',
    );
  }
  return outcome;
}

/** A lead's corrections, oldest first. */
export function leadCorrections(db: Db, leadId: string): Promise<Correction[]> {
  return correctionsOf(db, 'lead', [leadId]);
}
