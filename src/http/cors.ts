import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './env.ts';
import { ApiError } from './errors.ts';
import type { RouteTable } from './route-table.ts';

export const CORS_ALLOWED_HEADERS = [
  'Content-Type',
  'X-Request-Id',
  'X-Chat-Api-Key',
  'X-Admin-Api-Key',
  'X-Cache-Api-Key',
  'Last-Event-ID',
];
export const CORS_EXPOSED_HEADERS = ['X-Request-Id', 'Retry-After', 'X-WP-Total', 'X-WP-TotalPages'];
const PREFLIGHT_MAX_AGE_SECONDS = 600;
const EXPOSED = CORS_EXPOSED_HEADERS.join(', ');

/**
 * CORS as ai-api.md fixes it, for every route: the origin is echoed only when it is on the allowlist
 * (no wildcard, no credentials), `Vary: Origin` always, and preflights answer 204 with the path's real
 * methods, 405 when the requested method is not one of them, 404 for unknown paths.
 */
export function cors(options: {
  allowedOrigins: string[];
  routes: () => RouteTable;
}): MiddlewareHandler<AppEnv> {
  const allowed = new Set(options.allowedOrigins);
  return async function corsMiddleware(c, next) {
    const origin = c.req.header('origin');
    const originAllowed = origin !== undefined && allowed.has(origin);

    if (c.req.method === 'OPTIONS') {
      const methods = options.routes().allowedMethods(c.req.path);
      if (!methods) throw new ApiError('NOT_FOUND', `No route matches ${c.req.path}.`);
      const requested = c.req.header('access-control-request-method')?.toUpperCase();
      if (requested !== undefined && !methods.includes(requested)) {
        throw new ApiError('METHOD_NOT_ALLOWED', `${requested} is not allowed on ${c.req.path}.`, {
          headers: { Allow: methods.join(', '), Vary: 'Origin' },
        });
      }
      const headers = new Headers({ Vary: 'Origin', Allow: methods.join(', ') });
      if (originAllowed) {
        headers.set('Access-Control-Allow-Origin', origin);
        headers.set('Access-Control-Allow-Methods', methods.join(', '));
        headers.set('Access-Control-Allow-Headers', CORS_ALLOWED_HEADERS.join(', '));
        headers.set('Access-Control-Max-Age', String(PREFLIGHT_MAX_AGE_SECONDS));
      }
      headers.set('X-Request-Id', c.var.requestId);
      return new Response(null, { status: 204, headers });
    }

    c.header('Vary', 'Origin', { append: true });
    if (originAllowed) {
      c.header('Access-Control-Allow-Origin', origin);
      c.header('Access-Control-Expose-Headers', EXPOSED);
    }
    await next();
  };
}
