import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/database.ts';
import { bigint, type RowOf, table, text } from '../../db/table-spec.ts';

/** The `contact_submissions` table (migration 0006). */
export const contactSubmissionsTable = table({
  id: text(),
  name: text(),
  email: text(),
  subject: text(),
  message: text(),
  created_at: bigint(),
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

export async function saveContact(db: Db, input: ContactInput, now = Date.now()): Promise<ContactRow> {
  const row: ContactRow = { id: `contact_${randomUUID()}`, ...input, created_at: now };
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
