/** Limits of the contact routes; the schemas, the docs and the tests all read these. */
export const CONTACT_LIMITS = {
  nameLength: 200,
  /** RFC 5321 path limit. */
  emailLength: 254,
  subjectLength: 200,
  messageLength: 5000,
  /** `redirect`: where a browser's form post is sent afterwards (a URL on one of the site's origins). */
  redirectLength: 2048,
  /** `language` / `lang`: a language tag (`es`, `es-MX`; anything else reads as English). */
  languageLength: 16,
  /** Submissions per client IP per hour. */
  perIp: { limit: 10, windowMs: 60 * 60 * 1000 },
  list: { defaultLimit: 20, maxLimit: 100, allCap: 10_000 },
} as const;

/**
 * The honeypot: a field a form hides from people (Formspree's name for it). A bot that fills it in
 * is answered as a person is, and its message stored as spam, never e-mailed.
 */
export const HONEYPOT_FIELD = '_gotcha';
