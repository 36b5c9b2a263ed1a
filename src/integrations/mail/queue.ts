import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import { getBlob } from '../../db/blob-store.ts';
import type { Db } from '../../db/database.ts';
import { writeThroughOutage } from '../../db/unavailable.ts';
import type { JobQueue, QueueStatus } from '../../queue/job-queue.ts';
import { namedQueue, PermanentJobError, type QueueDefinition, type QueueWorker } from '../../queue/worker.ts';
import { escapeHtml, type MailMessage } from './message.ts';
import { getOutboxByKey, markOutbox, type OutboxStatus, outboxCounts, recordOutbox } from './outbox.ts';
import { isMessageTooLarge, isPermanentSmtpError, type MailTransport, type SendResult } from './transport.ts';

/**
 * ConfirmationEmailQueue of the spec: every e-mail the service sends goes through it (leads, support,
 * contact). Its `/enqueue` and `/status` operations are `enqueueEmail` and `emailQueueStatus`; they are
 * functions, never public routes.
 */
export const EMAIL_QUEUE = 'confirmation-email';
/** With the queue's backoff (1 s doubling, capped at 15 min) this rides out an SMTP outage of hours. */
export const EMAIL_MAX_ATTEMPTS = 20;

export interface EmailJob {
  idempotencyKey: string;
  message: MailMessage;
}

/** What the mail functions need from the infrastructure (which satisfies it). */
export interface MailDeps {
  db: Db;
  jobs: JobQueue;
  worker: QueueWorker;
  mail: MailTransport;
  /** Failed sends are counted here (`deps.metrics`) when present. */
  metrics?: { recordOutboundError(service: string): void };
  logger?: Pick<Logger, 'warn'>;
}

export function emailQueue(jobs: JobQueue) {
  return namedQueue<EmailJob>(jobs, { name: EMAIL_QUEUE, maxAttempts: EMAIL_MAX_ATTEMPTS });
}

/**
 * Keeps the message in the outbox and queues its delivery, once per idempotency key (e.g.
 * `${leadId}:confirmation`): enqueuing the same key again changes nothing.
 */
export async function enqueueEmail(
  deps: MailDeps,
  message: MailMessage,
  idempotencyKey: string,
): Promise<{ outboxId: string; jobId: string; created: boolean }> {
  const outboxId = await recordOutbox(deps.db, message, {
    idempotencyKey,
    transport: deps.mail.kind,
    from: deps.mail.from,
  });
  const job = await emailQueue(deps.jobs).enqueue({ idempotencyKey, message }, { idempotencyKey });
  if (job.created) deps.worker.poke();
  return { outboxId, jobId: job.id, created: job.created };
}

/**
 * Withdraws the e-mail queued under this key if it has not gone yet: its job is cancelled (pending,
 * waiting for a retry, or dead) and its outbox row marked `cancelled`. One being sent right now, or
 * already sent, stays: `'sent'`. `'none'` when nothing was queued under the key.
 */
export async function cancelEmail(
  deps: Pick<MailDeps, 'db' | 'jobs'>,
  idempotencyKey: string,
  reason: string,
): Promise<'cancelled' | 'sent' | 'none'> {
  const row = await getOutboxByKey(deps.db, idempotencyKey);
  if (!row) return 'none';
  if (row.status === 'cancelled') return 'none';
  const cancelled = await deps.jobs.cancel(EMAIL_QUEUE, idempotencyKey);
  if (!cancelled) {
    // No job left to cancel: it is running, or it ran (sent, stored, or the row says otherwise).
    return 'sent';
  }
  await markOutbox(deps.db, idempotencyKey, { status: 'cancelled', error: reason, attempted: false });
  return 'cancelled';
}

export interface EmailQueueStatus {
  queue: QueueStatus;
  transport: 'smtp' | 'outbox';
  outbox: Record<OutboxStatus, number>;
}

export async function emailQueueStatus(deps: MailDeps): Promise<EmailQueueStatus> {
  const [queue, outbox] = await Promise.all([emailQueue(deps.jobs).status(), outboxCounts(deps.db)]);
  return { queue, transport: deps.mail.kind, outbox };
}

/** A stable Message-ID per idempotency key, so a re-send after a lost acknowledgement can be deduplicated. */
export function messageIdFor(idempotencyKey: string, from: string): string {
  const domain = /@([^>\s]+)/.exec(from)?.[1] ?? 'localhost';
  const hash = createHash('sha256').update(idempotencyKey).digest('hex').slice(0, 32);
  return `<${hash}@${domain}>`;
}

/** Reads attachments kept in the database (`blobId`) into the message, just before it is sent. */
async function withStoredAttachments(db: Db, message: MailMessage): Promise<MailMessage> {
  if (!message.attachments?.some((a) => a.blobId)) return message;
  const attachments = await Promise.all(
    message.attachments.map(async (a) => {
      if (!a.blobId) return a;
      const bytes = await getBlob(db, a.blobId);
      if (!bytes) throw new PermanentJobError(`attachment ${a.blobId} no longer exists`);
      return { filename: a.filename, contentType: a.contentType, contentBase64: bytes.toString('base64') };
    }),
  );
  return { ...message, attachments };
}

/**
 * The message without its attachments, saying which they were and why they are missing. Files kept
 * in the database (ticket uploads) stay there with their ticket.
 */
export function withoutAttachments(message: MailMessage, reason: string): MailMessage {
  const files = (message.attachments ?? []).map((a) => {
    const size = a.size === undefined ? '' : `, ${(a.size / (1024 * 1024)).toFixed(1)} MB`;
    const kept = a.blobId ? `, kept in the service’s database as blob ${a.blobId}` : '';
    return `${a.filename} (${a.contentType}${size}${kept})`;
  });
  const note =
    `The mail server refused this message with its ${files.length} attachment(s) for its size ` +
    `(${reason}), so it is sent without them:`;
  return {
    ...message,
    attachments: [],
    text: `${message.text}\n\n---\n${note}\n${files.map((f) => `- ${f}`).join('\n')}\n`,
    html: `${message.html}<hr><p>${escapeHtml(note)}</p><ul>${files.map((f) => `<li>${escapeHtml(f)}</li>`).join('')}</ul>`,
  };
}

/**
 * Sends the message; one the server refuses for its size goes again without its attachments (told of
 * the ticket without its files rather than not at all: a refused size fails the same way on every
 * retry), with `note` saying so for the outbox row. Any failure of either send is thrown.
 */
async function deliver(
  deps: Pick<MailDeps, 'db' | 'mail' | 'logger'>,
  idempotencyKey: string,
  message: MailMessage,
): Promise<{ result: SendResult; note: string | null }> {
  try {
    const result = await deps.mail.send(await withStoredAttachments(deps.db, message), {
      messageId: messageIdFor(idempotencyKey, deps.mail.from),
    });
    return { result, note: null };
  } catch (error) {
    if (!isMessageTooLarge(error) || !message.attachments?.length) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    const result = await deps.mail.send(withoutAttachments(message, reason), {
      messageId: messageIdFor(`${idempotencyKey}:without-attachments`, deps.mail.from),
    });
    deps.logger?.warn({ idempotencyKey }, 'message too large for the server: sent without attachments');
    return {
      result,
      note: `Sent without its attachments: the server refused the whole message (${reason}).`,
    };
  }
}

/** The queue's handler: deliver, record the outcome on the outbox row, throw to retry. */
export function emailQueueDefinition(
  deps: Pick<MailDeps, 'db' | 'mail' | 'metrics' | 'logger'>,
): QueueDefinition<EmailJob> {
  return {
    name: EMAIL_QUEUE,
    maxAttempts: EMAIL_MAX_ATTEMPTS,
    concurrency: 2,
    leaseMs: 120_000,
    async handle({ idempotencyKey, message }) {
      const row = await getOutboxByKey(deps.db, idempotencyKey);
      if (row && (row.status === 'sent' || row.status === 'stored')) return;
      if (!row) {
        await recordOutbox(deps.db, message, {
          idempotencyKey,
          transport: deps.mail.kind,
          from: deps.mail.from,
        });
      }
      try {
        const { result, note } = await deliver(deps, idempotencyKey, message);
        // Sent to the others; sending again would repeat it to them, so the refusal is recorded.
        const refused = result.refused.length > 0 ? `The server refused ${result.refused.join(', ')}.` : null;
        // The addresses stay in the outbox row (erased with it), out of the logs.
        if (refused)
          deps.logger?.warn({ idempotencyKey, refused: result.refused.length }, 'recipients refused');
        // Sent: recorded through a brief database outage, or the retry would send it again.
        await writeThroughOutage(() =>
          markOutbox(deps.db, idempotencyKey, {
            status: deps.mail.kind === 'smtp' ? 'sent' : 'stored',
            messageId: result.messageId,
            error: [note, refused].filter(Boolean).join(' ') || null,
            attempted: true,
          }),
        );
      } catch (error) {
        deps.metrics?.recordOutboundError('smtp');
        await markOutbox(deps.db, idempotencyKey, {
          status: 'retrying',
          error: error instanceof Error ? error.message : String(error),
          attempted: true,
        });
        // A 5yz reply (no such mailbox, authentication refused) fails the same way every time: the
        // job goes dead at once, and the admin can retry it once the cause is fixed.
        if (isPermanentSmtpError(error)) {
          throw new PermanentJobError(error instanceof Error ? error.message : String(error));
        }
        throw error;
      }
    },
    async onDead({ idempotencyKey }, error) {
      await markOutbox(deps.db, idempotencyKey, {
        status: 'failed',
        error: error instanceof Error ? error.message : String(error),
        attempted: false,
      });
    },
  };
}
