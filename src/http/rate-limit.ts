import type { Context, MiddlewareHandler } from 'hono';
import type { Config } from '../config.ts';
import { clientOrigin, limitKey } from './client-ip.ts';
import type { AppEnv } from './env.ts';
import { ApiError } from './errors.ts';
import { type RateLimitPolicy, rateLimitFields, refusalFields } from './rate-limit-fields.ts';

export interface RateLimitRule {
  /** Names the bucket family, e.g. `leads`; the key is `<name>:<client ip>` (an IPv6 client by its /64). */
  name: string;
  /** Requests per window, or a function of the configuration (a result of 0 turns the limit off). */
  limit: number | ((config: Config) => number);
  windowMs: number;
  /** The 429's message (default: a general one). */
  message?: string;
}

/** A rule checked once, at start-up: a typo in a limit fails the start, not a request. */
function checkedRule(rule: RateLimitRule): (config: Config) => number {
  if ((typeof rule.limit === 'number' && rule.limit < 1) || rule.windowMs < 1000) {
    throw new Error(`rate limit ${rule.name}: invalid rule`);
  }
  return typeof rule.limit === 'number' ? () => rule.limit as number : rule.limit;
}

/** The policy a rule advertises in `RateLimit-Policy` (rate-limit-fields.ts). */
export function policyOf(rule: RateLimitRule, limit: number): RateLimitPolicy {
  return { name: rule.name, quota: limit, windowSeconds: Math.round(rule.windowMs / 1000) };
}

/**
 * Counts this request against a per-client-IP rule, in the database so the limit holds across
 * instances. Over the limit: throws 429 RATE_LIMITED with `Retry-After`, `RateLimit-Policy` and
 * `RateLimit`. Allowed: sets those two fields on the answer (they stay on an error answered later) and
 * returns them, for a route that answers with a plain Response. A request whose IP cannot be known
 * (no socket, as with in-process tests), or a rule whose limit is 0, is not limited: null.
 */
export function rateLimiter(
  rule: RateLimitRule,
): (c: Context<AppEnv>) => Promise<Record<string, string> | null> {
  const limitOf = checkedRule(rule);
  return async function takeRateLimit(c) {
    const { config } = c.env.deps;
    const limit = limitOf(config);
    const key = limitKey(clientOrigin(c, config.trustProxy).ip);
    if (!key || limit <= 0) return null;
    const result = await c.env.deps.rateLimiter.hit(`${rule.name}:${key}`, limit, rule.windowMs);
    const policy = policyOf(rule, limit);
    if (!result.allowed) {
      throw new ApiError(
        'RATE_LIMITED',
        rule.message ?? 'Too many requests; please wait before trying again.',
        {
          headers: refusalFields(policy, result.retryAfterSeconds),
        },
      );
    }
    const fields = rateLimitFields(policy, {
      remaining: result.remaining,
      resetSeconds: result.retryAfterSeconds,
    });
    for (const name in fields) c.header(name, fields[name]);
    return fields;
  };
}

/** `rateLimiter` as a route middleware: the limit is taken before anything else of the route runs. */
export function rateLimit(rule: RateLimitRule): MiddlewareHandler<AppEnv> {
  const take = rateLimiter(rule);
  return async function rateLimitMiddleware(c, next) {
    await take(c);
    await next();
  };
}
