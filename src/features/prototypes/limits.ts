/** The prototype feature's bounds, in one place: code, docs and tests import these. */
export const PROTOTYPE_LIMITS = {
  /** A running attempt refreshes its heartbeat this often. */
  heartbeatMs: 5_000,
  /**
   * An attempt without progress or heartbeat for this long is stale (its process died): the next
   * stream connection, trigger or queue check restarts it. Nine missed heartbeats.
   */
  staleAfterMs: 45_000,
  /** One attempt may run this long before it is abandoned (v0 polls for up to five minutes). */
  generationTimeoutMs: 6 * 60_000,
  /** generate-stream reads new events from the database this often. */
  streamPollMs: 400,
  /** A stream is closed after this long (EventSource reconnects with Last-Event-ID and resumes). */
  streamMaxMs: 10 * 60_000,
  /**
   * PrototypeQueue: attempts per job. With the queue's backoff (1 s doubling, capped at 15 min, ±20 %)
   * the retries of a failing generation span at least `outageRiddenOutMs` before the lead is failed.
   */
  queueMaxAttempts: 15,
  /** An outside outage (the model, v0) this long is ridden out: the lead stays `generating`. */
  outageRiddenOutMs: 60 * 60_000,
  queueConcurrency: 2,
  /** The blocking POST /generate waits at most this long for an attempt already running elsewhere. */
  blockingWaitMs: 6 * 60_000,
  /**
   * Generation requests per lead per hour, trigger-generation and the blocking generate together
   * (each may start a paid model or v0 call); counted only for a lead that could generate.
   */
  generationRequestsPerHour: 10,
} as const;
