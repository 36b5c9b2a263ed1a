import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { type Db, withTransaction } from '../../db/database.ts';
import { flushErasedContent } from '../../db/erased-content.ts';
import {
  findPersonalData,
  type PersonalDataPart,
  PersonalDataScope,
  type RetentionRule,
} from '../../db/personal-data.ts';
import { addCounts, eraseScope } from './erase.ts';
import { DAY_MS, RETENTION } from './limits.ts';
import { insertAudit } from './store.ts';

/** Every retention rule of every part, as the Privacy view lists them. */
export function retentionRules(parts: readonly PersonalDataPart[]): RetentionRule[] {
  return parts.flatMap((part) => part.retention ?? []);
}

/**
 * The housekeeping's retention sweep: for each rule with a period, what expired before `now − days`
 * is erased in batches, each batch like an erasure (what links to it goes too: a spam lead's e-mails
 * and jobs, a ticket's files) in one transaction with its audit entry. Idempotent deletes by time, so
 * every instance may run it. Returns how many rows went.
 */
export async function sweepExpired(
  db: Db,
  parts: readonly PersonalDataPart[],
  now = Date.now(),
): Promise<number> {
  let deleted = 0;
  for (const rule of retentionRules(parts)) {
    if (rule.days <= 0) continue;
    const before = now - rule.days * DAY_MS;
    for (let batch = 0; batch < RETENTION.maxBatchesPerRun; batch++) {
      const scope = new PersonalDataScope(null);
      await rule.expired(db, before, scope, RETENTION.batchSize);
      const found = scope.size;
      if (found === 0) break;
      const counts = await withTransaction(db, async (tx) => {
        await findPersonalData(tx, parts, scope);
        const erased = await eraseScope(tx, parts, scope);
        await insertAudit(tx, {
          id: randomUUID(),
          reason: 'retention',
          emailHash: null,
          kind: rule.kind,
          counts: erased,
          createdAt: now,
          crmStatus: null,
        });
        return erased;
      });
      deleted += Object.values(addCounts({}, counts)).reduce((a, b) => a + b, 0);
      if (found < RETENTION.batchSize) break;
    }
  }
  if (deleted > 0) await flushErasedContent(db);
  return deleted;
}

/**
 * Blobs no declared column names (`blobReferences` of the parts) and older than the grace period.
 * A blob is written in the transaction that writes the row naming it and deleted in the one that
 * deletes that row, so this finds only what a bug or a hand edit left; it keeps the store honest.
 */
export async function sweepOrphanBlobs(
  db: Db,
  parts: readonly PersonalDataPart[],
  now = Date.now(),
): Promise<number> {
  const references = parts.flatMap((part) => part.blobReferences ?? []);
  if (references.length === 0) return 0;
  const unreferenced = references.map(
    (ref) =>
      sql`not exists (select 1 from ${sql.table(ref.table)} where ${sql.ref(`${ref.table}.${ref.column}`)} = blobs.id)`,
  );
  const result = await sql`
    delete from blobs
    where created_at < ${now - RETENTION.orphanBlobGraceMs} and ${sql.join(unreferenced, sql` and `)}`.execute(
    db,
  );
  return Number(result.numAffectedRows ?? 0);
}
