import type { Context } from 'hono';
import { routePath } from 'hono/route';
import type { Logger } from 'pino';
import type { Metrics } from './metrics.ts';

/**
 * The one line per request (id via the request's child logger, method, matched route, status,
 * duration; never the client IP) and the same figures into the Prometheus metrics.
 */
export function logRequest(c: Context, logger: Logger, metrics: Metrics, startedAt: number): void {
  const matched = routePath(c, -1);
  const route = matched === '/*' || matched === '*' ? null : matched;
  const elapsedMs = performance.now() - startedAt;
  const status = c.res.status;
  logger.info(
    { method: c.req.method, route, status, durationMs: Math.round(elapsedMs * 100) / 100 },
    'request',
  );
  // Unmatched paths share one label so scanners cannot blow up the metric's cardinality.
  metrics.observeRequest(c.req.method, route ?? 'unmatched', status, elapsedMs / 1000);
}
