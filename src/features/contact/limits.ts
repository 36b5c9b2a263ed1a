/** Limits of the contact routes; the schemas, the docs and the tests all read these. */
export const CONTACT_LIMITS = {
  nameLength: 200,
  /** RFC 5321 path limit. */
  emailLength: 254,
  subjectLength: 200,
  messageLength: 5000,
  /** Submissions per client IP per hour. */
  perIp: { limit: 10, windowMs: 60 * 60 * 1000 },
  list: { defaultLimit: 20, maxLimit: 100, allCap: 10_000 },
} as const;
