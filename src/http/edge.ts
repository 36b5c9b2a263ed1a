import type { MiddlewareHandler } from 'hono';
import type { Dependencies } from '../dependencies.ts';
import { bodyLimiter } from './body.ts';
import { setCorsHeaders } from './cors.ts';
import type { AppEnv } from './env.ts';
import { resolveRequestId } from './request-id.ts';
import { logRequest } from './request-log.ts';

export interface EdgeOptions {
  deps: Dependencies;
  /** Paths that read their own (multipart or beacon) bodies with their own limits. */
  skipBodyLimit: (path: string) => boolean;
  /** Renders an error thrown here (413) the way the app's error handler does. */
  onError: (error: unknown, c: Parameters<MiddlewareHandler<AppEnv>>[0]) => Response | Promise<Response>;
}

/**
 * Everything every request goes through, in one middleware: its id (the caller's `X-Request-Id` when
 * sane), the dependencies and a logger carrying the id on the context, `nosniff`, the CORS headers,
 * the body limit, and afterwards the one log line and the metrics. One middleware instead of six:
 * each Hono middleware hop costs about as much as the work it does.
 *
 * Headers are prepared on the context before the handler runs; Hono copies them onto every response
 * built through the context (handlers must build responses with `c.json`, `c.body`, …).
 */
export function edge(options: EdgeOptions): MiddlewareHandler<AppEnv> {
  const { deps, skipBodyLimit, onError } = options;
  const allowedOrigins = new Set(deps.config.corsOrigins);
  const limitBody = bodyLimiter();
  return async function edgeMiddleware(c, next) {
    const startedAt = performance.now();
    const requestId = resolveRequestId(c.req.header('x-request-id'));
    const logger = deps.logger.child({ requestId });
    c.set('requestId', requestId);
    c.set('deps', deps);
    c.set('logger', logger);
    c.header('X-Request-Id', requestId);
    c.header('X-Content-Type-Options', 'nosniff');
    setCorsHeaders(c, allowedOrigins);
    try {
      if (skipBodyLimit(c.req.path)) await next();
      else await limitBody(c, next);
    } catch (error) {
      // Errors from the handlers were already rendered by Hono; this is the body limit's own.
      c.res = await onError(error, c);
    }
    logRequest(c, logger, deps.metrics, startedAt);
  };
}
