import { createHash, timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import type { Config } from '../config.ts';
import type { AppEnv } from './env.ts';
import { ApiError } from './errors.ts';

/**
 * Constant-time comparison of a presented secret with the configured one. Both are hashed first so
 * the comparison takes the same time whatever their lengths. An unset secret matches nothing.
 */
export function secretMatches(presented: string | undefined | null, expected: string | undefined): boolean {
  if (!expected || !presented) return false;
  const a = createHash('sha256').update(presented).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/** Guards a route with a header secret from config; an unset secret rejects every request. */
export function requireHeaderSecret(
  headerName: string,
  pickSecret: (config: Config) => string | undefined,
): MiddlewareHandler<AppEnv> {
  return async function headerSecretMiddleware(c, next) {
    if (!secretMatches(c.req.header(headerName), pickSecret(c.env.deps.config))) {
      throw new ApiError('UNAUTHORIZED', `A valid ${headerName} header is required.`);
    }
    await next();
  };
}
