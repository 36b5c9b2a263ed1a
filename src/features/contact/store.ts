import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/database.ts';
import { bigint, type RowOf, table, text } from '../../db/table-spec.ts';

export type ContactStatus = 'new' | 'spam' | 'vendor';

/** The `contact_submissions` table (migrations 0006 and 0013). */
export const contactSubmissionsTable = table({
  id: text(),
  name: text(),
  email: text(),
  subject: text(),
  message: text(),
  created_at: bigint(),
  /** What became of it: `new` (e-mailed to the team), `spam` (dropped), `vendor` (declined). */
  status: text<ContactStatus>(),
  /** The classifier's answer (`lead`, `spam`, `vendor`) and why; null before migration 0013. */
  classification: text().orNull(),
  classification_reason: text().orNull(),
  /** `llm`, `builtin`, or `honeypot` (the hidden field was filled: not classified). */
  classified_by: text().orNull(),
});

export type ContactRow = RowOf<typeof contactSubmissionsTable>;

declare module '../../db/schema.ts' {
  interface Database {
    contact_submissions: ContactRow;
  }
}

export interface ContactInput {
  name: string;
  email: string;
  subject: string;
  message: string;
}

export interface ContactJudgement {
  status: ContactStatus;
  classification: string | null;
  classificationReason: string | null;
  classifiedBy: string | null;
}

export function newContactId(): string {
  return `contact_${randomUUID()}`;
}

/** Stores a submission (by default not judged: `new`). */
export async function saveContact(
  db: Db,
  input: ContactInput & Partial<ContactJudgement> & { id?: string },
  now = Date.now(),
): Promise<ContactRow> {
  const row: ContactRow = {
    id: input.id ?? newContactId(),
    name: input.name,
    email: input.email,
    subject: input.subject,
    message: input.message,
    created_at: now,
    status: input.status ?? 'new',
    classification: input.classification ?? null,
    classification_reason: input.classificationReason ?? null,
    classified_by: input.classifiedBy ?? null,
  };
  await db.insertInto('contact_submissions').values(row).execute();
  return row;
}

/** A submission as the list routes answer it (this one and the admin's). */
export const contactView = (r: ContactRow) => ({
  id: r.id,
  name: r.name,
  email: r.email,
  subject: r.subject,
  message: r.message,
  status: r.status,
  createdAt: new Date(Number(r.created_at)).toISOString(),
});

/** Newest first; `limit` rows from `offset`, and the total count. */
export async function listContacts(db: Db, offset: number, limit: number) {
  const [rows, count] = await Promise.all([
    db
      .selectFrom('contact_submissions')
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute(),
    db
      .selectFrom('contact_submissions')
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}
