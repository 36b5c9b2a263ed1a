import { type SelectQueryBuilder, sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import type { LeadClassification, LeadStatus, PipedriveOutcome, PrototypeKind } from '../leads/port.ts';
import type { LeadSort } from './limits.ts';

/**
 * The admin's read-only queries over the leads table (the leads feature owns the table and its
 * writes; this module only reads it, so the leads feature's public API stays as it is).
 */

export interface LeadFilter {
  statuses?: LeadStatus[];
  classifications?: LeadClassification[];
  /** Inclusive lower bound, epoch ms. */
  from?: number;
  /** Exclusive upper bound, epoch ms. */
  to?: number;
  /** Free text over name, e-mail and company (case-insensitive substring), or an exact lead id. */
  q?: string;
}

export interface LeadQuery extends LeadFilter {
  sort: LeadSort;
  order: 'asc' | 'desc';
  page: number;
  limit: number;
}

export interface AdminLeadRow {
  id: string;
  status: LeadStatus;
  classification: LeadClassification;
  classifiedBy: 'llm' | 'builtin';
  name: string;
  email: string;
  company: string | null;
  prototypeKind: PrototypeKind | null;
  pipedrive: PipedriveOutcome | null;
  createdAt: number;
  updatedAt: number;
}

const SORT_COLUMNS = {
  createdAt: 'created_at',
  updatedAt: 'updated_at',
  name: 'name',
  email: 'email',
  company: 'company',
  status: 'status',
  classification: 'classification',
} as const satisfies Record<LeadSort, keyof Database['leads']>;

/** `%`, `_` and the escape character itself match literally in the search. */
export function likePattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}

function applyFilter<O>(
  query: SelectQueryBuilder<Database, 'leads', O>,
  filter: LeadFilter,
): SelectQueryBuilder<Database, 'leads', O> {
  let q = query;
  if (filter.statuses?.length) q = q.where('status', 'in', filter.statuses);
  if (filter.classifications?.length) q = q.where('classification', 'in', filter.classifications);
  if (filter.from !== undefined) q = q.where('created_at', '>=', filter.from);
  if (filter.to !== undefined) q = q.where('created_at', '<', filter.to);
  const text = filter.q?.trim();
  if (text) {
    const pattern = likePattern(text);
    // lower() on both sides: PostgreSQL's LIKE is case-sensitive, SQLite's folds ASCII only; lower()
    // folds every letter on both (src/db/node-sqlite-dialect.ts gives SQLite a Unicode one).
    q = q.where((eb) =>
      eb.or([
        eb(sql`lower(name)`, 'like', sql`${pattern} escape '\\'`),
        eb(sql`lower(email)`, 'like', sql`${pattern} escape '\\'`),
        eb(sql`lower(coalesce(company, ''))`, 'like', sql`${pattern} escape '\\'`),
        eb('id', '=', text),
      ]),
    );
  }
  return q;
}

export async function queryLeads(
  db: Db,
  query: LeadQuery,
): Promise<{ leads: AdminLeadRow[]; total: number }> {
  const totalRow = await applyFilter(db.selectFrom('leads'), query)
    .select(sql<number>`count(*)`.as('total'))
    .executeTakeFirstOrThrow();
  const column = SORT_COLUMNS[query.sort];
  const textual = column === 'name' || column === 'email' || column === 'company';
  const rows = await applyFilter(db.selectFrom('leads'), query)
    .select([
      'id',
      'status',
      'classification',
      'classified_by',
      'name',
      'email',
      'company',
      'prototype_kind',
      'pipedrive',
      'created_at',
      'updated_at',
    ])
    .orderBy(textual ? sql`lower(coalesce(${sql.ref(column)}, ''))` : sql.ref(column), query.order)
    .orderBy('id', query.order)
    .limit(query.limit)
    .offset((query.page - 1) * query.limit)
    .execute();
  return {
    total: Number(totalRow.total),
    leads: rows.map((r) => ({
      id: r.id,
      status: r.status,
      classification: r.classification,
      classifiedBy: r.classified_by,
      name: r.name,
      email: r.email,
      company: r.company,
      prototypeKind: r.prototype_kind,
      pipedrive: r.pipedrive ? (JSON.parse(r.pipedrive) as PipedriveOutcome) : null,
      createdAt: Number(r.created_at),
      updatedAt: Number(r.updated_at),
    })),
  };
}

/** Counts per status and per classification (the badges above the table), over the same filter. */
export async function leadCounts(
  db: Db,
): Promise<{ total: number; byStatus: Record<string, number>; byClassification: Record<string, number> }> {
  const rows = await db
    .selectFrom('leads')
    .select(['status', 'classification', sql<number>`count(*)`.as('count')])
    .groupBy(['status', 'classification'])
    .execute();
  const byStatus: Record<string, number> = {};
  const byClassification: Record<string, number> = {};
  let total = 0;
  for (const row of rows) {
    const n = Number(row.count);
    total += n;
    byStatus[row.status] = (byStatus[row.status] ?? 0) + n;
    byClassification[row.classification] = (byClassification[row.classification] ?? 0) + n;
  }
  return { total, byStatus, byClassification };
}

/** What the lead record keeps beyond `Lead`: whether it came through the trusted chat path, and CRM ids. */
export async function leadExtras(
  db: Db,
  id: string,
): Promise<{
  trusted: boolean;
  crm: { personId: number | null; orgId: number | null; dealId: number | null };
} | null> {
  const row = await db
    .selectFrom('leads')
    .select(['trusted', 'crm_person_id', 'crm_org_id', 'crm_deal_id'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) return null;
  const num = (v: number | null) => (v === null ? null : Number(v));
  return {
    trusted: Number(row.trusted) === 1,
    crm: { personId: num(row.crm_person_id), orgId: num(row.crm_org_id), dealId: num(row.crm_deal_id) },
  };
}
