import type { RateLimiter } from '../../db/rate-limiter.ts';

interface Window {
  /** The shared (all instances) count as of the last sync. */
  shared: number;
  /** Hits taken here since the last sync. */
  pending: number;
  resetAt: number;
}

/**
 * A per-IP limit on the shared, database-backed RateLimiter, synced in batches: hits are counted in
 * memory and pushed to the database once per `syncMs` per IP (one upsert carrying all of them), and
 * the shared count read back. Every instance's hits count toward the same window; the price is that
 * another instance's hits are seen up to `syncMs` late, so N instances may together overshoot the
 * limit by what they take in `syncMs`. For analytics beacons that is the right trade: a per-request
 * database write would cost more than recording the event itself.
 */
export class BatchedIpLimiter {
  readonly #limiter: RateLimiter;
  readonly #limit: number;
  readonly #windowMs: number;
  readonly #syncMs: number;
  readonly #prefix: string;
  readonly #windows = new Map<string, Window>();
  #timer: NodeJS.Timeout | null = null;
  #syncing: Promise<void> | null = null;

  constructor(
    limiter: RateLimiter,
    options: { prefix: string; limit: number; windowMs: number; syncMs?: number },
  ) {
    this.#limiter = limiter;
    this.#prefix = options.prefix;
    this.#limit = options.limit;
    this.#windowMs = options.windowMs;
    this.#syncMs = options.syncMs ?? 200;
  }

  /** Requests per window and the window, as `RateLimit-Policy` advertises them. */
  get policy(): { quota: number; windowSeconds: number } {
    return { quota: this.#limit, windowSeconds: Math.round(this.#windowMs / 1000) };
  }

  /**
   * What is left of `key`'s window as this instance sees it (another instance's hits arrive up to
   * `syncMs` late), for the `RateLimit` field.
   */
  standing(key: string, now = Date.now()): { remaining: number; resetSeconds: number } {
    const w = this.#windows.get(key);
    if (!w || w.resetAt <= now) return { remaining: this.#limit, resetSeconds: this.policy.windowSeconds };
    return {
      remaining: Math.max(0, this.#limit - w.shared - w.pending),
      resetSeconds: Math.max(1, Math.ceil((w.resetAt - now) / 1000)),
    };
  }

  /** Takes one hit for `key`; null when allowed, else the seconds until the window resets. */
  take(key: string, now = Date.now()): number | null {
    let w = this.#windows.get(key);
    if (!w || w.resetAt <= now) {
      w = { shared: 0, pending: 0, resetAt: now + this.#windowMs };
      this.#windows.set(key, w);
    }
    if (w.shared + w.pending >= this.#limit) return Math.max(1, Math.ceil((w.resetAt - now) / 1000));
    w.pending++;
    this.#timer ??= setTimeout(() => {
      this.#timer = null;
      void this.sync();
    }, this.#syncMs).unref();
    return null;
  }

  /** Pushes pending hits to the database (also at shutdown). */
  sync(): Promise<void> {
    this.#syncing ??= this.#sync().finally(() => {
      this.#syncing = null;
    });
    return this.#syncing;
  }

  async #sync(): Promise<void> {
    const now = Date.now();
    for (const [key, w] of this.#windows) {
      if (w.pending === 0) {
        if (w.resetAt <= now) this.#windows.delete(key);
        continue;
      }
      const taken = w.pending;
      try {
        const result = await this.#limiter.hit(`${this.#prefix}${key}`, this.#limit, this.#windowMs, taken);
        w.shared = result.count;
        w.pending -= taken;
        w.resetAt = now + result.retryAfterSeconds * 1000;
      } catch {
        // Database unavailable: keep the hits pending and count them next time.
      }
    }
  }
}
