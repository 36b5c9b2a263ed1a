import { ReasonedError } from '../../reasoned-error.ts';

/** Why an analytics request was refused; the route maps each to the contract's error. */
export type AnalyticsRefusalReason =
  /** A field, a body or a date range that breaks the documented rules. */
  | 'invalid'
  | 'too_large'
  /** A track body in a content type that beacons do not send. */
  | 'unsupported_type';

/** A track body or a stats range refused; nothing was recorded. */
export class AnalyticsRefusal extends ReasonedError<AnalyticsRefusalReason> {
  override name = 'AnalyticsRefusal';
}
