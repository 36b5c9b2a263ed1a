import { ReasonedError } from '../../reasoned-error.ts';

/** Why a page could not be analysed; the route maps each to the contract's error. */
export type SeoFailureReason =
  /** The visitor's URL breaks the fetching rules (scheme, private address, port…). */
  | 'refused_url'
  /** The page's site failed: unreachable, too slow, or a page the checks cannot read. */
  | 'page_failed';

export class SeoFailure extends ReasonedError<SeoFailureReason> {
  override name = 'SeoFailure';
}
