import type { Config } from '../../config.ts';
import type { DbOrTx } from '../../db/database.ts';
import { inChunks, LINKED, type PersonalDataPart } from '../../db/personal-data.ts';
import { emailBucketOf } from './quota.ts';

const num = (v: number | null) => (v === null ? null : Number(v));
const iso = (ms: number) => new Date(Number(ms)).toISOString();

async function leadRows(db: DbOrTx, ids: string[]) {
  const rows = [];
  for (const chunk of inChunks(ids)) {
    rows.push(...(await db.selectFrom('leads').selectAll().where('id', 'in', chunk).execute()));
  }
  return rows;
}

/**
 * What leads hold about a person: the leads with their answers, classification and CRM ids (found
 * by the address, which is stored normalised), the prototype quota's holds of those leads and the
 * counters of the address's bucket (a salted hash of it). Each lead links its chat session.
 */
export function leadPersonalData(config: Config): PersonalDataPart {
  const days = config.privacy.retentionDays;
  return {
    name: 'leads',
    async find(db, scope) {
      if (scope.email) {
        const rows = await db.selectFrom('leads').select('id').where('email', '=', scope.email).execute();
        scope.add(
          LINKED.lead,
          rows.map((r) => r.id),
          { keysOthers: true },
        );
      }
      for (const chunk of inChunks(scope.ids(LINKED.lead))) {
        const rows = await db
          .selectFrom('leads')
          .select('chat_session_id')
          .where('id', 'in', chunk)
          .where('chat_session_id', 'is not', null)
          .execute();
        scope.add(
          LINKED.chatSession,
          rows.map((r) => r.chat_session_id as string),
        );
      }
    },

    async export(db, scope) {
      const ids = scope.ids(LINKED.lead);
      const leads = (await leadRows(db, ids)).map((row) => ({
        id: row.id,
        status: row.status,
        classification: row.classification,
        classificationReason: row.classification_reason,
        classifiedBy: row.classified_by,
        name: row.name,
        email: row.email,
        phone: row.phone,
        company: row.company,
        position: row.position,
        answers: JSON.parse(row.steps) as unknown,
        language: row.language,
        sourceUrl: row.source_url,
        prototypeKind: row.prototype_kind,
        chatSessionId: row.chat_session_id,
        crm: {
          personId: num(row.crm_person_id),
          orgId: num(row.crm_org_id),
          dealId: num(row.crm_deal_id),
          noteId: num(row.crm_note_id),
          outcome: row.pipedrive ? (JSON.parse(row.pipedrive) as unknown) : null,
        },
        createdAt: iso(row.created_at),
        updatedAt: iso(row.updated_at),
      }));
      const quota = [];
      if (scope.email) {
        const bucket = await emailBucketOf(db, scope.email);
        const counters = await db
          .selectFrom('prototype_quota_counters')
          .select(['month', 'kind', 'used'])
          .where('bucket', '=', bucket)
          .orderBy('month')
          .execute();
        quota.push(...counters.map((c) => ({ month: c.month, kind: c.kind, used: Number(c.used) })));
      }
      return { leads, prototypeQuota: quota };
    },

    async erase(tx, scope) {
      const ids = scope.ids(LINKED.lead);
      let leads = 0;
      let quotaHolds = 0;
      let quotaCounters = 0;
      for (const chunk of inChunks(ids)) {
        const holds = await tx
          .deleteFrom('prototype_quota_holds')
          .where('lead_id', 'in', chunk)
          .executeTakeFirst();
        quotaHolds += Number(holds.numDeletedRows);
        const deleted = await tx.deleteFrom('leads').where('id', 'in', chunk).executeTakeFirst();
        leads += Number(deleted.numDeletedRows);
      }
      if (scope.email) {
        // The address's bucket: its counters of every month, and any hold under it.
        const bucket = await emailBucketOf(tx, scope.email);
        const holds = await tx
          .deleteFrom('prototype_quota_holds')
          .where('bucket', '=', bucket)
          .executeTakeFirst();
        quotaHolds += Number(holds.numDeletedRows);
        const counters = await tx
          .deleteFrom('prototype_quota_counters')
          .where('bucket', '=', bucket)
          .executeTakeFirst();
        quotaCounters += Number(counters.numDeletedRows);
      }
      return { leads, quotaHolds, quotaCounters };
    },

    async crmIds(db, scope) {
      return (await leadRows(db, scope.ids(LINKED.lead))).map((row) => ({
        personId: num(row.crm_person_id),
        dealId: num(row.crm_deal_id),
        noteId: num(row.crm_note_id),
      }));
    },

    retention: [
      {
        kind: 'spam and vendor leads',
        variable: 'RETENTION_SPAM_DAYS',
        days: days.spam,
        async expired(db, before, scope, limit) {
          const rows = await db
            .selectFrom('leads')
            .select('id')
            .where('status', 'in', ['spam', 'vendor'])
            .where('created_at', '<', before)
            .limit(limit)
            .execute();
          scope.add(
            LINKED.lead,
            rows.map((r) => r.id),
            { keysOthers: true },
          );
        },
      },
      {
        kind: 'leads, with their prototypes',
        variable: 'RETENTION_LEADS_DAYS',
        days: days.leads,
        async expired(db, before, scope, limit) {
          const rows = await db
            .selectFrom('leads')
            .select('id')
            .where('created_at', '<', before)
            .orderBy('created_at')
            .limit(limit)
            .execute();
          scope.add(
            LINKED.lead,
            rows.map((r) => r.id),
            { keysOthers: true },
          );
        },
      },
    ],
  };
}
