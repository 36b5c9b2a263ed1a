import type { MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import type { Logger } from 'pino';
import type { AppEnv } from './env.ts';

/**
 * One structured line per request: id, method, matched route, status, duration. Never the client IP.
 * Handlers log through `c.var.logger`, which carries the request id.
 */
export function requestLog(logger: Logger): MiddlewareHandler<AppEnv> {
  return async function requestLogMiddleware(c, next) {
    const started = performance.now();
    const requestLogger = logger.child({ requestId: c.var.requestId });
    c.set('logger', requestLogger);
    await next();
    const route = routePath(c, -1);
    requestLogger.info(
      {
        method: c.req.method,
        route: route === '/*' || route === '*' ? null : route,
        status: c.res.status,
        durationMs: Math.round((performance.now() - started) * 100) / 100,
      },
      'request',
    );
  };
}
