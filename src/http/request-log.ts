import type { MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import type { Logger } from 'pino';
import type { AppEnv } from './env.ts';
import type { Metrics } from './metrics.ts';

/**
 * One structured line per request (id, method, matched route, status, duration; never the client IP),
 * and the same figures into the Prometheus metrics.
 * Handlers log through `c.var.logger`, which carries the request id.
 */
export function requestLog(logger: Logger, metrics: Metrics): MiddlewareHandler<AppEnv> {
  return async function requestLogMiddleware(c, next) {
    const started = performance.now();
    const requestLogger = logger.child({ requestId: c.var.requestId });
    c.set('logger', requestLogger);
    await next();
    const matched = routePath(c, -1);
    const route = matched === '/*' || matched === '*' ? null : matched;
    const elapsedMs = performance.now() - started;
    const status = c.res.status;
    requestLogger.info(
      { method: c.req.method, route, status, durationMs: Math.round(elapsedMs * 100) / 100 },
      'request',
    );
    // Unmatched paths share one label so scanners cannot blow up the metric's cardinality.
    metrics.observeRequest(c.req.method, route ?? 'unmatched', status, elapsedMs / 1000);
  };
}
