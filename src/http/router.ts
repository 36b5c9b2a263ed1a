import type { Result, Router } from 'hono/router';
import { TrieRouter } from 'hono/router/trie-router';

/** Node's parser knows ~35 methods; in-process requests may carry any token. */
const MAX_METHODS = 64;

/**
 * Hono's TrieRouter with its answers for parameterless paths (`/health`, `/api/posts`) remembered
 * per method. Hono's default router would pick RegExpRouter, whose map of static paths answers such
 * lookups at once, but RegExpRouter refuses this app's route set (`/api/leads/lookup` beside
 * `/api/leads/:id`, paths the spec fixes), so every request walked the trie: measured ~0.5 µs of a
 * ~18 µs `/health` request. Only registered parameterless paths (and at most MAX_METHODS methods) are
 * remembered, so what a caller can make it hold is bounded; adding a route forgets everything.
 */
export class StaticPathMemoRouter<T> implements Router<T> {
  readonly name = 'StaticPathMemoRouter';
  readonly #trie = new TrieRouter<T>();
  readonly #staticPaths = new Set<string>();
  /** Method → path → the trie's answer (never mutated by Hono: RegExpRouter shares its own too). */
  readonly #answers = new Map<string, Map<string, Result<T>>>();

  add(method: string, path: string, handler: T): void {
    this.#trie.add(method, path, handler);
    if (!/[:*?{]/.test(path)) this.#staticPaths.add(path);
    this.#answers.clear();
  }

  match(method: string, path: string): Result<T> {
    let byPath = this.#answers.get(method);
    const known = byPath?.get(path);
    if (known !== undefined) return known;
    const answer = this.#trie.match(method, path);
    if (this.#staticPaths.has(path) && (byPath !== undefined || this.#answers.size < MAX_METHODS)) {
      if (byPath === undefined) {
        byPath = new Map();
        this.#answers.set(method, byPath);
      }
      byPath.set(path, answer);
    }
    return answer;
  }
}
