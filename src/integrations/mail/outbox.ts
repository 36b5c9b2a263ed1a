import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Db, DbOrTx } from '../../db/database.ts';
import { bigint, integer, type RowOf, table, text } from '../../db/table-spec.ts';
import { addressList, type MailMessage } from './message.ts';

/** The `mail_outbox` table (migration 0003). */
export const mailOutboxTable = table({
  id: text(),
  idempotency_key: text(),
  transport: text<'smtp' | 'outbox'>(),
  status: text<OutboxStatus>(),
  from_address: text(),
  to_addresses: text(),
  cc_addresses: text(),
  bcc_addresses: text(),
  reply_to: text().orNull(),
  subject: text(),
  text_body: text(),
  html_body: text(),
  attachments: text(),
  attempts: integer(),
  last_error: text().orNull(),
  message_id: text().orNull(),
  created_at: bigint(),
  updated_at: bigint(),
  sent_at: bigint().orNull(),
});

declare module '../../db/schema.ts' {
  interface Database {
    mail_outbox: RowOf<typeof mailOutboxTable>;
  }
}

/**
 * `queued` → `sent` (SMTP accepted it) or `stored` (offline outbox: kept, not delivered);
 * `retrying` after a failed attempt; `failed` once the queue gave up; `cancelled` when what it was
 * for was withdrawn before it went (a lead corrected to spam): queued again under the same key, it
 * is `queued` again.
 */
export type OutboxStatus = 'queued' | 'sent' | 'stored' | 'retrying' | 'failed' | 'cancelled';

export interface AttachmentMeta {
  filename: string;
  contentType: string;
  /** Bytes, when known (inline content). */
  size: number | null;
  source: 'inline' | 'path' | 'blob';
}

export interface OutboxMessage {
  id: string;
  idempotencyKey: string;
  transport: 'smtp' | 'outbox';
  status: OutboxStatus;
  from: string;
  to: string[];
  cc: string[];
  bcc: string[];
  replyTo: string | null;
  subject: string;
  text: string;
  html: string;
  attachments: AttachmentMeta[];
  attempts: number;
  lastError: string | null;
  messageId: string | null;
  createdAt: number;
  updatedAt: number;
  sentAt: number | null;
}

type Row = import('../../db/schema.ts').Database['mail_outbox'];

function toMessage(row: Row): OutboxMessage {
  return {
    id: row.id,
    idempotencyKey: row.idempotency_key,
    transport: row.transport,
    status: row.status,
    from: row.from_address,
    to: JSON.parse(row.to_addresses) as string[],
    cc: JSON.parse(row.cc_addresses) as string[],
    bcc: JSON.parse(row.bcc_addresses) as string[],
    replyTo: row.reply_to,
    subject: row.subject,
    text: row.text_body,
    html: row.html_body,
    attachments: JSON.parse(row.attachments) as AttachmentMeta[],
    attempts: Number(row.attempts),
    lastError: row.last_error,
    messageId: row.message_id,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    sentAt: row.sent_at === null ? null : Number(row.sent_at),
  };
}

export function attachmentMeta(message: MailMessage): AttachmentMeta[] {
  return (message.attachments ?? []).map((a) => ({
    filename: a.filename,
    contentType: a.contentType,
    size: a.contentBase64 !== undefined ? Buffer.from(a.contentBase64, 'base64').length : (a.size ?? null),
    source: a.blobId ? 'blob' : a.path ? 'path' : 'inline',
  }));
}

/** Records a message once per idempotency key; returns the row's id (existing or new). */
export async function recordOutbox(
  db: DbOrTx,
  message: MailMessage,
  options: { idempotencyKey: string; transport: 'smtp' | 'outbox'; from: string },
): Promise<string> {
  const now = Date.now();
  const inserted = await db
    .insertInto('mail_outbox')
    .values({
      id: randomUUID(),
      idempotency_key: options.idempotencyKey,
      transport: options.transport,
      status: 'queued',
      from_address: options.from,
      to_addresses: JSON.stringify(addressList(message.to)),
      cc_addresses: JSON.stringify(addressList(message.cc)),
      bcc_addresses: JSON.stringify(addressList(message.bcc)),
      reply_to: message.replyTo ?? null,
      subject: message.subject,
      text_body: message.text,
      html_body: message.html,
      attachments: JSON.stringify(attachmentMeta(message)),
      attempts: 0,
      last_error: null,
      message_id: null,
      created_at: now,
      updated_at: now,
      sent_at: null,
    })
    .onConflict((oc) =>
      oc
        .column('idempotency_key')
        .doUpdateSet({ status: 'queued', last_error: null, updated_at: now })
        .where('mail_outbox.status', '=', 'cancelled'),
    )
    .returning('id')
    .executeTakeFirst();
  if (inserted) return inserted.id;
  const existing = await db
    .selectFrom('mail_outbox')
    .select('id')
    .where('idempotency_key', '=', options.idempotencyKey)
    .executeTakeFirstOrThrow();
  return existing.id;
}

export async function getOutboxByKey(db: DbOrTx, idempotencyKey: string): Promise<OutboxMessage | null> {
  const row = await db
    .selectFrom('mail_outbox')
    .selectAll()
    .where('idempotency_key', '=', idempotencyKey)
    .executeTakeFirst();
  return row ? toMessage(row) : null;
}

export async function markOutbox(
  db: DbOrTx,
  idempotencyKey: string,
  update: { status: OutboxStatus; error?: string | null; messageId?: string | null; attempted: boolean },
): Promise<void> {
  const now = Date.now();
  await db
    .updateTable('mail_outbox')
    .set({
      status: update.status,
      last_error: update.error === undefined ? null : (update.error?.slice(0, 1000) ?? null),
      ...(update.messageId !== undefined ? { message_id: update.messageId } : {}),
      ...(update.attempted ? { attempts: sql<number>`attempts + 1` } : {}),
      ...(update.status === 'sent' || update.status === 'stored' ? { sent_at: now } : {}),
      updated_at: now,
    })
    .where('idempotency_key', '=', idempotencyKey)
    .execute();
}

/** The outbox for the admin: newest first, with a total. */
export async function listOutbox(
  db: Db,
  options: { page?: number; limit?: number; status?: OutboxStatus; keyPrefix?: string } = {},
): Promise<{ messages: OutboxMessage[]; total: number; page: number; limit: number }> {
  const page = Math.max(1, options.page ?? 1);
  const limit = Math.min(200, Math.max(1, options.limit ?? 50));
  let count = db.selectFrom('mail_outbox').select(sql<number>`count(*)`.as('total'));
  let rows = db
    .selectFrom('mail_outbox')
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .offset((page - 1) * limit);
  if (options.status) {
    count = count.where('status', '=', options.status);
    rows = rows.where('status', '=', options.status);
  }
  if (options.keyPrefix) {
    // One lead's e-mails: their idempotency keys are `${leadId}:${kind}`.
    const pattern = `${options.keyPrefix.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
    count = count.where(sql<string>`idempotency_key`, 'like', sql<string>`${pattern} escape '\\'`);
    rows = rows.where(sql<string>`idempotency_key`, 'like', sql<string>`${pattern} escape '\\'`);
  }
  const [{ total }, list] = await Promise.all([count.executeTakeFirstOrThrow(), rows.execute()]);
  return { messages: list.map(toMessage), total: Number(total), page, limit };
}

export async function outboxCounts(db: Db): Promise<Record<OutboxStatus, number>> {
  const rows = await db
    .selectFrom('mail_outbox')
    .select(['status', sql<number>`count(*)`.as('count')])
    .groupBy('status')
    .execute();
  const counts: Record<OutboxStatus, number> = {
    queued: 0,
    sent: 0,
    stored: 0,
    retrying: 0,
    failed: 0,
    cancelled: 0,
  };
  for (const row of rows) counts[row.status] = Number(row.count);
  return counts;
}
