import type { Context, MiddlewareHandler } from 'hono';
import type { Dependencies } from '../dependencies.ts';
import { bodyLimiter } from './body.ts';
import { addCorsHeaders } from './cors.ts';
import { type EdgeHeaders, EdgeServerResponse } from './edge-response.ts';
import type { AppEnv } from './env.ts';
import { resolveRequestId } from './request-id.ts';
import { logRequest } from './request-log.ts';

export interface EdgeOptions {
  deps: Dependencies;
  /** Origins whose cross-origin requests are answered with CORS headers. */
  allowedOrigins: ReadonlySet<string>;
  /** Paths that read their own (multipart or beacon) bodies with their own limits. */
  skipBodyLimit: (path: string) => boolean;
  /** Headers some paths carry on every response of theirs (the AI routes' `Cache-Control: no-store`). */
  headersFor: (path: string) => Readonly<Record<string, string>> | undefined;
  /** Answers a CORS preflight (OPTIONS); throws ApiError for unknown paths and refused methods. */
  preflight: (c: Context<AppEnv>) => Response;
  /** Renders an error thrown here (413, a refused preflight) the way the app's error handler does. */
  onError: (error: unknown, c: Context<AppEnv>) => Response | Promise<Response>;
}

/**
 * Everything every request goes through, in one middleware: its id (the caller's `X-Request-Id` when
 * sane), the dependencies and a logger carrying the id on the context, `nosniff`, the CORS headers
 * (and preflight answers), the body limit, and afterwards the one log line and the metrics. One
 * middleware instead of seven: each Hono middleware hop costs about as much as the work it does.
 *
 * The edge's response headers go on every response, whatever built it (`c.json`, a plain `Response`
 * with plain-object headers — the cheapest for the server to write —, an error handler, a stream):
 * on the real server through the server's response class (`EdgeServerResponse`), in-process
 * (`app.request()`, no Node response) onto the finished response, with the same merge rules.
 */
export function edge(options: EdgeOptions): MiddlewareHandler<AppEnv> {
  const { deps, allowedOrigins, skipBodyLimit, headersFor, preflight, onError } = options;
  const limitBody = bodyLimiter();
  return async function edgeMiddleware(c, next) {
    const startedAt = performance.now();
    const requestId = resolveRequestId(c.req.header('x-request-id'));
    const logger = deps.logger.child({ requestId });
    c.set('requestId', requestId);
    c.set('deps', deps);
    c.set('logger', logger);
    const path = c.req.path;
    const headers: EdgeHeaders = { 'x-request-id': requestId, 'x-content-type-options': 'nosniff' };
    addCorsHeaders(headers, c.req.header('origin'), allowedOrigins);
    const pathHeaders = headersFor(path);
    if (pathHeaders !== undefined) Object.assign(headers, pathHeaders);
    const outgoing = (c.env as { outgoing?: unknown } | undefined)?.outgoing;
    const onServer = outgoing instanceof EdgeServerResponse;
    if (onServer) outgoing.edgeHeaders = headers;
    try {
      if (c.req.method === 'OPTIONS') c.res = preflight(c);
      else if (skipBodyLimit(path)) await next();
      else await limitBody(c, next);
    } catch (error) {
      // Errors from the handlers were already rendered by Hono; these are the edge's own.
      c.res = await onError(error, c);
    }
    if (!onServer) addHeaders(c, headers);
    logRequest(c, logger, deps.metrics, startedAt);
  };
}

/** The in-process path of the edge's headers: a handler's own header wins; `Vary` is combined. */
function addHeaders(c: Context<AppEnv>, headers: EdgeHeaders): void {
  for (const name in headers) {
    if (name === 'vary') c.header(name, headers[name], { append: true });
    else if (!c.res.headers.has(name)) c.header(name, headers[name]);
  }
}
