import type { CacheEntry } from '../../db/cache-store.ts';

/**
 * A short-lived copy, in this process, of fresh posts cache entries read from the shared database
 * cache, so a burst of identical requests costs one database read per second instead of one each.
 * An entry is kept for at most `maxAgeMs` and never past its own expiry, so a purge made by another
 * instance shows here within `maxAgeMs`; a purge made here clears it at once. Bounded in size.
 */
export class FreshMemo<T> {
  readonly #entries = new Map<string, { entry: CacheEntry<T>; until: number }>();
  readonly #maxAgeMs: number;
  readonly #maxEntries: number;

  constructor(maxAgeMs: number, maxEntries: number) {
    this.#maxAgeMs = maxAgeMs;
    this.#maxEntries = maxEntries;
  }

  get(key: string, now = Date.now()): CacheEntry<T> | null {
    const hit = this.#entries.get(key);
    if (!hit) return null;
    if (hit.until <= now) {
      this.#entries.delete(key);
      return null;
    }
    return hit.entry;
  }

  set(key: string, entry: CacheEntry<T>, now = Date.now()): void {
    if (!entry.fresh || this.#maxAgeMs <= 0) return;
    if (this.#entries.size >= this.#maxEntries) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
    this.#entries.set(key, { entry, until: Math.min(now + this.#maxAgeMs, entry.expiresAt) });
  }

  clear(): void {
    this.#entries.clear();
  }
}
