import type { Logger } from 'pino';
import type { Config } from '../../config.ts';
import { type Db, withTransaction } from '../../db/database.ts';
import type { LlmClient } from '../../integrations/llm/llm-client.ts';
import type { MailTransport } from '../../integrations/mail/transport.ts';
import { JobQueue } from '../../queue/job-queue.ts';
import type { QueueWorker } from '../../queue/worker.ts';
import { classifyContactRequest, queueContactRequestEmails } from '../support/port.ts';
import { type ContactJudgement, type ContactRow, newContactId, saveContact } from './store.ts';

/** What the contact form's logic needs; the infrastructure provides it. */
export interface ContactDeps {
  config: Pick<Config, 'filters' | 'mail'>;
  db: Db;
  worker: QueueWorker;
  mail: MailTransport;
  llm?: LlmClient | null;
  logger: Logger;
  metrics?: { recordOutboundError(service: string): void };
}

export interface ContactSubmission {
  name: string;
  email: string;
  subject: string;
  message: string;
  /** The honeypot field was filled in: a bot. */
  honeypot: boolean;
  language: 'en' | 'es';
}

const HONEYPOT_JUDGEMENT: ContactJudgement = {
  status: 'spam',
  classification: 'spam',
  classificationReason: 'The hidden honeypot field was filled in.',
  classifiedBy: 'honeypot',
};

/**
 * Stores a contact-form message and forwards it as support forwards a contact-us request (through
 * support's port): classified, then spam is kept and dropped, a vendor pitch gets the polite decline,
 * and a genuine message is e-mailed to SUPPORT_EMAIL with Reply-To the visitor. The row and its
 * e-mails commit together on the durable mail queue: a crash after the commit leaves the e-mail
 * queued, a failure before it stores nothing. A filled-in honeypot skips the classifier: spam.
 */
export async function submitContact(
  deps: ContactDeps,
  submission: ContactSubmission,
  now = Date.now(),
): Promise<ContactRow> {
  const id = newContactId();
  const { honeypot, language, ...fields } = submission;
  if (honeypot) {
    const row = await saveContact(deps.db, { id, ...fields, ...HONEYPOT_JUDGEMENT }, now);
    deps.logger.info({ contactId: id }, 'contact message with the honeypot filled in: stored as spam');
    return row;
  }
  const verdict = await classifyContactRequest(deps, {
    ...fields,
    email: fields.email.toLowerCase(),
    company: null,
    language,
  });
  const row = await withTransaction(deps.db, async (tx) => {
    const saved = await saveContact(tx, { id, ...fields, ...verdict }, now);
    await queueContactRequestEmails(
      { ...deps, db: tx, jobs: new JobQueue(tx) },
      { id, ...verdict, ...fields, company: null },
      { language, to: deps.config.mail.supportEmail },
    );
    return saved;
  });
  deps.worker.poke();
  if (verdict.status !== 'new') {
    deps.logger.info(
      { contactId: id, status: verdict.status, classifiedBy: verdict.classifiedBy },
      `contact message classified as ${verdict.status}`,
    );
  }
  return row;
}
