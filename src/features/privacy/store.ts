import { sql } from 'kysely';
import type { DbOrTx } from '../../db/database.ts';
import type { ErasedCounts } from '../../db/personal-data.ts';
import { bigint, type RowOf, table, text } from '../../db/table-spec.ts';

/** The `privacy_audit` table (migration 0014): one row per erasure request or retention batch. */
export const privacyAuditTable = table({
  id: text(),
  reason: text<AuditReason>(),
  /** HMAC of the address (audit-hash.ts); null for a retention batch, which concerns no one address. */
  email_hash: text().orNull(),
  /** The retention rule's kind, for a retention batch. */
  kind: text().orNull(),
  /** JSON: what was deleted, by kind. */
  counts: text(),
  crm_status: text<CrmErasureStatus>().orNull(),
  /** JSON: the CRM's counts once erased, or the last error. */
  crm_detail: text().orNull(),
  created_at: bigint(),
  updated_at: bigint(),
});

/** The `privacy_crm_erasures` table (migration 0014): a CRM erasure until the CRM confirmed it. */
export const privacyCrmErasuresTable = table({
  /** The audit entry's id. */
  id: text(),
  /** The address, needed to search the CRM; set to null once the CRM confirmed the erasure. */
  email: text().orNull(),
  /** JSON `{personIds, dealIds, noteIds}`: the CRM objects our records kept the ids of. */
  known: text(),
  status: text<'pending' | 'done' | 'failed'>(),
  last_error: text().orNull(),
  /** JSON: what the CRM deleted. */
  result: text().orNull(),
  created_at: bigint(),
  updated_at: bigint(),
});

declare module '../../db/schema.ts' {
  interface Database {
    privacy_audit: RowOf<typeof privacyAuditTable>;
    privacy_crm_erasures: RowOf<typeof privacyCrmErasuresTable>;
  }
}

export type AuditReason = 'request' | 'retention';
/**
 * `not_requested` is never stored (no CRM status); `not_configured`: asked, but PIPEDRIVE_API_TOKEN is
 * unset; `pending`: queued, first attempt not finished; `retrying`: an attempt failed, the queue
 * retries; `erased`; `failed`: the queue gave up (retry the dead job from the Queues view).
 */
export type CrmErasureStatus = 'not_configured' | 'pending' | 'retrying' | 'erased' | 'failed';

export interface KnownCrmObjects {
  personIds: number[];
  dealIds: number[];
  noteIds: number[];
}

export interface AuditEntry {
  id: string;
  reason: AuditReason;
  emailHash: string | null;
  kind: string | null;
  counts: ErasedCounts;
  crm: { status: CrmErasureStatus; detail: unknown } | null;
  createdAt: number;
}

export async function insertAudit(
  db: DbOrTx,
  entry: Omit<AuditEntry, 'crm'> & { crmStatus: CrmErasureStatus | null },
): Promise<void> {
  await db
    .insertInto('privacy_audit')
    .values({
      id: entry.id,
      reason: entry.reason,
      email_hash: entry.emailHash,
      kind: entry.kind,
      counts: JSON.stringify(entry.counts),
      crm_status: entry.crmStatus,
      crm_detail: null,
      created_at: entry.createdAt,
      updated_at: entry.createdAt,
    })
    .execute();
}

export async function setAuditCrm(
  db: DbOrTx,
  id: string,
  status: CrmErasureStatus,
  detail: unknown,
): Promise<void> {
  await db
    .updateTable('privacy_audit')
    .set({ crm_status: status, crm_detail: JSON.stringify(detail), updated_at: Date.now() })
    .where('id', '=', id)
    .execute();
}

/** Newest first; `emailHash` narrows it to one address's requests. */
export async function listAudit(
  db: DbOrTx,
  options: { page: number; limit: number; emailHash?: string },
): Promise<{ entries: AuditEntry[]; total: number }> {
  let rows = db.selectFrom('privacy_audit').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc');
  let count = db.selectFrom('privacy_audit').select(sql<number>`count(*)`.as('total'));
  if (options.emailHash) {
    rows = rows.where('email_hash', '=', options.emailHash);
    count = count.where('email_hash', '=', options.emailHash);
  }
  const [list, { total }] = await Promise.all([
    rows
      .limit(options.limit)
      .offset((options.page - 1) * options.limit)
      .execute(),
    count.executeTakeFirstOrThrow(),
  ]);
  return {
    total: Number(total),
    entries: list.map((r) => ({
      id: r.id,
      reason: r.reason,
      emailHash: r.email_hash,
      kind: r.kind,
      counts: JSON.parse(r.counts) as ErasedCounts,
      crm: r.crm_status
        ? { status: r.crm_status, detail: r.crm_detail ? (JSON.parse(r.crm_detail) as unknown) : null }
        : null,
      createdAt: Number(r.created_at),
    })),
  };
}

export async function insertCrmErasure(
  db: DbOrTx,
  erasure: { id: string; email: string; known: KnownCrmObjects; createdAt: number },
): Promise<void> {
  await db
    .insertInto('privacy_crm_erasures')
    .values({
      id: erasure.id,
      email: erasure.email,
      known: JSON.stringify(erasure.known),
      status: 'pending',
      last_error: null,
      result: null,
      created_at: erasure.createdAt,
      updated_at: erasure.createdAt,
    })
    .execute();
}

export async function getCrmErasure(db: DbOrTx, id: string) {
  const row = await db.selectFrom('privacy_crm_erasures').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) return null;
  return {
    id: row.id,
    email: row.email,
    known: JSON.parse(row.known) as KnownCrmObjects,
    status: row.status,
    /** What the CRM erasure's earlier runs deleted (the in-request one's), if any. */
    result: row.result === null ? null : (JSON.parse(row.result) as Record<string, number>),
  };
}

/** The in-request run deleted these; the address stays for the queue's final sweep. */
export async function recordCrmErasureRun(db: DbOrTx, id: string, result: unknown): Promise<void> {
  await db
    .updateTable('privacy_crm_erasures')
    .set({ result: JSON.stringify(result), last_error: null, updated_at: Date.now() })
    .where('id', '=', id)
    .execute();
}

/** The CRM confirmed: the address goes, the counts stay. */
export async function finishCrmErasure(db: DbOrTx, id: string, result: unknown): Promise<void> {
  await db
    .updateTable('privacy_crm_erasures')
    .set({
      status: 'done',
      email: null,
      result: JSON.stringify(result),
      last_error: null,
      updated_at: Date.now(),
    })
    .where('id', '=', id)
    .execute();
}

export async function failCrmErasure(
  db: DbOrTx,
  id: string,
  error: string,
  status: 'pending' | 'failed',
): Promise<void> {
  await db
    .updateTable('privacy_crm_erasures')
    .set({ status, last_error: error.slice(0, 500), updated_at: Date.now() })
    .where('id', '=', id)
    .execute();
}

/** How many CRM erasures are not finished (their address is still kept), by state. */
export async function crmErasureCounts(db: DbOrTx): Promise<{ pending: number; failed: number }> {
  const rows = await db
    .selectFrom('privacy_crm_erasures')
    .select(['status', sql<number>`count(*)`.as('n')])
    .where('status', 'in', ['pending', 'failed'])
    .groupBy('status')
    .execute();
  const of = (status: string) => Number(rows.find((r) => r.status === status)?.n ?? 0);
  return { pending: of('pending'), failed: of('failed') };
}
