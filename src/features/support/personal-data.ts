import { sql } from 'kysely';
import type { Config } from '../../config.ts';
import { deleteBlobs } from '../../db/blob-store.ts';
import type { DbOrTx } from '../../db/database.ts';
import { inChunks, type PersonalDataPart, type PersonalDataScope } from '../../db/personal-data.ts';
import type { SupportMessageStatus } from './store.ts';
import { ticketFilePath } from './ticket-files.ts';

const MESSAGE = 'support_message';
const TICKET = 'support_ticket';

const num = (v: number | null) => (v === null ? null : Number(v));
const iso = (ms: number) => new Date(Number(ms)).toISOString();
const byAddress = (email: string) => [sql<string>`lower(trim(email))`, '=', email] as const;

/**
 * Support's records of a person, found by their address: contact-us messages (with their CRM ids)
 * and tickets with their files. A ticket's files are blobs in the database, deleted with it in the
 * erasure's transaction.
 */
async function expiredMessages(
  db: DbOrTx,
  before: number,
  scope: PersonalDataScope,
  limit: number,
  statuses: SupportMessageStatus[],
) {
  const rows = await db
    .selectFrom('support_messages')
    .select('id')
    .where('status', 'in', statuses)
    .where('created_at', '<', before)
    .limit(limit)
    .execute();
  scope.add(
    MESSAGE,
    rows.map((r) => r.id),
    { keysOthers: true },
  );
}

export function supportPersonalData(config: Config): PersonalDataPart {
  const days = config.privacy.retentionDays;
  return {
    name: 'support',
    async find(db, scope) {
      if (!scope.email) return;
      const messages = await db
        .selectFrom('support_messages')
        .select('id')
        .where(...byAddress(scope.email))
        .execute();
      scope.add(
        MESSAGE,
        messages.map((r) => r.id),
        { keysOthers: true },
      );
      const tickets = await db
        .selectFrom('support_tickets')
        .select('id')
        .where(...byAddress(scope.email))
        .execute();
      scope.add(
        TICKET,
        tickets.map((r) => r.id),
        { keysOthers: true },
      );
    },

    async export(db, scope) {
      const supportMessages = [];
      for (const chunk of inChunks(scope.ids(MESSAGE))) {
        const rows = await db.selectFrom('support_messages').selectAll().where('id', 'in', chunk).execute();
        supportMessages.push(
          ...rows.map((r) => ({
            id: r.id,
            status: r.status,
            classification: r.classification,
            name: r.name,
            email: r.email,
            company: r.company,
            subject: r.subject,
            message: r.message,
            crm: {
              personId: num(r.crm_person_id),
              orgId: num(r.crm_org_id),
              dealId: num(r.crm_deal_id),
              noteId: num(r.crm_note_id),
              outcome: r.pipedrive ? (JSON.parse(r.pipedrive) as unknown) : null,
            },
            createdAt: iso(r.created_at),
          })),
        );
      }
      const tickets = [];
      for (const chunk of inChunks(scope.ids(TICKET))) {
        const rows = await db.selectFrom('support_tickets').selectAll().where('id', 'in', chunk).execute();
        const files = await db
          .selectFrom('support_attachments')
          .select([
            'ticket_id',
            'position',
            'filename',
            'original_filename',
            'content_type',
            'size',
            'sha256',
          ])
          .where('ticket_id', 'in', chunk)
          .orderBy('position')
          .execute();
        tickets.push(
          ...rows.map((t) => ({
            id: t.id,
            fullName: t.full_name,
            email: t.email,
            issueType: t.issue_type,
            companyName: t.company_name,
            urgency: t.urgency,
            productUrl: t.product_url,
            description: t.description,
            createdAt: iso(t.created_at),
            files: files
              .filter((f) => f.ticket_id === t.id)
              .map((f) => ({
                position: Number(f.position),
                filename: f.filename,
                originalFilename: f.original_filename,
                contentType: f.content_type,
                size: Number(f.size),
                sha256: f.sha256,
                download: ticketFilePath(t.id, Number(f.position)),
              })),
          })),
        );
      }
      return { supportMessages, tickets };
    },

    async erase(tx, scope) {
      let supportMessages = 0;
      let tickets = 0;
      let ticketFiles = 0;
      for (const chunk of inChunks(scope.ids(MESSAGE))) {
        const deleted = await tx.deleteFrom('support_messages').where('id', 'in', chunk).executeTakeFirst();
        supportMessages += Number(deleted.numDeletedRows);
      }
      for (const chunk of inChunks(scope.ids(TICKET))) {
        const files = await tx
          .deleteFrom('support_attachments')
          .where('ticket_id', 'in', chunk)
          .returning('blob_id')
          .execute();
        ticketFiles += await deleteBlobs(
          tx,
          files.map((f) => f.blob_id),
        );
        const deleted = await tx.deleteFrom('support_tickets').where('id', 'in', chunk).executeTakeFirst();
        tickets += Number(deleted.numDeletedRows);
      }
      return { supportMessages, tickets, ticketFiles };
    },

    async crmIds(db, scope) {
      const ids = [];
      for (const chunk of inChunks(scope.ids(MESSAGE))) {
        const rows = await db
          .selectFrom('support_messages')
          .select(['crm_person_id', 'crm_deal_id', 'crm_note_id'])
          .where('id', 'in', chunk)
          .execute();
        ids.push(
          ...rows.map((r) => ({
            personId: num(r.crm_person_id),
            dealId: num(r.crm_deal_id),
            noteId: num(r.crm_note_id),
          })),
        );
      }
      return ids;
    },

    retention: [
      {
        kind: 'spam and vendor support messages',
        variable: 'RETENTION_SPAM_DAYS',
        days: days.spam,
        expired: (db, before, scope, limit) => expiredMessages(db, before, scope, limit, ['spam', 'vendor']),
      },
      {
        kind: 'support messages',
        variable: 'RETENTION_MESSAGES_DAYS',
        days: days.messages,
        expired: (db, before, scope, limit) => expiredMessages(db, before, scope, limit, ['new']),
      },
      {
        kind: 'support tickets and their files',
        variable: 'RETENTION_TICKETS_DAYS',
        days: days.tickets,
        async expired(db, before, scope, limit) {
          const rows = await db
            .selectFrom('support_tickets')
            .select('id')
            .where('created_at', '<', before)
            .limit(limit)
            .execute();
          scope.add(
            TICKET,
            rows.map((r) => r.id),
            { keysOthers: true },
          );
        },
      },
    ],

    blobReferences: [{ table: 'support_attachments', column: 'blob_id' }],
  };
}
