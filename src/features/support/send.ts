import { randomUUID } from 'node:crypto';
import { withTransaction } from '../../db/database.ts';
import { type CrmRecordSource, queueCrmSafetyNet, syncRecordInline } from '../../integrations/crm/sync.ts';
import { JobQueue } from '../../queue/job-queue.ts';
import { normalizeLanguage } from '../../text/language.ts';
import { classifyContactRequest, queueContactRequestEmails } from './contact-request.ts';
import { requireCaptcha, type SupportDeps } from './deps.ts';
import { crmDealTitle, crmNoteHtml } from './emails.ts';
import type { SupportSendInput } from './schemas.ts';
import {
  getMessageCrmIds,
  getSupportMessage,
  insertSupportMessage,
  type SupportMessageStatus,
  saveMessageCrmIds,
  setMessageOutcome,
} from './store.ts';

export const SUPPORT_CRM_SOURCE = 'support';

/** Support contact requests as records of the shared CRM sync (integrations/crm/sync.ts). */
export const supportCrmSource: CrmRecordSource = {
  async load(db, id) {
    const [message, known] = await Promise.all([getSupportMessage(db, id), getMessageCrmIds(db, id)]);
    if (!message || !known) return null;
    return {
      known,
      input: {
        reference: message.id,
        name: message.name,
        email: message.email,
        phone: null,
        company: message.company,
        title: crmDealTitle(message),
        noteHtml: crmNoteHtml(message),
      },
    };
  },
  saveIds: saveMessageCrmIds,
  saveOutcome: setMessageOutcome,
};

const THANKS = {
  en: 'Thank you! We received your message and will reply soon.',
  es: '¡Gracias! Recibimos tu mensaje y te responderemos pronto.',
};

export interface SendResult {
  response: { success: true; message: string };
  id: string;
  status: SupportMessageStatus;
}

/**
 * POST /api/support/send after the rate limit and body validation: CAPTCHA, classification, the
 * request stored, then per class: spam → nothing more; vendor → the decline e-mail; otherwise the
 * contact e-mail to SUPPORT_EMAIL (CRM_BCC_EMAIL as blind copy) and the CRM deal (retried from the
 * queue when Pipedrive fails). The answer is the same for every class, so a spammer learns nothing.
 */
export async function sendSupportMessage(
  deps: SupportDeps,
  body: SupportSendInput,
  clientIp: string | null,
): Promise<SendResult> {
  await requireCaptcha(deps, body.recaptchaToken, clientIp, 'support message');
  const language = normalizeLanguage(body.language);
  const email = body.email.trim().toLowerCase();
  const verdict = await classifyContactRequest(deps, {
    name: body.name,
    email,
    company: body.company ?? null,
    subject: body.subject ?? null,
    message: body.message,
    language,
  });
  const { status } = verdict;
  const id = `sup_${randomUUID()}`;
  const now = Date.now();
  const record = {
    id,
    ...verdict,
    name: body.name,
    email,
    company: body.company ?? null,
    subject: body.subject ?? null,
    message: body.message,
    language,
    createdAt: now,
  };
  const log = deps.logger.child({ supportMessageId: id });
  // The message, its e-mails and its CRM safety-net job commit together: a crash after the commit
  // leaves every side effect queued, a failure before it stores nothing.
  await withTransaction(deps.db, async (tx) => {
    await insertSupportMessage(tx, record);
    const txDeps = { ...deps, db: tx, jobs: new JobQueue(tx) };
    await queueContactRequestEmails(txDeps, record, {
      language,
      to: deps.config.mail.supportEmail,
      bcc: deps.config.mail.crmBccEmail,
    });
    if (status === 'new' && deps.crm.enabled) await queueCrmSafetyNet(txDeps.jobs, SUPPORT_CRM_SOURCE, id);
  });
  deps.worker.poke();

  if (status === 'spam') {
    log.info({ reason: verdict.classificationReason }, 'support message classified as spam: dropped');
  } else if (status === 'new') {
    await syncRecordInline(deps, SUPPORT_CRM_SOURCE, supportCrmSource, id);
  }
  return { response: { success: true, message: THANKS[language] }, id, status };
}
