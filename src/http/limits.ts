/**
 * Every request limit of the service in one place: the validators and the tests both import these.
 * Feature-specific limits live in each feature's `limits.ts` and are re-exported here.
 */
export const LIMITS = {
  /** Largest JSON body any route reads. */
  jsonBodyBytes: 1024 * 1024,
  requestIdLength: 128,
  pagination: { defaultLimit: 20, maxLimit: 100, maxPage: 1_000_000 },
} as const;
