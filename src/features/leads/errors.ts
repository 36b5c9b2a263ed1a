import { ReasonedError } from '../../reasoned-error.ts';
import type { QuotaUsage } from './quota.ts';

/** Why a submission was refused; the route maps each to the contract's error. */
export type LeadRefusalReason =
  /** A wizard answer outside its documented values. */
  | 'invalid'
  /** The monthly prototype quota of this visitor is used up (`quota` says until when). */
  | 'quota'
  | 'captcha_failed'
  /** The CAPTCHA service could not be reached. */
  | 'captcha_unavailable'
  /** An identical submission is being stored right now. */
  | 'in_progress';

/** A submission refused before anything was stored. */
export class LeadRefusal extends ReasonedError<LeadRefusalReason> {
  override name = 'LeadRefusal';
  readonly quota: { usage: QuotaUsage; retryAfterSeconds: number } | null;

  constructor(reason: LeadRefusalReason, message: string, quota: LeadRefusal['quota'] = null) {
    super(reason, message);
    this.quota = quota;
  }
}

/** No lead has this id (an admin's correction of an unknown lead). */
export class LeadNotFound extends Error {
  override name = 'LeadNotFound';
}
