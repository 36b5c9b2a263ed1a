import type { Context } from 'hono';
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
  // W3C trace context, sent by a browser instrumented with OpenTelemetry (docs/operations.md).
  'traceparent',
  'tracestate',
];
export const CORS_EXPOSED_HEADERS = [
  'X-Request-Id',
  'Retry-After',
  'RateLimit-Policy',
  'RateLimit',
  'X-WP-Total',
  'X-WP-TotalPages',
  'X-Cache',
];
const PREFLIGHT_MAX_AGE_SECONDS = 600;
const EXPOSED = CORS_EXPOSED_HEADERS.join(', ');

/**
 * The CORS headers of an ordinary request, as ai-api.md fixes them for every route: the origin is
 * echoed only when it is on the allowlist (no wildcard, no credentials: the one path that allows them,
 * analytics track, says so in its own per-path headers), with `Vary: Origin` always.
 * Added to `headers` (lower-case names), which the edge puts on every response.
 */
export function addCorsHeaders(
  headers: Record<string, string>,
  origin: string | undefined,
  allowedOrigins: ReadonlySet<string>,
): void {
  headers.vary = 'Origin';
  if (origin !== undefined && allowedOrigins.has(origin)) {
    headers['access-control-allow-origin'] = origin;
    headers['access-control-expose-headers'] = EXPOSED;
  }
}

/**
 * A preflight (OPTIONS) answer: 204 with the path's real methods and, for an allowed origin, the
 * CORS preflight headers; 405 with `Allow` when the requested method is not one of them; 404 for
 * unknown paths (both thrown as ApiError, rendered by the caller's error handler).
 */
export function answerPreflight(
  c: Context<AppEnv>,
  options: { allowedOrigins: ReadonlySet<string>; routes: () => RouteTable },
): Response {
  const methods = options.routes().allowedMethods(c.req.path);
  if (!methods) throw new ApiError('NOT_FOUND', `No route matches ${c.req.path}.`);
  // Compared as sent (method names are case-sensitive; browsers send standard ones upper-case). A
  // preflight asks about the request to come, never about OPTIONS itself.
  const requested = c.req.header('access-control-request-method');
  if (requested !== undefined && (requested === 'OPTIONS' || !methods.includes(requested))) {
    throw new ApiError('METHOD_NOT_ALLOWED', `${requested} is not allowed on ${c.req.path}.`, {
      headers: { Allow: methods.join(', ') },
    });
  }
  c.header('Allow', methods.join(', '));
  const origin = c.req.header('origin');
  if (origin !== undefined && options.allowedOrigins.has(origin)) {
    c.header('Access-Control-Allow-Methods', methods.join(', '));
    c.header('Access-Control-Allow-Headers', CORS_ALLOWED_HEADERS.join(', '));
    c.header('Access-Control-Max-Age', String(PREFLIGHT_MAX_AGE_SECONDS));
  }
  return c.body(null, 204);
}
