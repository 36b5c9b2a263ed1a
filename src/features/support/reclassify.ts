import { sql } from 'kysely';
import { withTransaction } from '../../db/database.ts';
import {
  type CorrectionDeps,
  emptyEffects,
  refusedStatusFor,
  startCrmSync,
  startEmail,
  stopCrmSync,
  stopEmail,
} from '../../integrations/llm/correction-effects.ts';
import { type Correction, newCorrectionId, recordCorrection } from '../../integrations/llm/corrections.ts';
import type { LeadClass } from '../../integrations/llm/offline/classifier.ts';
import { JobQueue } from '../../queue/job-queue.ts';
import type { SupportDeps } from './deps.ts';
import { contactEmail, vendorDeclineEmail } from './emails.ts';
import { SupportMessageNotFound } from './errors.ts';
import { SUPPORT_CRM_SOURCE } from './send.ts';
import {
  getMessageCrmIds,
  getSupportMessage,
  type SupportMessage,
  type SupportMessageStatus,
  setMessageOutcome,
} from './store.ts';

/**
 * An admin's correction of a support contact-us message's classification
 * (POST /admin/api/support/messages/{id}/classification), as for leads (features/leads/reclassify.ts):
 * made a lead, the message gets what it skipped (the contact e-mail to SUPPORT_EMAIL with the CRM
 * blind copy, the CRM sync); made spam or vendor, what has not run yet is cancelled; a vendor gets
 * its decline. One transaction after a lock on the message's row, so each runs at most once.
 */

export type ReclassifyDeps = Pick<
  SupportDeps,
  'config' | 'db' | 'jobs' | 'worker' | 'crm' | 'mail' | 'logger'
>;

export interface MessageCorrectionOutcome {
  message: SupportMessage;
  changed: boolean;
  correction: Correction | null;
}

export async function reclassifySupportMessage(
  deps: ReclassifyDeps,
  id: string,
  to: LeadClass,
): Promise<MessageCorrectionOutcome> {
  const outcome = await withTransaction(deps.db, async (tx) => {
    // A write first: concurrent corrections of this message run one after the other.
    const locked = await tx
      .updateTable('support_messages')
      .set({ updated_at: sql<number>`updated_at` })
      .where('id', '=', id)
      .executeTakeFirst();
    if (Number(locked.numUpdatedRows) === 0) {
      throw new SupportMessageNotFound(`No support message has the id ${id}.`);
    }
    const message = (await getSupportMessage(tx, id))!;
    const status: SupportMessageStatus = refusedStatusFor(to, deps.config.filters) ?? 'new';
    if (message.classification === to && message.status === status) {
      return { message, changed: false, correction: null };
    }

    const now = Date.now();
    const txDeps: CorrectionDeps = { ...deps, db: tx, jobs: new JobQueue(tx) };
    const effects = emptyEffects();
    const dealId = (await getMessageCrmIds(tx, id))?.dealId ?? null;
    const why = `cancelled: the message was marked ${to}`;
    const corrected: SupportMessage = {
      ...message,
      classification: to,
      classificationReason: `Marked ${to} by an admin (the classifier said ${message.classification}: ${message.classificationReason})`,
      status,
    };

    if (message.status === 'vendor' && status !== 'vendor') {
      await stopEmail(txDeps, effects, 'vendor decline e-mail', `${id}:vendor-decline`, why);
    }
    if (message.status !== 'new' && status === 'new') {
      const { supportEmail, crmBccEmail } = deps.config.mail;
      await startEmail(
        txDeps,
        effects,
        'contact e-mail',
        contactEmail(corrected, supportEmail, crmBccEmail),
        `${id}:contact`,
      );
      await startCrmSync(txDeps, effects, SUPPORT_CRM_SOURCE, id, dealId);
      if (deps.crm.enabled && dealId === null) {
        await setMessageOutcome(tx, id, {
          success: false,
          leadId: null,
          message: 'CRM sync queued after an admin marked this a lead',
        });
      }
    }
    if (message.status === 'new' && status !== 'new') {
      await stopEmail(txDeps, effects, 'contact e-mail', `${id}:contact`, why);
      await stopCrmSync(txDeps, effects, id, dealId);
    }
    if (status === 'vendor' && message.status !== 'vendor') {
      await startEmail(
        txDeps,
        effects,
        'vendor decline e-mail',
        vendorDeclineEmail(corrected, message.language),
        `${id}:vendor-decline`,
      );
    }

    await tx
      .updateTable('support_messages')
      .set({ classification: to, status, updated_at: now })
      .where('id', '=', id)
      .execute();
    const correction: Correction = {
      id: newCorrectionId(),
      source: 'support',
      recordId: id,
      from: message.classification,
      to,
      fromStatus: message.status,
      toStatus: status,
      effects,
      createdAt: now,
    };
    await recordCorrection(tx, correction);
    return { message: (await getSupportMessage(tx, id))!, changed: true, correction };
  });
  if (outcome.changed) {
    deps.worker.poke();
    deps.logger.info(
      { supportMessageId: id, from: outcome.correction?.from, to, effects: outcome.correction?.effects },
      'support message classification corrected',
    );
  }
  return outcome;
}
