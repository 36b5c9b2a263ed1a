import { putBlob } from '../../db/blob-store.ts';
import { type DbOrTx, withTransaction } from '../../db/database.ts';
import { bigint, integer, type RowOf, real, table, text } from '../../db/table-spec.ts';
import type { CrmIds } from '../../integrations/crm/crm.ts';
import { readCrmIds, writeCrmIds } from '../../integrations/crm/record-ids.ts';
import type { CrmOutcome } from '../../integrations/crm/sync.ts';
import type { UploadedFile } from './upload.ts';

/** The `support_messages` table (migration 0008). */
export const supportMessagesTable = table({
  id: text(),
  status: text<SupportMessageStatus>(),
  classification: text<'lead' | 'spam' | 'vendor'>(),
  classification_reason: text(),
  classified_by: text<'llm' | 'builtin'>(),
  /** The classifier's score and reasons (migration 0011), as in `leads`. */
  classification_score: real().orNull(),
  classification_reasons: text().orNull(),
  name: text(),
  email: text(),
  company: text().orNull(),
  subject: text().orNull(),
  message: text(),
  /** `en` or `es`, for e-mails sent later (migration 0011; rows stored before read `en`). */
  language: text<'en' | 'es'>(),
  pipedrive: text().orNull(),
  crm_person_id: bigint().orNull(),
  crm_org_id: bigint().orNull(),
  crm_deal_id: bigint().orNull(),
  crm_note_id: bigint().orNull(),
  created_at: bigint(),
  updated_at: bigint(),
});

/** The `support_tickets` table (migration 0008). */
export const supportTicketsTable = table({
  id: text(),
  full_name: text(),
  email: text(),
  issue_type: text(),
  company_name: text().orNull(),
  urgency: text<Urgency>(),
  product_url: text().orNull(),
  description: text(),
  created_at: bigint(),
});

/** The `support_attachments` table (migration 0008). */
export const supportAttachmentsTable = table({
  ticket_id: text(),
  position: integer(),
  blob_id: text(),
  filename: text(),
  original_filename: text(),
  content_type: text(),
  declared_type: text().orNull(),
  size: bigint(),
  sha256: text(),
});

declare module '../../db/schema.ts' {
  interface Database {
    support_messages: RowOf<typeof supportMessagesTable>;
    support_tickets: RowOf<typeof supportTicketsTable>;
    support_attachments: RowOf<typeof supportAttachmentsTable>;
  }
}

/** `new`: a genuine contact request (e-mailed, synced to the CRM); `spam` and `vendor` as in leads. */
export type SupportMessageStatus = 'new' | 'spam' | 'vendor';
export type Urgency = 'low' | 'medium' | 'high' | 'critical';

export interface SupportMessage {
  id: string;
  status: SupportMessageStatus;
  classification: 'lead' | 'spam' | 'vendor';
  classificationReason: string;
  classifiedBy: 'llm' | 'builtin';
  classificationScore: number | null;
  classificationReasons: string[];
  name: string;
  email: string;
  company: string | null;
  subject: string | null;
  message: string;
  language: 'en' | 'es';
  pipedrive: CrmOutcome | null;
  createdAt: number;
  updatedAt: number;
}

type MessageRow = import('../../db/schema.ts').Database['support_messages'];

function toMessage(row: MessageRow): SupportMessage {
  return {
    id: row.id,
    status: row.status,
    classification: row.classification,
    classificationReason: row.classification_reason,
    classifiedBy: row.classified_by,
    classificationScore: row.classification_score === null ? null : Number(row.classification_score),
    classificationReasons: row.classification_reasons
      ? (JSON.parse(row.classification_reasons) as string[])
      : [],
    name: row.name,
    email: row.email,
    company: row.company,
    subject: row.subject,
    message: row.message,
    language: row.language,
    pipedrive: row.pipedrive ? (JSON.parse(row.pipedrive) as CrmOutcome) : null,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

export async function insertSupportMessage(
  db: DbOrTx,
  message: Omit<SupportMessage, 'pipedrive' | 'updatedAt'>,
) {
  await db
    .insertInto('support_messages')
    .values({
      id: message.id,
      status: message.status,
      classification: message.classification,
      classification_reason: message.classificationReason,
      classified_by: message.classifiedBy,
      classification_score: message.classificationScore,
      classification_reasons: JSON.stringify(message.classificationReasons),
      name: message.name,
      email: message.email,
      company: message.company,
      subject: message.subject,
      message: message.message,
      language: message.language,
      pipedrive: null,
      crm_person_id: null,
      crm_org_id: null,
      crm_deal_id: null,
      crm_note_id: null,
      created_at: message.createdAt,
      updated_at: message.createdAt,
    })
    .execute();
}

export async function getSupportMessage(db: DbOrTx, id: string): Promise<SupportMessage | null> {
  const row = await db.selectFrom('support_messages').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toMessage(row) : null;
}

/** Newest first, optionally only some statuses (the admin's support view). */
export async function listSupportMessages(
  db: DbOrTx,
  options: { offset: number; limit: number; statuses?: SupportMessageStatus[] },
): Promise<{ messages: SupportMessage[]; total: number }> {
  let count = db.selectFrom('support_messages').select((eb) => eb.fn.countAll<number>().as('n'));
  let rows = db
    .selectFrom('support_messages')
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(options.limit)
    .offset(options.offset);
  if (options.statuses?.length) {
    count = count.where('status', 'in', options.statuses);
    rows = rows.where('status', 'in', options.statuses);
  }
  const [total, list] = await Promise.all([count.executeTakeFirstOrThrow(), rows.execute()]);
  return { messages: list.map(toMessage), total: Number(total.n) };
}

export const getMessageCrmIds = (db: DbOrTx, id: string) => readCrmIds(db, 'support_messages', id);

export const saveMessageCrmIds = (db: DbOrTx, id: string, ids: Partial<CrmIds>) =>
  writeCrmIds(db, 'support_messages', id, ids);

export async function setMessageOutcome(db: DbOrTx, id: string, outcome: CrmOutcome): Promise<void> {
  await db
    .updateTable('support_messages')
    .set({ pipedrive: JSON.stringify(outcome), updated_at: Date.now() })
    .where('id', '=', id)
    .execute();
}

export interface NewTicket {
  id: string;
  fullName: string;
  email: string;
  issueType: string;
  companyName: string | null;
  urgency: Urgency;
  productUrl: string | null;
  description: string;
  createdAt: number;
}

export interface StoredAttachment {
  position: number;
  blobId: string;
  filename: string;
  contentType: string;
  size: number;
}

export class DuplicateTicketId extends Error {}

/**
 * Writes the ticket, its attachments' bytes and their metadata in ONE transaction: either the whole
 * ticket exists afterwards or nothing of it does. A ticket id already taken → DuplicateTicketId.
 */
export async function insertTicket(
  db: DbOrTx,
  ticket: NewTicket,
  files: UploadedFile[],
): Promise<StoredAttachment[]> {
  return withTransaction(db, async (tx) => {
    const inserted = await tx
      .insertInto('support_tickets')
      .values({
        id: ticket.id,
        full_name: ticket.fullName,
        email: ticket.email,
        issue_type: ticket.issueType,
        company_name: ticket.companyName,
        urgency: ticket.urgency,
        product_url: ticket.productUrl,
        description: ticket.description,
        created_at: ticket.createdAt,
      })
      .onConflict((oc) => oc.column('id').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!inserted) throw new DuplicateTicketId(ticket.id);
    const stored: StoredAttachment[] = [];
    for (const file of files) {
      const blob = await putBlob(tx, file.bytes);
      await tx
        .insertInto('support_attachments')
        .values({
          ticket_id: ticket.id,
          position: file.position,
          blob_id: blob.id,
          filename: file.filename,
          original_filename: file.originalName,
          content_type: file.contentType,
          declared_type: file.declaredType,
          size: blob.size,
          sha256: blob.sha256,
        })
        .execute();
      stored.push({
        position: file.position,
        blobId: blob.id,
        filename: file.filename,
        contentType: file.contentType,
        size: blob.size,
      });
    }
    return stored;
  });
}

export interface TicketRecord extends NewTicket {
  attachments: (StoredAttachment & {
    originalFilename: string;
    declaredType: string | null;
    sha256: string;
  })[];
}

export async function getTicket(db: DbOrTx, id: string): Promise<TicketRecord | null> {
  const row = await db.selectFrom('support_tickets').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) return null;
  const attachments = await db
    .selectFrom('support_attachments')
    .selectAll()
    .where('ticket_id', '=', id)
    .orderBy('position')
    .execute();
  return {
    id: row.id,
    fullName: row.full_name,
    email: row.email,
    issueType: row.issue_type,
    companyName: row.company_name,
    urgency: row.urgency,
    productUrl: row.product_url,
    description: row.description,
    createdAt: Number(row.created_at),
    attachments: attachments.map((a) => ({
      position: Number(a.position),
      blobId: a.blob_id,
      filename: a.filename,
      originalFilename: a.original_filename,
      contentType: a.content_type,
      declaredType: a.declared_type,
      size: Number(a.size),
      sha256: a.sha256,
    })),
  };
}

export async function countTickets(db: DbOrTx): Promise<number> {
  const row = await db
    .selectFrom('support_tickets')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
