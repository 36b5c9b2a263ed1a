import { sql } from 'kysely';
import type { DbOrTx } from '../db/database.ts';
import { inChunks, LINKED, type PersonalDataPart, type PersonalDataScope } from '../db/personal-data.ts';
import { containsPattern, mentionPatterns, mentionsAddress } from '../text/address-mention.ts';

const IDS_PER_QUERY = 50;
/** Record ids are UUIDs or long prefixed strings; a short one could be part of anything. */
const MIN_ID_LENGTH = 8;

async function jobsCarrying(db: DbOrTx, scope: PersonalDataScope): Promise<string[]> {
  const ids = scope.keyingIds().filter((id) => id.length >= MIN_ID_LENGTH);
  const found: string[] = [];
  for (const chunk of inChunks(ids, IDS_PER_QUERY)) {
    const rows = await db
      .selectFrom('jobs')
      .select('id')
      .where((eb) =>
        eb.or(
          chunk.flatMap((id) => {
            const pattern = containsPattern(id);
            return [
              eb(sql<string>`payload`, 'like', sql<string>`${pattern} escape '\\'`),
              eb(sql<string>`coalesce(idempotency_key, '')`, 'like', sql<string>`${pattern} escape '\\'`),
            ];
          }),
        ),
      )
      .execute();
    found.push(...rows.map((r) => r.id));
  }
  return found;
}

/**
 * Where a payload's address counts: an e-mail job (`{message: {to, cc, bcc, replyTo, …}}`) is the
 * recipients' and Reply-To's, not of an address its text mentions (someone else's message asking to
 * copy a colleague), as in the outbox; any other job is about whoever its payload names.
 */
function addressedText(payload: string): string {
  let message: unknown;
  try {
    message = (JSON.parse(payload) as { message?: unknown } | null)?.message;
  } catch {
    return payload;
  }
  if (typeof message !== 'object' || message === null || !('to' in message)) return payload;
  const { to, cc, bcc, replyTo } = message as Record<string, unknown>;
  return JSON.stringify([to, cc, bcc, replyTo]);
}

/**
 * The durable queue's jobs about a person, in any state: those whose payload names the address (an
 * e-mail job: as a recipient or Reply-To of the message it carries) or carries or is keyed by one of their records' ids (a lead's
 * CRM sync, its prototype generation). Erasing deletes them: a pending one is cancelled, a completed
 * or dead one's payload goes.
 */
export const jobPersonalData: PersonalDataPart = {
  name: 'jobs',
  async find(db, scope) {
    if (scope.email) {
      const email = scope.email;
      const rows = await db
        .selectFrom('jobs')
        .select(['id', 'payload'])
        .where((eb) =>
          eb.or(
            mentionPatterns(email).map((p) =>
              eb(sql<string>`lower(payload)`, 'like', sql<string>`${p} escape '\\'`),
            ),
          ),
        )
        .execute();
      scope.add(
        LINKED.job,
        rows.filter((r) => mentionsAddress(addressedText(r.payload), email)).map((r) => r.id),
      );
    }
    scope.add(LINKED.job, await jobsCarrying(db, scope));
  },

  async export(db, scope) {
    const jobs = [];
    for (const chunk of inChunks(scope.ids(LINKED.job))) {
      const rows = await db
        .selectFrom('jobs')
        .selectAll()
        .where('id', 'in', chunk)
        .orderBy('created_at')
        .execute();
      jobs.push(
        ...rows.map((r) => ({
          id: r.id,
          queue: r.queue,
          status: r.status,
          idempotencyKey: r.idempotency_key,
          payload: JSON.parse(r.payload) as unknown,
          createdAt: new Date(Number(r.created_at)).toISOString(),
        })),
      );
    }
    return { queuedJobs: jobs };
  },

  async erase(tx, scope) {
    let queuedJobs = 0;
    for (const chunk of inChunks(scope.ids(LINKED.job))) {
      const deleted = await tx.deleteFrom('jobs').where('id', 'in', chunk).executeTakeFirst();
      queuedJobs += Number(deleted.numDeletedRows);
    }
    return { queuedJobs };
  },
};
