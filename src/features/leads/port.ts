/**
 * What other features may use of leads (the only file of this folder they may import; the layer
 * rules in .dependency-cruiser.cjs hold them to it): prototype generation reads a lead and moves its
 * status and quota; the back office reads leads and corrects their classification.
 */
import type { Infrastructure } from '../../infrastructure.ts';
import { PrototypeQuota } from './quota.ts';

export { LeadNotFound } from './errors.ts';
export { monthKey, PrototypeQuota } from './quota.ts';
export {
  type LeadCorrectionOutcome,
  leadCorrections,
  type QueuePrototypeFollowUp,
  reclassifyLead,
} from './reclassify.ts';
export { PipedriveOutcomeSchema } from './schemas.ts';
export {
  getLead,
  type Lead,
  type LeadClassification,
  type LeadStatus,
  type PipedriveOutcome,
  type PrototypeKind,
  setLeadStatus,
} from './store.ts';
export { leadClassifierInput } from './submit.ts';

/** The monthly prototype quota (PROTOTYPE_MONTHLY_LIMIT per kind, per IP and e-mail bucket). */
export function prototypeQuota(infra: Pick<Infrastructure, 'db' | 'config'>): PrototypeQuota {
  return new PrototypeQuota(infra.db, infra.config.prototypes.monthlyLimit);
}
