import { backendEnvelope, type ErrorEnvelopeOf } from './errors.ts';

/**
 * What the edge must know about some of a feature's paths before any route runs. A feature declares
 * these in its module (`features/<name>/module.ts`); the edge, the body limit, the error handler and
 * the server's answer to a request that never arrived all read them from one `PathRules`.
 */
export interface PathProperties {
  /** One path, exactly as routed (`/api/analytics/track`); or else `prefix`. */
  path?: string;
  /** Every path that starts with this (`/api/ai/`). */
  prefix?: string;
  /** The error envelope of these paths, 404/405/413 included (default: contract.md's backend one). */
  errorEnvelope?: ErrorEnvelopeOf;
  /** These paths read their own bodies with their own limits (multipart, beacons): no JSON body limit. */
  readsOwnBody?: boolean;
  /** Headers on every response of these paths, preflights and errors included (lower-case names). */
  headers?: Readonly<Record<string, string>>;
}

type Headers = Readonly<Record<string, string>>;

/**
 * For paths whose answers hold someone's personal data (a lead, a contact message, a chat): no
 * browser or shared cache keeps a copy (a shared computer's back button, a proxy in between).
 */
export const NO_STORE: Headers = { 'cache-control': 'no-store' };

/**
 * The declared path properties, looked up per request: an exact path before a prefix, a longer prefix
 * before a shorter one; a property an entry leaves out comes from the next entry that matches.
 */
export class PathRules {
  readonly #exact = new Map<string, PathProperties>();
  /** Longest first. */
  readonly #prefixes: PathProperties[] = [];

  constructor(declared: readonly PathProperties[]) {
    for (const entry of declared) {
      if ((entry.path === undefined) === (entry.prefix === undefined)) {
        throw new Error('a path property names exactly one of `path` and `prefix`');
      }
      if (entry.path !== undefined) {
        if (this.#exact.has(entry.path)) throw new Error(`path properties of ${entry.path} declared twice`);
        this.#exact.set(entry.path, entry);
      } else {
        if (this.#prefixes.some((p) => p.prefix === entry.prefix)) {
          throw new Error(`path properties of ${entry.prefix}* declared twice`);
        }
        this.#prefixes.push(entry);
      }
    }
    this.#prefixes.sort((a, b) => b.prefix!.length - a.prefix!.length);
  }

  /** The headers every response of `path` carries besides the edge's own, or undefined. */
  headersFor(path: string): Headers | undefined {
    return this.#find(path, 'headers');
  }

  errorEnvelopeFor(path: string): ErrorEnvelopeOf {
    return this.#find(path, 'errorEnvelope') ?? backendEnvelope;
  }

  readsOwnBody(path: string): boolean {
    return this.#find(path, 'readsOwnBody') ?? false;
  }

  #find<K extends keyof PathProperties>(path: string, key: K): PathProperties[K] | undefined {
    const value = this.#exact.get(path)?.[key];
    if (value !== undefined) return value;
    for (const entry of this.#prefixes) {
      if (entry[key] !== undefined && path.startsWith(entry.prefix!)) return entry[key];
    }
    return undefined;
  }
}
