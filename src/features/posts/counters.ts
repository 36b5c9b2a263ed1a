import type { Db } from '../../db/database.ts';
import { incrementCounter } from '../../db/rate-limiter.ts';

/**
 * Cache hit/miss counts summed in memory and added to the shared database counters every interval,
 * so every instance reports the same ratio without a database write on each cached request. At most
 * one interval of counts is lost if the process dies.
 */
export class BufferedCounters {
  readonly #db: Db;
  readonly #pending = new Map<string, number>();
  #timer: NodeJS.Timeout | null = null;
  readonly #intervalMs: number;

  constructor(db: Db, intervalMs: number) {
    this.#db = db;
    this.#intervalMs = intervalMs;
  }

  add(name: string): void {
    this.#pending.set(name, (this.#pending.get(name) ?? 0) + 1);
    if (!this.#timer) {
      this.#timer = setTimeout(() => {
        this.#timer = null;
        void this.flush().catch(() => {});
      }, this.#intervalMs);
      this.#timer.unref();
    }
  }

  async flush(): Promise<void> {
    const entries = [...this.#pending];
    this.#pending.clear();
    for (const [name, by] of entries) await incrementCounter(this.#db, name, by);
  }
}
