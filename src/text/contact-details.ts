/**
 * E-mail addresses and international phone numbers taken out of text that must name nobody (what a
 * site sends to analytics: a page path, a title, an event's properties). Names cannot be recognised
 * this way; docs/analytics.md tells sites not to send them.
 */

/**
 * An address, also with its `@` percent-encoded as a page path may carry it, once or more (`%40`,
 * `%2540`), or written full-width (`＠`). The domain needs a dot.
 */
const EMAIL = /[\p{L}\p{N}._%+-]+(?:@|\uFF20|%(?:25)*40)[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+/giu;
/**
 * What every address or phone number holds: `@` (full-width too), `+`, or one of them
 * percent-encoded (a URL's path carries `+57%20310…`, `%2B57…`, `ana%40…`, `%EF%BC%A0`).
 */
const CONTACT_SIGN = /@|\uFF20|\+|%(?:25)*(?:40|2B|EF%BC%A0)/i;
/** `+`, then 8 to 16 digits, each after at most two separators (`+34 611 222 333`, `+44 (0)20 7946 0958`). */
const PHONE = /\+\d(?:[\s().-]{0,2}\d){7,15}/g;
/** A run of percent-escapes (decoded together: a UTF-8 character takes several). */
const ESCAPES = /(?:%[0-9A-Fa-f]{2})+/g;

export const EMAIL_PLACEHOLDER = '[email]';
export const PHONE_PLACEHOLDER = '[phone]';

/**
 * `text` with each e-mail address as `[email]` and each international phone number as `[phone]`.
 * A URL's path or referrer arrives percent-encoded (`/call/+57%20310%20777%208899`,
 * `/u/ana%2Eq%40example%2Eorg`): when only its decoded form shows an address or a number, the
 * decoded form is what is kept, masked.
 */
export function maskContactDetails(text: string): string {
  // Most text holds neither sign: one scan instead of two replacements.
  if (!mayHoldContactDetails(text)) return text;
  const masked = maskPlain(text);
  if (!masked.includes('%')) return masked;
  const decoded = percentDecoded(masked);
  const maskedDecoded = maskPlain(decoded);
  return maskedDecoded === decoded ? masked : maskedDecoded;
}

function maskPlain(text: string): string {
  return text.replace(EMAIL, EMAIL_PLACEHOLDER).replace(PHONE, PHONE_PLACEHOLDER);
}

/** Control characters: kept encoded, so a decoded path or name never gains a line break or a NUL. */
const CONTROL = /\p{Cc}/gu;

/**
 * `text` with its percent-escapes decoded, twice encoded ones too; a malformed run is kept as it
 * came, and control characters stay escaped.
 */
function percentDecoded(text: string): string {
  let current = text;
  for (let round = 0; round < 3 && current.includes('%'); round++) {
    const next = current.replace(ESCAPES, (run) => {
      try {
        return decodeURIComponent(run).replace(CONTROL, encodeURIComponent);
      } catch {
        return run;
      }
    });
    if (next === current) break;
    current = next;
  }
  return current;
}

/** Whether `text` has a sign of an e-mail address or a phone number (false: it holds neither). */
export function mayHoldContactDetails(text: string): boolean {
  return CONTACT_SIGN.test(text);
}

/** The same for a value that may be absent. */
export function maskContactDetailsIn(text: string | null): string | null {
  return text === null ? null : maskContactDetails(text);
}
