import { ReasonedError } from '../../reasoned-error.ts';

/** Why a support message or ticket was refused; the route maps each to the contract's error. */
export type SupportRefusalReason =
  /** Fields that break the documented rules. */
  | 'invalid'
  | 'captcha_failed'
  /** The CAPTCHA service could not be reached. */
  | 'captcha_unavailable';

/** A support message or ticket refused before anything was stored. */
export class SupportRefusal extends ReasonedError<SupportRefusalReason> {
  override name = 'SupportRefusal';
}

/** Why an upload was refused while its multipart body was read. */
export type UploadRefusalReason =
  /** Refused before a byte was read: not multipart, no body, or no usable boundary. */
  | 'not_multipart'
  | 'no_body'
  | 'no_boundary'
  /** The body, a file or the files together over their limit (declared or counted). */
  | 'too_large'
  /** A file whose bytes are not an accepted type. */
  | 'file_type'
  /** The body stalled or did not end in time. */
  | 'timeout'
  /** Any other broken rule: too many parts, a field too long, a malformed or interrupted body. */
  | 'invalid';

/** An upload refused at its first violation; nothing was stored. */
export class UploadRefusal extends ReasonedError<UploadRefusalReason> {
  override name = 'UploadRefusal';
}

/** No support message has this id (an admin's correction of an unknown message). */
export class SupportMessageNotFound extends Error {
  override name = 'SupportMessageNotFound';
}
