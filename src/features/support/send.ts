import { randomUUID } from 'node:crypto';
import { withTransaction } from '../../db/database.ts';
import { type CrmRecordSource, queueCrmSafetyNet, syncRecordInline } from '../../integrations/crm/sync.ts';
import { classifySubmission } from '../../integrations/llm/classification.ts';
import type { ClassifierInput } from '../../integrations/llm/offline/classifier.ts';
import { enqueueEmail } from '../../integrations/mail/index.ts';
import { JobQueue } from '../../queue/job-queue.ts';
import { normalizeLanguage, requireCaptcha, type SupportDeps } from './deps.ts';
import { contactEmail, crmDealTitle, crmNoteHtml, vendorDeclineEmail } from './emails.ts';
import type { SupportSendInput } from './schemas.ts';
import {
  getMessageCrmIds,
  getSupportMessage,
  insertSupportMessage,
  type SupportMessage,
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

/** What the classifier reads of a support message: the sender, the subject and the message. */
export function supportClassifierInput(
  message: Pick<SupportMessage, 'name' | 'email' | 'company' | 'subject' | 'message' | 'language'>,
): ClassifierInput & { language: 'en' | 'es' } {
  return {
    name: message.name,
    email: message.email,
    company: message.company,
    texts: [message.subject ?? '', message.message],
    language: message.language,
  };
}

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
  const classification = await classifySubmission(
    deps.llm ?? null,
    supportClassifierInput({
      name: body.name,
      email,
      company: body.company ?? null,
      subject: body.subject ?? null,
      message: body.message,
      language,
    }),
    deps.logger,
  );
  const status: SupportMessageStatus =
    classification.classification === 'spam' && deps.config.filters.spam
      ? 'spam'
      : classification.classification === 'vendor' && deps.config.filters.vendor
        ? 'vendor'
        : 'new';
  const id = `sup_${randomUUID()}`;
  const now = Date.now();
  const record = {
    id,
    status,
    classification: classification.classification,
    classificationReason: classification.reason,
    classifiedBy: classification.classifiedBy,
    classificationScore: classification.score,
    classificationReasons: classification.reasons,
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
    const message = { ...record, pipedrive: null, updatedAt: now };
    if (status === 'vendor') {
      await enqueueEmail(txDeps, vendorDeclineEmail(message, language), `${id}:vendor-decline`);
    } else if (status === 'new') {
      const contact = contactEmail(message, deps.config.mail.supportEmail, deps.config.mail.crmBccEmail);
      await enqueueEmail(txDeps, contact, `${id}:contact`);
      if (deps.crm.enabled) await queueCrmSafetyNet(txDeps.jobs, SUPPORT_CRM_SOURCE, id);
    }
  });
  deps.worker.poke();

  if (status === 'spam') {
    log.info({ reason: classification.reason }, 'support message classified as spam: dropped');
  } else if (status === 'new') {
    await syncRecordInline(deps, SUPPORT_CRM_SOURCE, supportCrmSource, id);
  }
  return { response: { success: true, message: THANKS[language] }, id, status };
}
