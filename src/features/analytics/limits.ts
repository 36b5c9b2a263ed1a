/** Limits of the analytics routes; the schemas, the docs and the tests all read these. */
export const ANALYTICS_LIMITS = {
  /** Largest track body read (JSON, text/plain or form); larger → 413. */
  trackBodyBytes: 8 * 1024,
  typeLength: 64,
  pageLength: 2048,
  referrerLength: 2048,
  /**
   * Longest referrer host name (a DNS name's limit) counted in top referrers; a longer one is no real
   * host, and the URL parser's punycode can make it several KB (beyond PostgreSQL's index entry limit).
   */
  referrerHostLength: 253,
  titleLength: 512,
  sessionIdLength: 128,
  properties: {
    /** Serialised JSON size of `properties`. */
    bytes: 2048,
    /** Keys across the whole object, nested ones included. */
    keys: 30,
    keyLength: 64,
    /** `properties` itself is depth 1; an object inside it depth 2, and so on. */
    depth: 3,
    stringLength: 500,
  },
  /** Track requests per client IP per window (generous: a busy page sends a few per second). */
  trackPerIp: { limit: 1200, windowMs: 60_000 },
  stats: { defaultTop: 10, maxTop: 100, maxRangeDays: 3660 },
  events: { defaultLimit: 50, maxLimit: 200 },
  /** Events committed per transaction at most; more waiting go in the next one. */
  maxBatch: 500,
  /** Events waiting for a commit at most; beyond it track answers 429 with Retry-After (the database is behind). */
  maxQueued: 20_000,
} as const;
