import { randomUUID } from 'node:crypto';
import type { Config } from '../../config.ts';
import { type Db, type DbOrTx, withTransaction } from '../../db/database.ts';
import {
  type ErasedCounts,
  findPersonalData,
  type PersonalDataPart,
  PersonalDataScope,
} from '../../db/personal-data.ts';
import { JobQueue } from '../../queue/job-queue.ts';
import { addressHash } from './audit-hash.ts';
import {
  type CrmErasureDeps,
  type CrmErasureOutcome,
  crmErasureKey,
  crmErasureQueue,
  eraseFromCrmInline,
  flushErased,
} from './crm-erasure.ts';
import { CRM_ERASURE } from './limits.ts';
import { insertAudit, insertCrmErasure, type KnownCrmObjects } from './store.ts';

export interface PrivacyDeps extends CrmErasureDeps {
  config: Config;
  personalData: { readonly parts: readonly PersonalDataPart[] };
}

export interface ErasureResult {
  auditId: string;
  erasedAt: number;
  counts: ErasedCounts;
  crm: { status: 'not_requested' | 'not_configured'; message: string } | CrmErasureOutcome;
}

/** Adds each part's counts into `total` (two parts may count the same kind). */
export function addCounts(total: ErasedCounts, counts: ErasedCounts): ErasedCounts {
  for (const [kind, n] of Object.entries(counts)) total[kind] = (total[kind] ?? 0) + n;
  return total;
}

/** Erases what `find` put in `scope`, every part in the caller's transaction; the counts per kind. */
export async function eraseScope(
  tx: Parameters<PersonalDataPart['erase']>[0],
  parts: readonly PersonalDataPart[],
  scope: PersonalDataScope,
): Promise<ErasedCounts> {
  const counts: ErasedCounts = {};
  for (const part of parts) addCounts(counts, await part.erase(tx, scope));
  return counts;
}

async function knownCrmObjects(
  db: DbOrTx,
  parts: readonly PersonalDataPart[],
  scope: PersonalDataScope,
): Promise<KnownCrmObjects> {
  const known: KnownCrmObjects = { personIds: [], dealIds: [], noteIds: [] };
  for (const part of parts) {
    for (const ids of (await part.crmIds?.(db, scope)) ?? []) {
      if (ids.personId !== null) known.personIds.push(ids.personId);
      if (ids.dealId !== null) known.dealIds.push(ids.dealId);
      if (ids.noteId !== null) known.noteIds.push(ids.noteId);
    }
  }
  const unique = (ids: number[]) => [...new Set(ids)];
  return {
    personIds: unique(known.personIds),
    dealIds: unique(known.dealIds),
    noteIds: unique(known.noteIds),
  };
}

/**
 * DELETE /admin/api/personal-data: everything held about the address goes in ONE transaction on
 * either engine (rows of every feature, ticket files, outbox copies, linked chat history, queued jobs,
 * the quota's bucket), with the audit entry (a keyed hash of the address, the time, the counts). Any
 * failure rolls all of it back. With `crm`, the CRM erasure is queued in the same transaction and
 * tried once after the commit; its failure is reported and retried, the local erasure stands.
 */
export async function erasePersonalData(
  deps: PrivacyDeps & { db: Db },
  email: string,
  options: { crm: boolean },
): Promise<ErasureResult> {
  const parts = deps.personalData.parts;
  const auditId = randomUUID();
  const erasedAt = Date.now();
  const crmWanted = options.crm && deps.crm.enabled;
  const counts = await withTransaction(deps.db, async (tx) => {
    const scope = new PersonalDataScope(email);
    await findPersonalData(tx, parts, scope);
    const known = crmWanted ? await knownCrmObjects(tx, parts, scope) : null;
    const erased = await eraseScope(tx, parts, scope);
    await insertAudit(tx, {
      id: auditId,
      reason: 'request',
      emailHash: addressHash(deps.config, email),
      kind: null,
      counts: erased,
      createdAt: erasedAt,
      crmStatus: options.crm ? (crmWanted ? 'pending' : 'not_configured') : null,
    });
    if (known) {
      await insertCrmErasure(tx, { id: auditId, email: scope.email as string, known, createdAt: erasedAt });
      await crmErasureQueue(new JobQueue(tx)).enqueue(
        { erasureId: auditId },
        { idempotencyKey: crmErasureKey(auditId), delayMs: CRM_ERASURE.safetyNetDelayMs },
      );
    }
    return erased;
  });
  await flushErased(deps);
  deps.logger.info({ auditId, counts, crm: options.crm }, 'personal data erased');
  if (!options.crm) {
    return {
      auditId,
      erasedAt,
      counts,
      crm: { status: 'not_requested', message: 'The CRM was not asked to erase.' },
    };
  }
  if (!crmWanted) {
    return {
      auditId,
      erasedAt,
      counts,
      crm: {
        status: 'not_configured',
        message: 'PIPEDRIVE_API_TOKEN is not set: nothing was deleted from the CRM.',
      },
    };
  }
  return { auditId, erasedAt, counts, crm: await eraseFromCrmInline(deps, auditId) };
}
