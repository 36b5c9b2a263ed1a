/** Limits of the privacy routes and the housekeeping: the schemas, the docs and the tests import these. */
export const PRIVACY_LIMITS = {
  /** An address as the forms take it (RFC 5321's path limit). */
  email: 254,
  audit: { defaultLimit: 50, maxLimit: 200 },
} as const;

/** The CRM erasure's queue and its budgets (like the CRM sync's, integrations/crm/sync.ts). */
export const CRM_ERASURE = {
  queue: 'crm-erasure',
  /** With the queue's backoff (1 s doubling, capped at 15 min) this covers a CRM outage of hours. */
  maxAttempts: 20,
  inlineTimeoutMs: 5000,
  queueTimeoutMs: 30_000,
  /** Queued with the erasure (same transaction), due this late unless the in-request attempt fails. */
  safetyNetDelayMs: 60_000,
} as const;

export const RETENTION = {
  /** Records one retention batch erases at most (one transaction). */
  batchSize: 500,
  /** Batches per rule per housekeeping run at most; the rest waits for the next run. */
  maxBatchesPerRun: 20,
  /** A blob no row names is collected once this old (a blob is written with its row, so only a bug orphans one). */
  orphanBlobGraceMs: 60 * 60_000,
} as const;

export const DAY_MS = 24 * 60 * 60_000;
