/**
 * E-mail addresses and international phone numbers taken out of text that must name nobody (what a
 * site sends to analytics: a page path, a title, an event's properties). Names cannot be recognised
 * this way; docs/analytics.md tells sites not to send them.
 */

/**
 * An address, also with its `@` percent-encoded as a page path may carry it, once or more (`%40`,
 * `%2540`). The domain needs a dot.
 */
const EMAIL = /[\p{L}\p{N}._%+-]+(?:@|%(?:25)*40)[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+/giu;
/** What every address or phone number holds: `@` (or its percent-encoding) or `+`. */
const CONTACT_SIGN = /@|%(?:25)*40|\+/;
/** `+`, then 8 to 16 digits, each after at most two separators (`+34 611 222 333`, `+44 (0)20 7946 0958`). */
const PHONE = /\+\d(?:[\s().-]{0,2}\d){7,15}/g;

export const EMAIL_PLACEHOLDER = '[email]';
export const PHONE_PLACEHOLDER = '[phone]';

/** `text` with each e-mail address as `[email]` and each international phone number as `[phone]`. */
export function maskContactDetails(text: string): string {
  // Most text holds neither sign: one scan instead of two replacements.
  if (!mayHoldContactDetails(text)) return text;
  return text.replace(EMAIL, EMAIL_PLACEHOLDER).replace(PHONE, PHONE_PLACEHOLDER);
}

/** Whether `text` has a sign of an e-mail address or a phone number (false: it holds neither). */
export function mayHoldContactDetails(text: string): boolean {
  return CONTACT_SIGN.test(text);
}

/** The same for a value that may be absent. */
export function maskContactDetailsIn(text: string | null): string | null {
  return text === null ? null : maskContactDetails(text);
}
