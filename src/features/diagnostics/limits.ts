/** Limits of the page-speed diagnostics, shared by the schemas, the logic and the tests. */
export const DIAGNOSTIC_LIMITS = {
  /** Analyses per client IP per hour (each one fetches or renders a page for a visitor). */
  ratePerHour: 10,
  urlMaxChars: 2048,
  /** backend-api.md: results cached 24 hours per URL and strategy. */
  cacheTtlSeconds: 24 * 60 * 60,
  /** How long a request waits for its run (queue wait included) before answering 502. */
  waitTimeoutMs: 150_000,
  pollIntervalMs: 250,
  /** A failed run is shared by identical requests for this long (then a new run may start). */
  failureWindowMs: 5 * 60 * 1000,
  /** Concurrent runs per instance: local Lighthouse is memory-hungry, PSI is remote. */
  lighthouseConcurrency: 1,
  psiConcurrency: 4,
} as const;

export const DIAGNOSTICS_QUEUE = 'diagnostics';
export const STRATEGIES = ['mobile', 'desktop'] as const;
