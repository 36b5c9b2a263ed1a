import type { Logger } from 'pino';
import type { Config } from '../../config.ts';
import { classifySubmission } from '../../integrations/llm/classification.ts';
import type { LlmClient } from '../../integrations/llm/llm-client.ts';
import type { ClassifierInput } from '../../integrations/llm/offline/classifier.ts';
import { enqueueEmail, type MailDeps } from '../../integrations/mail/queue.ts';
import { type ContactRequest, contactEmail, vendorDeclineEmail } from './emails.ts';
import type { SupportMessage, SupportMessageStatus } from './store.ts';

/**
 * A visitor's contact request as support judges it: classified (the language model when configured,
 * else the built-in classifier), then spam is dropped, a vendor pitch gets the polite decline and a
 * genuine request goes to SUPPORT_EMAIL. Used by support's own contact-us route and, through the port,
 * by the contact form.
 */
export interface ContactRequestInput {
  name: string;
  /** Trimmed and lower-cased. */
  email: string;
  company: string | null;
  subject: string | null;
  message: string;
  language: 'en' | 'es';
}

export interface ContactRequestVerdict {
  /** What happens to it: `new` is answered by the team, `spam` dropped, `vendor` declined. */
  status: SupportMessageStatus;
  classification: SupportMessage['classification'];
  classificationReason: string;
  classifiedBy: SupportMessage['classifiedBy'];
  /** The built-in classifier's probability of its answer and its reasons (null, none: the model decided). */
  classificationScore: number | null;
  classificationReasons: string[];
}

/** What the classifier reads of a contact request: the sender, the subject and the message. */
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

export type { ContactRequest };

/** Spam and vendor become their status only while their filter is on (SPAM_/VENDOR_FILTER_ENABLED). */
export async function classifyContactRequest(
  deps: { config: Pick<Config, 'filters'>; llm?: LlmClient | null; logger: Logger },
  input: ContactRequestInput,
): Promise<ContactRequestVerdict> {
  const classification = await classifySubmission(
    deps.llm ?? null,
    supportClassifierInput(input),
    deps.logger,
  );
  const status: SupportMessageStatus =
    classification.classification === 'spam' && deps.config.filters.spam
      ? 'spam'
      : classification.classification === 'vendor' && deps.config.filters.vendor
        ? 'vendor'
        : 'new';
  return {
    status,
    classification: classification.classification,
    classificationReason: classification.reason,
    classifiedBy: classification.classifiedBy,
    classificationScore: classification.score,
    classificationReasons: classification.reasons,
  };
}

/**
 * Queues the e-mails a classified request calls for, on the durable mail queue (idempotency keys
 * `<id>:contact` and `<id>:vendor-decline`): the vendor decline, or the contact e-mail to `to` with
 * Reply-To the visitor (and `bcc`, the CRM mailbox, when given). Spam gets none. Run it in the
 * transaction that stores the request, with `deps` on that transaction.
 */
export async function queueContactRequestEmails(
  deps: MailDeps,
  request: ContactRequest,
  options: { language: 'en' | 'es'; to: string; bcc?: string | undefined },
): Promise<void> {
  if (request.status === 'vendor') {
    await enqueueEmail(deps, vendorDeclineEmail(request, options.language), `${request.id}:vendor-decline`);
  } else if (request.status === 'new') {
    await enqueueEmail(deps, contactEmail(request, options.to, options.bcc), `${request.id}:contact`);
  }
}
