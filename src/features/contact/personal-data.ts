import { sql } from 'kysely';
import type { Config } from '../../config.ts';
import { inChunks, type PersonalDataPart } from '../../db/personal-data.ts';
import { contactView } from './store.ts';

const CONTACT = 'contact_submission';

/** Contact-form messages, found by their address (stored as typed: compared trimmed and lower-cased). */
export function contactPersonalData(config: Config): PersonalDataPart {
  return {
    name: 'contact',
    async find(db, scope) {
      if (!scope.email) return;
      const rows = await db
        .selectFrom('contact_submissions')
        .select('id')
        .where(sql<string>`lower(trim(email))`, '=', scope.email)
        .execute();
      scope.add(
        CONTACT,
        rows.map((r) => r.id),
        { keysOthers: true },
      );
    },

    async export(db, scope) {
      const contactMessages = [];
      for (const chunk of inChunks(scope.ids(CONTACT))) {
        const rows = await db
          .selectFrom('contact_submissions')
          .selectAll()
          .where('id', 'in', chunk)
          .orderBy('created_at')
          .execute();
        contactMessages.push(...rows.map(contactView));
      }
      return { contactMessages };
    },

    async erase(tx, scope) {
      let contactMessages = 0;
      for (const chunk of inChunks(scope.ids(CONTACT))) {
        const deleted = await tx
          .deleteFrom('contact_submissions')
          .where('id', 'in', chunk)
          .executeTakeFirst();
        contactMessages += Number(deleted.numDeletedRows);
      }
      return { contactMessages };
    },

    retention: [
      {
        kind: 'spam and vendor contact-form messages',
        variable: 'RETENTION_SPAM_DAYS',
        days: config.privacy.retentionDays.spam,
        async expired(db, before, scope, limit) {
          const rows = await db
            .selectFrom('contact_submissions')
            .select('id')
            .where('status', 'in', ['spam', 'vendor'])
            .where('created_at', '<', before)
            .limit(limit)
            .execute();
          scope.add(
            CONTACT,
            rows.map((r) => r.id),
            { keysOthers: true },
          );
        },
      },
      {
        kind: 'contact-form messages',
        variable: 'RETENTION_MESSAGES_DAYS',
        days: config.privacy.retentionDays.messages,
        async expired(db, before, scope, limit) {
          const rows = await db
            .selectFrom('contact_submissions')
            .select('id')
            .where('created_at', '<', before)
            .limit(limit)
            .execute();
          scope.add(
            CONTACT,
            rows.map((r) => r.id),
            { keysOthers: true },
          );
        },
      },
    ],
  };
}
