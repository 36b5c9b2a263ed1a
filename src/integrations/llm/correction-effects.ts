import type { CrmClient } from '../crm/crm.ts';
import { cancelCrmSync, queueCrmSync } from '../crm/sync.ts';
import type { MailMessage } from '../mail/message.ts';
import { getOutboxByKey } from '../mail/outbox.ts';
import { cancelEmail, enqueueEmail, type MailDeps } from '../mail/queue.ts';
import type { CorrectionEffects } from './corrections.ts';
import type { LeadClass } from './offline/classifier.ts';

/**
 * The side effects a correction starts or stops, shared by the features whose submissions are
 * classified. Each runs in the correction's transaction (`deps.db` and `deps.jobs` bound to it) and
 * writes down what it did in `effects`. Starting is idempotent per key (an e-mail already sent is not
 * sent again; a record whose CRM deal exists makes no CRM call), stopping cancels only what has not
 * run yet.
 */

export type CorrectionDeps = Pick<MailDeps, 'db' | 'jobs' | 'worker' | 'mail'> & { crm: CrmClient };

export const emptyEffects = (): CorrectionEffects => ({ started: [], stopped: [], kept: [] });

/** The status a record takes when corrected to `to`: the States table, filters included, as at submission. */
export function refusedStatusFor(
  to: LeadClass,
  filters: { spam: boolean; vendor: boolean },
): 'spam' | 'vendor' | null {
  if (to === 'spam' && filters.spam) return 'spam';
  if (to === 'vendor' && filters.vendor) return 'vendor';
  return null;
}

/** Queues the e-mail unless it already went under this key. */
export async function startEmail(
  deps: CorrectionDeps,
  effects: CorrectionEffects,
  label: string,
  message: MailMessage,
  idempotencyKey: string,
): Promise<void> {
  const earlier = await getOutboxByKey(deps.db, idempotencyKey);
  if (earlier && (earlier.status === 'sent' || earlier.status === 'stored')) {
    effects.kept.push(`${label} (sent before)`);
    return;
  }
  await enqueueEmail(deps, message, idempotencyKey);
  effects.started.push(label);
}

/** Cancels the e-mail if it has not gone yet. */
export async function stopEmail(
  deps: CorrectionDeps,
  effects: CorrectionEffects,
  label: string,
  idempotencyKey: string,
  reason: string,
): Promise<void> {
  const outcome = await cancelEmail(deps, idempotencyKey, reason);
  if (outcome === 'cancelled') effects.stopped.push(label);
  else if (outcome === 'sent') effects.kept.push(`${label} (already sent)`);
}

/** Queues the record's CRM sync (from the queue, at once) when the CRM is configured. */
export async function startCrmSync(
  deps: CorrectionDeps,
  effects: CorrectionEffects,
  source: string,
  id: string,
  dealId: number | null,
): Promise<void> {
  if (!deps.crm.enabled) return;
  if (dealId !== null) {
    effects.kept.push(`CRM deal #${dealId}`);
    return;
  }
  if (await queueCrmSync(deps.jobs, source, id)) effects.started.push('CRM sync');
  else effects.kept.push('CRM sync (ran before)');
}

/** Cancels the record's CRM sync if it has not run; a deal already created stays in the CRM. */
export async function stopCrmSync(
  deps: CorrectionDeps,
  effects: CorrectionEffects,
  id: string,
  dealId: number | null,
): Promise<void> {
  const cancelled = await cancelCrmSync(deps.jobs, id);
  if (dealId !== null) effects.kept.push(`CRM deal #${dealId} (delete it in the CRM if unwanted)`);
  else if (cancelled) effects.stopped.push('CRM sync');
}
