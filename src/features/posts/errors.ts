import { ReasonedError } from '../../reasoned-error.ts';

/** Why a posts request could not be answered; the route maps each to the contract's error. */
export type PostsFailureReason =
  /** WORDPRESS_API_URL is unset. */
  | 'not_configured'
  /** An unknown, missing or too long query parameter, or one WordPress rejected. */
  | 'invalid_query'
  /** WordPress has no such item (or not one the public may read). */
  | 'not_found'
  /** WordPress failed (unreachable, an error, a bot challenge) and no stale copy was cached. */
  | 'upstream_failed';

export class PostsFailure extends ReasonedError<PostsFailureReason> {
  override name = 'PostsFailure';
}
