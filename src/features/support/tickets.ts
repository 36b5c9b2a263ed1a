import { randomInt } from 'node:crypto';
import { ApiError } from '../../http/errors.ts';
import { describeZodError } from '../../http/openapi.ts';
import { enqueueEmail, type MailMessage } from '../../integrations/mail/index.ts';
import { requireCaptcha, type SupportDeps } from './deps.ts';
import { ticketConfirmationEmail, ticketNotificationEmail } from './emails.ts';
import { TICKET_SUFFIX_ALPHABET } from './limits.ts';
import type { ParsedUpload } from './multipart.ts';
import { TicketFields } from './schemas.ts';
import { DuplicateTicketId, getTicket, insertTicket } from './store.ts';

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
 * CAPTCHA verified, then the ticket, its files and their metadata written in one transaction, then
 * the two e-mails queued (the support team's carries the files, read from the database when sent).
 */
export async function createTicket(
  deps: SupportDeps,
  upload: ParsedUpload,
  clientIp: string | null,
): Promise<{ ticketId: string }> {
  const parsed = TicketFields.safeParse(upload.fields);
  if (!parsed.success) throw new ApiError('VALIDATION_ERROR', describeZodError(parsed.error));
  const input = parsed.data;
  await requireCaptcha(deps, input.recaptchaToken, clientIp, 'support ticket');

  let ticketId = '';
  for (let attempt = 1; ; attempt++) {
    ticketId = newTicketId();
    try {
      await insertTicket(
        deps.db,
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
      break;
    } catch (error) {
      if (!(error instanceof DuplicateTicketId) || attempt >= ID_ATTEMPTS) throw error;
    }
  }

  const ticket = (await getTicket(deps.db, ticketId))!;
  const log = deps.logger.child({ ticketId });
  log.info({ attachments: ticket.attachments.length, urgency: ticket.urgency }, 'support ticket stored');
  const mail = async (build: () => MailMessage, kind: string) => {
    try {
      await enqueueEmail(deps, build(), `${ticketId}:${kind}`);
    } catch (error) {
      log.error({ err: error, kind }, 'could not queue an e-mail');
    }
  };
  await mail(() => ticketConfirmationEmail(ticket), 'confirmation');
  await mail(() => ticketNotificationEmail(ticket, deps.config.mail.supportEmail), 'notification');
  return { ticketId };
}
