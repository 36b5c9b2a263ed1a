/** Limits of the analytics routes; the schemas, the docs and the tests all read these. */
export const ANALYTICS_LIMITS = {
  /** Largest track body read (JSON, text/plain or form); larger → 413. */
  trackBodyBytes: 8 * 1024,
  typeLength: 64,
  /**
   * Longest page (or `url`) and referrer taken as sent. Only their paths are kept (cut to pageLength
   * and referrerLength), so the query string may be long (ad click ids, a search's state): bounded
   * by the body's own limit rather than refused, which would lose the page view.
   */
  urlLength: 8 * 1024,
  /** Longest page path kept, in bytes of UTF-8 (a longer one is cut; see storedPath). */
  pageLength: 2048,
  /** Longest referrer kept (origin and path; a longer one is cut). */
  referrerLength: 2048,
  /**
   * Longest referrer host name (a DNS name's limit) counted in top referrers; a longer one is no real
   * host, and the URL parser's punycode can make it several KB (beyond PostgreSQL's index entry limit).
   */
  referrerHostLength: 253,
  titleLength: 512,
  /** Longest UTM tag kept (longer ones are cut): tags are campaign names, not text. */
  utmLength: 128,
  /** A visit ends after this long without an event (Plausible's and Umami's 30 minutes). */
  visitGapMs: 30 * 60_000,
  /** Most time on page one engagement event adds (a tab left open all night says no more than this). */
  engagementMs: 30 * 60_000,
  /** Longest filter value of a stats request. */
  filterLength: 2048,
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
  /**
   * Most a filtered stats request reads: a range holding more visits or events than this is answered
   * from a sample of its visits (docs/analytics.md, "Reading at scale"), at most ~this many.
   */
  sampleBudget: { visits: 10_000, events: 30_000 },
  events: { defaultLimit: 50, maxLimit: 200 },
  /** CSV export: rows read per query while the file streams, and breakdown rows at most. */
  export: { pageSize: 5000, maxBreakdownRows: 10_000 },
  /** Events committed per transaction at most; more waiting go in the next one. */
  maxBatch: 500,
  /**
   * The inbox (store.ts) is folded into the events, visits and rollups this long after an event is
   * committed to it (and before every read of them), foldBatch events a transaction. On SQLite a
   * transaction holds the thread (~70 ms for 2 000 events here; other requests go between two);
   * smaller ones cost more CPU per event (docs/analytics.md, "Write path").
   */
  foldIntervalMs: 1000,
  foldBatch: 2000,
  /** Events waiting for a commit at most; beyond it track answers 429 with Retry-After (the database is behind). */
  maxQueued: 20_000,
  /**
   * While folds keep failing (a table missing after a bad deploy), the inbox is counted at the first
   * failure and then every this many (one a second); past ANALYTICS_INBOX_MAX_EVENTS track answers
   * 503 with this Retry-After (seconds) and forms record no conversion, rather than fill the disk
   * the other features share.
   */
  inboxCountEveryFailures: 10,
  inboxFullRetryAfterS: 60,
} as const;
