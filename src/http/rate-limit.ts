import type { MiddlewareHandler } from 'hono';
import type { Config } from '../config.ts';
import { clientOrigin, limitKey } from './client-ip.ts';
import type { AppEnv } from './env.ts';
import { ApiError } from './errors.ts';

export interface RateLimitRule {
  /** Names the bucket family, e.g. `leads`; the key is `<name>:<client ip>` (an IPv6 client by its /64). */
  name: string;
  /** Requests per window, or a function of the configuration (a result of 0 turns the limit off). */
  limit: number | ((config: Config) => number);
  windowMs: number;
}

/**
 * Limits a public write route per client IP, in the database so the limit holds across instances.
 * Over the limit: 429 RATE_LIMITED with `Retry-After`. A request whose IP cannot be known (no socket,
 * as with in-process tests) is not limited.
 */
export function rateLimit(rule: RateLimitRule): MiddlewareHandler<AppEnv> {
  if ((typeof rule.limit === 'number' && rule.limit < 1) || rule.windowMs < 1000) {
    throw new Error(`rate limit ${rule.name}: invalid rule`);
  }
  const limitOf = typeof rule.limit === 'number' ? () => rule.limit as number : rule.limit;
  return async function rateLimitMiddleware(c, next) {
    const { config } = c.env.deps;
    const limit = limitOf(config);
    const key = limitKey(clientOrigin(c, config.trustProxy).ip);
    if (key && limit > 0) {
      const result = await c.env.deps.rateLimiter.hit(`${rule.name}:${key}`, limit, rule.windowMs);
      if (!result.allowed) {
        throw new ApiError('RATE_LIMITED', 'Too many requests; please wait before trying again.', {
          headers: { 'Retry-After': String(result.retryAfterSeconds) },
        });
      }
    }
    await next();
  };
}
