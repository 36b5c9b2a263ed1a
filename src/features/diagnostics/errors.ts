import { ReasonedError } from '../../reasoned-error.ts';

/** Why an analysis could not be answered; the route maps each to the contract's error. */
export type DiagnosticFailureReason =
  /** The visitor's URL breaks the fetching rules, here or where the engine fetched it. */
  | 'refused_url'
  /** No engine: neither a PageSpeed key nor a local Chromium. */
  | 'not_configured'
  /** The engine, the page or the wait failed (unreachable, cancelled, too slow). */
  | 'failed';

export class DiagnosticFailure extends ReasonedError<DiagnosticFailureReason> {
  override name = 'DiagnosticFailure';
}
