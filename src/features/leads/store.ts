import { sql } from 'kysely';
import type { DbOrTx } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { bigint, integer, type RowOf, real, table, text } from '../../db/table-spec.ts';
import { readCrmIds, writeCrmIds } from '../../integrations/crm/record-ids.ts';
import type { CrmOutcome } from '../../integrations/crm/sync.ts';
import type { PrototypeKind } from '../../wizard.ts';

/** The `leads` table (migration 0003). */
export const leadsTable = table({
  id: text(),
  status: text<LeadStatus>(),
  classification: text<LeadClassification>(),
  classification_reason: text(),
  classified_by: text<'llm' | 'builtin'>(),
  /** The built-in classifier's probability of its class (migration 0011); null when the model decided. */
  classification_score: real().orNull(),
  /** JSON array of what decided, in words (migration 0011); null for leads stored before. */
  classification_reasons: text().orNull(),
  name: text(),
  /** Trimmed and lower-cased: the `leadByEmail:` index of the spec. */
  email: text(),
  phone: text().orNull(),
  company: text().orNull(),
  position: text().orNull(),
  steps: text(),
  language: text<'en' | 'es'>(),
  source_url: text().orNull(),
  prototype_kind: text<PrototypeKind>().orNull(),
  client_ip_hash: text().orNull(),
  trusted: integer(),
  pipedrive: text().orNull(),
  crm_person_id: bigint().orNull(),
  crm_org_id: bigint().orNull(),
  crm_deal_id: bigint().orNull(),
  crm_note_id: bigint().orNull(),
  submission_key: text().orNull(),
  /** The chat session the sales agent submitted the lead from (`X-Chat-Session-Id`), migration 0014. */
  chat_session_id: text().orNull(),
  created_at: bigint(),
  updated_at: bigint(),
});

declare module '../../db/schema.ts' {
  interface Database {
    leads: RowOf<typeof leadsTable>;
  }
}

export type LeadStatus = 'new' | 'spam' | 'vendor' | 'generating' | 'completed' | 'failed';
export type LeadClassification = 'lead' | 'spam' | 'vendor';
export type { PrototypeKind };

/** The wizard answers as submitted (validated against the wizard's values unless the request is trusted). */
export interface LeadSteps {
  initial_choice?: string;
  service?: string;
  prototype?: string;
  goal?: string;
  industry?: string;
  features?: string[];
  style?: string;
  audience?: string;
}

/** The CRM outcome shown as `pipedrive` (`leadId` is the Pipedrive deal id). */
export type PipedriveOutcome = CrmOutcome;

export interface Lead {
  id: string;
  status: LeadStatus;
  classification: LeadClassification;
  classificationReason: string;
  classifiedBy: 'llm' | 'builtin';
  /** The classifier's score and reasons, as it decided at submission (an admin's correction keeps them). */
  classificationScore: number | null;
  classificationReasons: string[];
  name: string;
  email: string;
  phone: string | null;
  company: string | null;
  position: string | null;
  steps: LeadSteps;
  language: 'en' | 'es';
  sourceUrl: string | null;
  prototypeKind: PrototypeKind | null;
  clientIpHash: string | null;
  pipedrive: PipedriveOutcome | null;
  chatSessionId: string | null;
  createdAt: number;
  updatedAt: number;
}

/** The CRM ids kept on the lead so retries never create a second deal or note. */
export interface LeadCrmIds {
  personId: number | null;
  orgId: number | null;
  dealId: number | null;
  noteId: number | null;
}

type LeadRow = Database['leads'];

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

function toLead(row: LeadRow): Lead {
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
    phone: row.phone,
    company: row.company,
    position: row.position,
    steps: JSON.parse(row.steps) as LeadSteps,
    language: row.language,
    sourceUrl: row.source_url,
    prototypeKind: row.prototype_kind,
    clientIpHash: row.client_ip_hash,
    pipedrive: row.pipedrive ? (JSON.parse(row.pipedrive) as PipedriveOutcome) : null,
    chatSessionId: row.chat_session_id,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

export interface NewLead extends Omit<Lead, 'pipedrive' | 'updatedAt' | 'chatSessionId'> {
  trusted: boolean;
  submissionKey: string | null;
  chatSessionId?: string | null;
}

/**
 * Inserts a lead; returns false (and writes nothing) when another lead already holds its submission
 * key, i.e. the same submission was stored a moment ago.
 */
export async function insertLead(db: DbOrTx, lead: NewLead): Promise<boolean> {
  const inserted = await db
    .insertInto('leads')
    .values({
      id: lead.id,
      status: lead.status,
      classification: lead.classification,
      classification_reason: lead.classificationReason,
      classified_by: lead.classifiedBy,
      classification_score: lead.classificationScore,
      classification_reasons: JSON.stringify(lead.classificationReasons),
      name: lead.name,
      email: normalizeEmail(lead.email),
      phone: lead.phone,
      company: lead.company,
      position: lead.position,
      steps: JSON.stringify(lead.steps),
      language: lead.language,
      source_url: lead.sourceUrl,
      prototype_kind: lead.prototypeKind,
      client_ip_hash: lead.clientIpHash,
      trusted: lead.trusted ? 1 : 0,
      pipedrive: null,
      crm_person_id: null,
      crm_org_id: null,
      crm_deal_id: null,
      crm_note_id: null,
      submission_key: lead.submissionKey,
      chat_session_id: lead.chatSessionId ?? null,
      created_at: lead.createdAt,
      updated_at: lead.createdAt,
    })
    .onConflict((oc) => oc.column('submission_key').doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

export async function getLead(db: DbOrTx, id: string): Promise<Lead | null> {
  const row = await db.selectFrom('leads').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toLead(row) : null;
}

export async function getLeadBySubmissionKey(db: DbOrTx, key: string): Promise<Lead | null> {
  const row = await db.selectFrom('leads').selectAll().where('submission_key', '=', key).executeTakeFirst();
  return row ? toLead(row) : null;
}

/** Frees submission keys older than `before`, so a later identical submission creates a new lead. */
export async function expireSubmissionKey(db: DbOrTx, key: string, before: number): Promise<void> {
  await db
    .updateTable('leads')
    .set({ submission_key: null })
    .where('submission_key', '=', key)
    .where('created_at', '<', before)
    .execute();
}

/** A prototype's progress on the lead (`generating`, `completed`, `failed`). */
export type PrototypeStatus = Extract<LeadStatus, 'generating' | 'completed' | 'failed'>;

/**
 * Moves the lead's prototype status. A lead marked spam or vendor keeps that status: a generation
 * that was running when an admin corrected the lead finishes without turning it back into a lead.
 */
export async function setLeadStatus(db: DbOrTx, id: string, status: PrototypeStatus): Promise<void> {
  await db
    .updateTable('leads')
    .set({ status, updated_at: Date.now() })
    .where('id', '=', id)
    .where('status', 'not in', ['spam', 'vendor'])
    .execute();
}

export async function setPipedriveOutcome(db: DbOrTx, id: string, outcome: PipedriveOutcome): Promise<void> {
  await db
    .updateTable('leads')
    .set({ pipedrive: JSON.stringify(outcome), updated_at: Date.now() })
    .where('id', '=', id)
    .execute();
}

export const getCrmIds = (db: DbOrTx, id: string): Promise<LeadCrmIds | null> => readCrmIds(db, 'leads', id);

export const saveCrmIds = (db: DbOrTx, id: string, ids: Partial<LeadCrmIds>) =>
  writeCrmIds(db, 'leads', id, ids);

/** The newest lead with this e-mail (trimmed, case-insensitive), through the e-mail index. */
export async function findLeadByEmail(db: DbOrTx, email: string): Promise<Lead | null> {
  const row = await db
    .selectFrom('leads')
    .selectAll()
    .where('email', '=', normalizeEmail(email))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? toLead(row) : null;
}

export interface LeadPage {
  leads: Lead[];
  total: number;
  page: number;
  limit: number;
}

/** Newest first; `all` returns every lead in one page. */
export async function listLeads(
  db: DbOrTx,
  options: { page: number; limit: number; all?: boolean },
): Promise<LeadPage> {
  const totalRow = await db
    .selectFrom('leads')
    .select(sql<number>`count(*)`.as('total'))
    .executeTakeFirstOrThrow();
  const total = Number(totalRow.total);
  let query = db.selectFrom('leads').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc');
  if (!options.all) query = query.limit(options.limit).offset((options.page - 1) * options.limit);
  const rows = await query.execute();
  return {
    leads: rows.map(toLead),
    total,
    page: options.all ? 1 : options.page,
    limit: options.all ? total : options.limit,
  };
}
