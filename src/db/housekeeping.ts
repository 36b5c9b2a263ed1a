import type { Logger } from 'pino';

export const HOUSEKEEPING = {
  /** How often each instance deletes what has expired. */
  intervalMs: 10 * 60_000,
  /** The first run waits a little: start-up stays quick, and instances started together spread out. */
  firstRunDelayMs: 30_000,
  /** Completed jobs are kept this long (for the admin dashboard and debugging); dead ones stay. */
  completedJobRetentionMs: 7 * 24 * 60 * 60_000,
} as const;

export interface HousekeepingTask {
  name: string;
  /** Deletes what has expired; returns how many rows went. */
  run: () => Promise<number>;
}

/**
 * Deletes what has expired (rate-limit windows, cache entries past their stale window, old completed
 * jobs) every `intervalMs`. Every instance runs it: each task is one idempotent DELETE by time, so
 * instances need no coordination, and a failed task is logged and tried again next time.
 */
export class Housekeeping {
  readonly #tasks: readonly HousekeepingTask[];
  readonly #logger: Logger;
  #timer: NodeJS.Timeout | null = null;
  #running: Promise<unknown> | null = null;

  constructor(tasks: readonly HousekeepingTask[], logger: Logger) {
    this.#tasks = tasks;
    this.#logger = logger;
  }

  start(
    intervalMs: number = HOUSEKEEPING.intervalMs,
    firstRunDelayMs: number = HOUSEKEEPING.firstRunDelayMs,
  ) {
    if (this.#timer) return;
    const schedule = (delayMs: number) => {
      this.#timer = setTimeout(() => {
        this.#running = this.runOnce().finally(() => {
          this.#running = null;
          if (this.#timer) schedule(intervalMs);
        });
      }, delayMs);
      this.#timer.unref();
    };
    schedule(firstRunDelayMs);
  }

  /** Stops the schedule and waits for a run in progress (before the database closes). */
  async stop(): Promise<void> {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    await this.#running;
  }

  /** Runs every task once; returns the rows each deleted (a failed task is left out and logged). */
  async runOnce(): Promise<Record<string, number>> {
    const deleted: Record<string, number> = {};
    for (const task of this.#tasks) {
      try {
        deleted[task.name] = await task.run();
      } catch (error) {
        this.#logger.warn({ err: error, task: task.name }, 'housekeeping task failed');
      }
    }
    if (Object.values(deleted).some((n) => n > 0)) this.#logger.info({ deleted }, 'housekeeping');
    return deleted;
  }
}
