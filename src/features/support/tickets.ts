import { randomInt } from 'node:crypto';
import { withTransaction } from '../../db/database.ts';
import { widgetToken } from '../../integrations/captcha/captcha.ts';
import { enqueueEmail } from '../../integrations/mail/index.ts';
import { JobQueue } from '../../queue/job-queue.ts';
import { describeZodError } from '../../text/validation-message.ts';
import { requireCaptcha, type SupportDeps } from './deps.ts';
import { ticketConfirmationEmail, ticketNotificationEmail } from './emails.ts';
import { SupportRefusal } from './errors.ts';
import { TICKET_SUFFIX_ALPHABET } from './limits.ts';
import { TicketFields } from './schemas.ts';
import { DuplicateTicketId, getTicket, insertTicket, type TicketRecord } from './store.ts';
import type { ParsedUpload } from './upload.ts';

/** `TICKET-YYYYMMDD-XXXXXX`: the UTC date and six characters drawn with crypto.randomInt (a CSPRNG). */
export function newTicketId(now: Date = new Date()): string {
  const date = now.toISOString().slice(0, 10).replaceAll('-', '');
  let suffix = '';
  for (let i = 0; i < 6; i++) suffix += TICKET_SUFFIX_ALPHABET[randomInt(TICKET_SUFFIX_ALPHABET.length)];
  return `TICKET-${date}-${suffix}`;
}

/** Collisions are ~1 in 2 billion per day; a few fresh draws settle one for good. */
const ID_ATTEMPTS = 5;

/**
 * A ticket whose body has been read completely and within the limits: the fields validated, the
 * CAPTCHA verified, then the ticket, its files, their metadata and the two e-mails committed in one
 * transaction.
 */
export async function createTicket(
  deps: SupportDeps,
  upload: ParsedUpload,
  clientIp: string | null,
): Promise<{ ticketId: string }> {
  const parsed = TicketFields.safeParse(upload.fields);
  if (!parsed.success) throw new SupportRefusal('invalid', describeZodError(parsed.error));
  const input = parsed.data;
  // A plain HTML form with the provider's widget posts the token under the widget's own name.
  const token = input.recaptchaToken ?? widgetToken(upload.fields);
  await requireCaptcha(deps, token, clientIp, 'support ticket');

  // The ticket, its files and both e-mails commit together: a crash after the commit leaves the
  // e-mails queued (the support team's carries the files, read from the database when sent), a
  // failure before it stores nothing.
  const mailTo = deps.config.mail.supportEmail;
  let ticket: TicketRecord | null = null;
  for (let attempt = 1; !ticket; attempt++) {
    const ticketId = newTicketId();
    try {
      ticket = await withTransaction(deps.db, async (tx) => {
        await insertTicket(
          tx,
          {
            id: ticketId,
            fullName: input.fullName,
            email: input.email.toLowerCase(),
            issueType: input.issueType,
            companyName: input.companyName ?? null,
            urgency: input.urgency,
            productUrl: input.productUrl ?? null,
            description: input.description,
            createdAt: Date.now(),
          },
          upload.files,
        );
        const stored = (await getTicket(tx, ticketId))!;
        const txDeps = { ...deps, db: tx, jobs: new JobQueue(tx) };
        await enqueueEmail(txDeps, ticketConfirmationEmail(stored), `${ticketId}:confirmation`);
        await enqueueEmail(txDeps, ticketNotificationEmail(stored, mailTo), `${ticketId}:notification`);
        return stored;
      });
    } catch (error) {
      if (!(error instanceof DuplicateTicketId) || attempt >= ID_ATTEMPTS) throw error;
    }
  }
  deps.worker.poke();
  deps.logger
    .child({ ticketId: ticket.id })
    .info({ attachments: ticket.attachments.length, urgency: ticket.urgency }, 'support ticket stored');
  const ticketId = ticket.id;
  return { ticketId };
}
