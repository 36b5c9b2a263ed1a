/**
 * E-mail addresses and international phone numbers taken out of text that must name nobody (what a
 * site sends to analytics: a page path, a title, an event's properties). Names cannot be recognised
 * this way; docs/analytics.md tells sites not to send them.
 */

/** An address, also with its `@` percent-encoded as a page path may carry it. The domain needs a dot. */
const EMAIL = /[\p{L}\p{N}._%+-]+(?:@|%40)[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+/giu;
/** `+`, then 8 to 16 digits, each after at most two separators (`+34 611 222 333`, `+44 (0)20 7946 0958`). */
const PHONE = /\+\d(?:[\s().-]{0,2}\d){7,15}/g;

export const EMAIL_PLACEHOLDER = '[email]';
export const PHONE_PLACEHOLDER = '[phone]';

/** `text` with each e-mail address as `[email]` and each international phone number as `[phone]`. */
export function maskContactDetails(text: string): string {
  // Most text holds neither sign: one scan each instead of a regular expression.
  if (text.includes('@') || text.includes('%40')) text = text.replace(EMAIL, EMAIL_PLACEHOLDER);
  if (text.includes('+')) text = text.replace(PHONE, PHONE_PLACEHOLDER);
  return text;
}

/** The same for a value that may be absent. */
export function maskContactDetailsIn(text: string | null): string | null {
  return text === null ? null : maskContactDetails(text);
}
