import { sql } from 'kysely';
import type { DbOrTx } from '../../db/database.ts';
import { inChunks, LINKED, type PersonalDataPart, type PersonalDataScope } from '../../db/personal-data.ts';
import { containsPattern, mentionsAddress } from '../../text/address-mention.ts';
import { EMAIL_QUEUE } from './queue.ts';

/** Patterns per query when e-mails are looked up by the records they are keyed by (`<id>:kind`). */
const KEYS_PER_QUERY = 50;

async function mailKeyedBy(db: DbOrTx, scope: PersonalDataScope): Promise<string[]> {
  const found: string[] = [];
  for (const chunk of inChunks(scope.keyingIds(), KEYS_PER_QUERY)) {
    const rows = await db
      .selectFrom('mail_outbox')
      .select('id')
      .where((eb) =>
        eb.or(
          chunk.map((id) =>
            eb(
              sql<string>`idempotency_key`,
              'like',
              sql<string>`${`${id.replace(/[\\%_]/g, (c) => `\\${c}`)}:%`} escape '\\'`,
            ),
          ),
        ),
      )
      .execute();
    found.push(...rows.map((r) => r.id));
  }
  return found;
}

/**
 * The mail outbox (every e-mail the service sent or stored): the messages to the address or answering
 * to it (a recipient or Reply-To header naming it, as a whole address), and those keyed by a record of
 * the person (`<leadId>:notification`, the support team's copy). A message that only names the
 * address in its text is someone else's (their contact message asking to copy a colleague): it is
 * neither exported to nor erased for the one named. With the e-mail queue's dead jobs, which
 * carry the message too, its copies expire after RETENTION_MAIL_DAYS once final.
 */
export function outboxPersonalData(retentionDays: number): PersonalDataPart {
  return {
    name: 'mail',
    async find(db, scope) {
      if (scope.email) {
        const email = scope.email;
        const rows = await db
          .selectFrom('mail_outbox')
          .select(['id', 'to_addresses', 'cc_addresses', 'bcc_addresses', 'reply_to'])
          .where(
            sql<boolean>`lower(to_addresses || cc_addresses || bcc_addresses || coalesce(reply_to, '')) like ${containsPattern(email)} escape '\\'`,
          )
          .execute();
        const mentioning = rows.filter((r) =>
          [r.to_addresses, r.cc_addresses, r.bcc_addresses, r.reply_to ?? ''].some((text) =>
            mentionsAddress(text, email),
          ),
        );
        scope.add(
          LINKED.mail,
          mentioning.map((r) => r.id),
        );
      }
      scope.add(LINKED.mail, await mailKeyedBy(db, scope));
    },

    async export(db, scope) {
      const emails = [];
      for (const chunk of inChunks(scope.ids(LINKED.mail))) {
        const rows = await db
          .selectFrom('mail_outbox')
          .selectAll()
          .where('id', 'in', chunk)
          .orderBy('created_at')
          .execute();
        emails.push(
          ...rows.map((r) => ({
            id: r.id,
            status: r.status,
            from: r.from_address,
            to: JSON.parse(r.to_addresses) as unknown,
            cc: JSON.parse(r.cc_addresses) as unknown,
            bcc: JSON.parse(r.bcc_addresses) as unknown,
            replyTo: r.reply_to,
            subject: r.subject,
            text: r.text_body,
            html: r.html_body,
            attachments: JSON.parse(r.attachments) as unknown,
            createdAt: new Date(Number(r.created_at)).toISOString(),
            sentAt: r.sent_at === null ? null : new Date(Number(r.sent_at)).toISOString(),
          })),
        );
      }
      return { emails };
    },

    async erase(tx, scope) {
      let emails = 0;
      for (const chunk of inChunks(scope.ids(LINKED.mail))) {
        const deleted = await tx.deleteFrom('mail_outbox').where('id', 'in', chunk).executeTakeFirst();
        emails += Number(deleted.numDeletedRows);
      }
      return { emails };
    },

    retention: [
      {
        kind: "the outbox's e-mails and dead e-mail jobs",
        variable: 'RETENTION_MAIL_DAYS',
        days: retentionDays,
        async expired(db, before, scope, limit) {
          const mails = await db
            .selectFrom('mail_outbox')
            .select('id')
            .where('status', 'in', ['sent', 'stored', 'failed'])
            .where('updated_at', '<', before)
            .limit(limit)
            .execute();
          scope.add(
            LINKED.mail,
            mails.map((r) => r.id),
          );
          const jobs = await db
            .selectFrom('jobs')
            .select('id')
            .where('queue', '=', EMAIL_QUEUE)
            .where('status', '=', 'dead')
            .where('updated_at', '<', before)
            .limit(limit)
            .execute();
          scope.add(
            LINKED.job,
            jobs.map((r) => r.id),
          );
        },
      },
    ],
  };
}
