import type { Logger } from 'pino';
import type { Db } from '../../db/database.ts';
import type { RateLimiter } from '../../db/rate-limiter.ts';
import { isDatabaseUnavailable } from '../../db/unavailable.ts';
import { backlogWhileFailing, foldPending } from './fold.ts';
import { BatchedIpLimiter } from './ip-limiter.ts';
import { ANALYTICS_LIMITS } from './limits.ts';
import { appendToInbox } from './store.ts';
import type { TrackedEvent } from './tables.ts';
import { VisitorHasher } from './visitor-hash.ts';

interface Waiting {
  event: TrackedEvent;
  resolve: () => void;
  reject: (error: unknown) => void;
}

export class RecorderBusyError extends Error {}

/** The inbox holds maxInboxEvents while folds keep failing: no event is taken until they succeed. */
export class InboxFullError extends Error {}

/**
 * Group commit for analytics events. `record()` resolves once its event is COMMITTED (to the inbox,
 * store.ts appendToInbox): nothing is acknowledged that a crash could lose. While one transaction
 * runs, the events that arrive wait and go together in the next one, so under load one commit
 * carries many events (up to maxBatch) and at rest each event commits alone at once. Bot drops are
 * only counted, and are the one thing that can be lost (a few counts on a crash).
 *
 * The inbox is folded into the events, visits and rollups (fold.ts) at most foldIntervalMs after an
 * append, before every read of them, and by the housekeeping: a visit or a rollup row then changes
 * once per fold rather than once per commit.
 */
export class AnalyticsRecorder {
  readonly #db: Db;
  readonly #logger: Logger;
  readonly #now: () => number;
  #queue: Waiting[] = [];
  #bots = 0;
  #running: Promise<void> | null = null;
  #foldTimer: NodeJS.Timeout | null = null;
  readonly #hasher: VisitorHasher;
  readonly #maxInboxEvents: number;
  /** Events are refused because the inbox is full (logged once when it starts and when it ends). */
  #refusing = false;
  /** Per-IP limit on track requests (null: off). */
  readonly limiter: BatchedIpLimiter | null;

  constructor(
    db: Db,
    logger: Logger,
    options: {
      rateLimiter: RateLimiter;
      perMinute: number;
      now?: () => number;
      /** ANALYTICS_INBOX_MAX_EVENTS: past it, while folds fail, events are refused (InboxFullError). */
      maxInboxEvents: number;
    },
  ) {
    this.#db = db;
    this.#logger = logger;
    this.#now = options.now ?? Date.now;
    this.#maxInboxEvents = options.maxInboxEvents;
    this.#hasher = new VisitorHasher(db, this.#now);
    this.limiter =
      options.perMinute > 0
        ? new BatchedIpLimiter(options.rateLimiter, {
            prefix: 'analytics:',
            limit: options.perMinute,
            windowMs: 60_000,
          })
        : null;
  }

  get queued(): number {
    return this.#queue.length;
  }

  record(event: TrackedEvent): Promise<void> {
    if (this.#inboxFull()) return Promise.reject(new InboxFullError('the analytics inbox is full'));
    if (this.#queue.length >= ANALYTICS_LIMITS.maxQueued) {
      return Promise.reject(new RecorderBusyError('analytics writes are behind'));
    }
    const done = new Promise<void>((resolve, reject) => this.#queue.push({ event, resolve, reject }));
    this.#kick();
    return done;
  }

  #inboxFull(): boolean {
    const backlog = backlogWhileFailing(this.#db);
    const full = backlog !== null && backlog >= this.#maxInboxEvents;
    if (full !== this.#refusing) {
      this.#refusing = full;
      if (full) {
        this.#logger.error(
          { inboxEvents: backlog, maxInboxEvents: this.#maxInboxEvents },
          'analytics inbox full while folds fail: tracked events are refused (503) until a fold succeeds',
        );
      } else {
        this.#logger.info('analytics takes events again');
      }
    }
    // While it is full nothing else starts a fold: try again on the usual schedule.
    if (full) this.#scheduleFold();
    return full;
  }

  countBot(): void {
    this.#bots++;
    this.#kick();
  }

  /** The visitor hash of the day (visitor-hash.ts). */
  visitorHash(day: string, ip: string | null, userAgent: string): Promise<string> {
    return this.#hasher.hash(day, ip, userAgent);
  }

  /**
   * Waits until everything recorded so far is committed and folded (used at shutdown and by tests).
   * Folding is not needed for durability (the inbox is), so a shutdown that runs out of time during
   * it loses nothing.
   */
  async flush(): Promise<void> {
    await this.limiter?.sync();
    while (this.#running || this.#queue.length > 0 || this.#bots > 0) {
      this.#kick();
      await this.#running;
    }
    if (this.#foldTimer) clearTimeout(this.#foldTimer);
    this.#foldTimer = null;
    await this.fold();
  }

  /** Folds the inbox now (fold.ts); answers how many rows this call folded. */
  async fold(): Promise<number> {
    return (await foldPending(this.#db, this.#logger)).folded;
  }

  /** A fold foldIntervalMs from now, and again after each that fails, until one succeeds. */
  #scheduleFold(): void {
    if (this.#foldTimer) return;
    this.#foldTimer = setTimeout(() => {
      this.#foldTimer = null;
      void foldPending(this.#db, this.#logger).then(({ error }) => {
        if (error !== null) this.#scheduleFold();
      });
    }, ANALYTICS_LIMITS.foldIntervalMs);
    this.#foldTimer.unref();
  }

  #kick(): void {
    if (this.#running) return;
    this.#running = this.#drain().finally(() => {
      this.#running = null;
      // Anything that arrived during the last commit is picked up by the next kick.
      if (this.#queue.length > 0 || this.#bots > 0) this.#kick();
    });
  }

  async #drain(): Promise<void> {
    // One macrotask turn lets the requests that are already parsed join this commit.
    await new Promise<void>((resolve) => setImmediate(resolve));
    while (this.#queue.length > 0 || this.#bots > 0) {
      const batch = this.#queue.splice(0, ANALYTICS_LIMITS.maxBatch);
      const bots = this.#bots;
      this.#bots = 0;
      try {
        await appendToInbox(
          this.#db,
          batch.map((w) => w.event),
          bots,
        );
        for (const w of batch) w.resolve();
        this.#scheduleFold();
      } catch (error) {
        // The database away (a failover) is passing, and its events' requests were answered 503.
        const level = isDatabaseUnavailable(error) ? 'warn' : 'error';
        this.#logger[level]({ err: error, events: batch.length }, 'analytics batch failed');
        for (const w of batch) w.reject(error);
        return;
      }
    }
  }
}
