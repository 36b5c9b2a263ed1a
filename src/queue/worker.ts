import type { Logger } from 'pino';
import { isDatabaseUnavailable, writeThroughOutage } from '../db/unavailable.ts';
import { maskAddresses } from '../text/address-mention.ts';
import { runInSpan } from '../tracing/context.ts';
import { parseTraceparent } from '../tracing/trace-context.ts';
import { ID_ONLY_TRACER, type Tracer } from '../tracing/tracer.ts';
import type { ClaimedJob, EnqueueOptions, EnqueueResult, JobQueue, QueueStatus } from './job-queue.ts';

/** Thrown by a handler for a failure that retrying cannot fix: the job goes straight to `dead`. */
export class PermanentJobError extends Error {
  override name = 'PermanentJobError';
}

export interface QueueDefinition<T> {
  name: string;
  handle: (payload: T, job: ClaimedJob<T>) => Promise<void>;
  /** Called once when the job is dead (attempts used up or permanent failure). */
  onDead?: (payload: T, error: unknown) => Promise<void>;
  concurrency?: number;
  leaseMs?: number;
  maxAttempts?: number;
}

/** A typed face of one named queue: the `/enqueue`, `/status` and `/clear` operations of the spec. */
export interface NamedQueue<T> {
  readonly name: string;
  enqueue(payload: T, options?: EnqueueOptions): Promise<EnqueueResult>;
  status(): Promise<QueueStatus>;
  clear(): Promise<number>;
  retryDead(jobId?: string): Promise<number>;
}

export function namedQueue<T>(queue: JobQueue, definition: Pick<QueueDefinition<T>, 'name' | 'maxAttempts'>) {
  const named: NamedQueue<T> = {
    name: definition.name,
    enqueue: (payload, options = {}) =>
      queue.enqueue(definition.name, payload, { maxAttempts: definition.maxAttempts, ...options }),
    status: () => queue.status(definition.name),
    clear: () => queue.clear(definition.name),
    retryDead: (jobId) => queue.retryDead(definition.name, jobId),
  };
  return named;
}

const DEFAULT_LEASE_MS = 60_000;
const IDLE_POLL_MS = 500;
/** The longest wait between polls that fail (doubling from IDLE_POLL_MS). */
const FAILING_POLL_MAX_MS = 5000;

/**
 * Runs the handlers of registered queues: each queue polls for due jobs with its own concurrency,
 * renews the lease of running jobs, and on `stop()` claims nothing more and waits (within a bound)
 * for running jobs to finish. Jobs it could not finish are re-run elsewhere once their lease expires.
 */
export class QueueWorker {
  readonly #queue: JobQueue;
  readonly #logger: Logger;
  readonly #definitions: QueueDefinition<unknown>[] = [];
  readonly #running = new Set<Promise<void>>();
  readonly #wakers = new Set<() => void>();
  readonly #leaseMs: number | null;
  readonly #tracer: Tracer;
  #stopping = false;
  #started = false;

  /**
   * `leaseMs` overrides every queue's lease (QUEUE_LEASE_MS): how soon a crashed worker's job runs
   * again. Each run is a span of `tracer`, in the trace of the work that enqueued the job.
   */
  constructor(queue: JobQueue, logger: Logger, options: { leaseMs?: number | null; tracer?: Tracer } = {}) {
    this.#queue = queue;
    this.#logger = logger;
    this.#leaseMs = options.leaseMs ?? null;
    this.#tracer = options.tracer ?? ID_ONLY_TRACER;
  }

  register<T>(definition: QueueDefinition<T>): void {
    if (this.#started) throw new Error('register queues before start()');
    this.#definitions.push(definition as QueueDefinition<unknown>);
  }

  queueNames(): string[] {
    return this.#definitions.map((d) => d.name);
  }

  start(): void {
    if (this.#started) return;
    this.#started = true;
    for (const definition of this.#definitions) {
      for (let slot = 0; slot < (definition.concurrency ?? 1); slot++) {
        this.#track(this.#loop(definition));
      }
    }
  }

  /** Wakes idle pollers now (after a local enqueue) instead of at their next poll. */
  poke(): void {
    for (const wake of this.#wakers) wake();
  }

  /** Processes due jobs of one queue until none is left; for tests and scripts. */
  async drain(name: string): Promise<number> {
    const definition = this.#definitions.find((d) => d.name === name);
    if (!definition) throw new Error(`unknown queue ${name}`);
    let processed = 0;
    while (await this.#runOne(definition)) processed++;
    return processed;
  }

  async stop(timeoutMs: number): Promise<void> {
    this.#stopping = true;
    this.poke();
    const all = Promise.allSettled([...this.#running]);
    await Promise.race([all, new Promise((resolve) => setTimeout(resolve, timeoutMs).unref())]);
  }

  #track(promise: Promise<void>): void {
    this.#running.add(promise);
    void promise.finally(() => this.#running.delete(promise));
  }

  async #loop(definition: QueueDefinition<unknown>): Promise<void> {
    // Polls failed in a row: while the database is away (a failover: seconds to a minute) the loop
    // polls less and less often and says so once, not twice a second with a stack each time.
    let failed = 0;
    while (!this.#stopping) {
      let worked = false;
      try {
        worked = await this.#runOne(definition);
        if (failed > 0)
          this.#logger.info({ queue: definition.name, failedPolls: failed }, 'queue polls again');
        failed = 0;
      } catch (error) {
        failed++;
        if (!isDatabaseUnavailable(error)) {
          this.#logger.error({ err: error, queue: definition.name }, 'queue poll failed');
        } else if (failed === 1) {
          // The database away: the next polls try again; nothing else went wrong.
          this.#logger.warn(
            { err: error, queue: definition.name },
            'queue poll failed: the database is unavailable; polling less often until it answers',
          );
        }
      }
      if (!worked && !this.#stopping) {
        await this.#idle(
          failed === 0 ? IDLE_POLL_MS : Math.min(IDLE_POLL_MS * 2 ** failed, FAILING_POLL_MAX_MS),
        );
      }
    }
  }

  #idle(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.#wakers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.#wakers.add(wake);
    });
  }

  async #runOne(definition: QueueDefinition<unknown>): Promise<boolean> {
    const leaseMs = this.#leaseMs ?? definition.leaseMs ?? DEFAULT_LEASE_MS;
    const job = await this.#queue.claim(definition.name, leaseMs);
    if (!job) return false;
    const log = this.#logger.child({ queue: definition.name, jobId: job.id, attempt: job.attempt });
    if (job.attempt > job.maxAttempts) {
      // Its worker died on the last attempt: count that as the final failure.
      const next = await writeThroughOutage(() =>
        this.#queue.fail(job, 'lease expired on the final attempt', { permanent: true }),
      );
      if (next === 'dead') await this.#dead(definition, job, new Error('lease expired'), log);
      return true;
    }
    const heartbeat = setInterval(
      () => {
        void this.#queue.heartbeat(job, leaseMs).catch(() => {});
      },
      // A third of the lease, with no floor: a floor at or above the lease (QUEUE_LEASE_MS may be
      // 1000) would let the lease run out while the job still runs, and another worker take it.
      leaseMs / 3,
    );
    heartbeat.unref();
    // The run is a span in the trace of the request that enqueued the job: its log lines (the
    // handler's and these) and the outside services it calls carry that trace.
    const span = this.#tracer.startSpan(`job ${definition.name}`, {
      kind: 'consumer',
      parent: parseTraceparent(job.traceParent),
      attributes: { 'messaging.destination.name': definition.name, 'job.attempt': job.attempt },
    });
    try {
      await runInSpan({ span, tracer: this.#tracer }, async () => {
        let failure: { error: unknown } | null = null;
        try {
          await definition.handle(job.payload, job);
          span.end();
        } catch (error) {
          failure = { error };
          span.end({ error });
        }
        if (failure === null) {
          // The work is done: recorded through a brief outage (the lease still renewed meanwhile), or
          // it would run again. Fenced by the claim token: a repeat of a write that landed does nothing.
          await writeThroughOutage(() => this.#queue.complete(job));
          log.debug('job completed');
        } else {
          const { error } = failure;
          const permanent = error instanceof PermanentJobError;
          const next = await writeThroughOutage(() => this.#queue.fail(job, error, { permanent }));
          log.warn({ err: loggable(error), next }, 'job failed');
          if (next === 'dead') await this.#dead(definition, job, error, log);
        }
      });
    } finally {
      span.end();
      clearInterval(heartbeat);
    }
    return true;
  }

  async #dead(definition: QueueDefinition<unknown>, job: ClaimedJob, error: unknown, log: Logger) {
    try {
      await definition.onDead?.(job.payload, error);
    } catch (deadError) {
      log.error({ err: deadError }, 'onDead handler failed');
    }
  }
}

/**
 * A job's error as its log line shows it: type, code, message and stack with every e-mail address
 * masked. A job's error is often an outside service's answer about a person (a mail server refusing
 * `<ana@…>`, a CRM rejecting a field), and the logs must name nobody; the job row keeps the error.
 */
function loggable(error: unknown) {
  if (!(error instanceof Error)) return { message: maskAddresses(String(error)) };
  const { code } = error as { code?: unknown };
  return {
    type: error.name,
    ...(code === undefined ? {} : { code }),
    message: maskAddresses(error.message),
    stack: error.stack === undefined ? undefined : maskAddresses(error.stack),
  };
}
