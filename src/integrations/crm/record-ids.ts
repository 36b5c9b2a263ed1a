import type { DbOrTx } from '../../db/database.ts';
import type { CrmIds } from './crm.ts';

/** Tables whose rows keep the CRM ids of what was created for them (leads, support messages). */
export type CrmRecordTable = 'leads' | 'support_messages';

/** The CRM ids stored on a record, or null when there is no such record. */
export async function readCrmIds(db: DbOrTx, table: CrmRecordTable, id: string): Promise<CrmIds | null> {
  const row = await db
    .selectFrom(table)
    .select(['crm_person_id', 'crm_org_id', 'crm_deal_id', 'crm_note_id'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) return null;
  const num = (v: number | null) => (v === null ? null : Number(v));
  return {
    personId: num(row.crm_person_id),
    orgId: num(row.crm_org_id),
    dealId: num(row.crm_deal_id),
    noteId: num(row.crm_note_id),
  };
}

/** Stores the ids known so far, as each CRM object is created, so a retry never creates it twice. */
export async function writeCrmIds(db: DbOrTx, table: CrmRecordTable, id: string, ids: Partial<CrmIds>) {
  const set: Partial<Record<'crm_person_id' | 'crm_org_id' | 'crm_deal_id' | 'crm_note_id', number>> = {};
  if (ids.personId != null) set.crm_person_id = ids.personId;
  if (ids.orgId != null) set.crm_org_id = ids.orgId;
  if (ids.dealId != null) set.crm_deal_id = ids.dealId;
  if (ids.noteId != null) set.crm_note_id = ids.noteId;
  if (Object.keys(set).length === 0) return;
  await db
    .updateTable(table)
    .set({ ...set, updated_at: Date.now() })
    .where('id', '=', id)
    .execute();
}
