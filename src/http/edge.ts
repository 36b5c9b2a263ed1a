import type { IncomingMessage, ServerResponse } from 'node:http';
import { getPath } from 'hono/utils/url';
import type { Logger } from 'pino';
import type { Dependencies } from '../dependencies.ts';
import { addCorsHeaders } from './cors.ts';
import { type EdgeHeaders, EdgeServerResponse } from './edge-response.ts';
import type { RequestEnv } from './env.ts';
import { resolveRequestId } from './request-id.ts';
import { requestLogger } from './request-log.ts';
import type { RouteTable } from './route-table.ts';

/** Hono's entry point: `app.fetch` (and `app.request`, which calls it). */
export type Dispatch = (
  request: Request,
  env?: unknown,
  executionCtx?: undefined,
) => Response | Promise<Response>;

export interface EdgeOptions {
  deps: Dependencies;
  /** Origins whose cross-origin requests are answered with CORS headers. */
  allowedOrigins: ReadonlySet<string>;
  /** Headers some paths carry on every response of theirs (the AI routes' `Cache-Control: no-store`). */
  headersFor: (path: string) => Readonly<Record<string, string>> | undefined;
  /** The app's routes, for the matched route pattern of the log line and the metrics. */
  routes: () => RouteTable;
}

/**
 * What every request goes through, wrapped around Hono's dispatch rather than registered as a Hono
 * middleware: its id (the caller's `X-Request-Id` when sane), the request environment handlers read
 * (`c.env.deps`, `c.env.requestId`, `c.env.logger`), the response headers every response carries
 * (`X-Request-Id`, `nosniff`, CORS, per-path headers) and afterwards the one log line and the metrics.
 * Outside Hono because a single middleware on every route costs a third of a small request's CPU:
 * it turns Hono's direct call of a route's one handler into its composed middleware chain (promises,
 * context checks), and context variables are re-copied into an object on every `c.var` read.
 * The CORS preflight and the body limit stay Hono handlers (`app.ts`): they need the routing.
 *
 * The edge's headers go on every response, whatever built it (`c.json`, a plain `Response` with
 * plain-object headers, an error handler, a stream): on the real server through the server's
 * response class (`EdgeServerResponse`), in-process (`app.request()`, no Node response) onto the
 * finished response, with the same merge rules.
 */
export function withEdge(dispatch: Dispatch, options: EdgeOptions): Dispatch {
  const { deps, allowedOrigins, headersFor, routes } = options;
  const logRequest = requestLogger(deps);
  return function edgeFetch(request, env) {
    const startedAt = performance.now();
    const node = env as { incoming?: IncomingMessage; outgoing?: ServerResponse } | undefined;
    const incoming = node?.incoming;
    const requestHeaders = incoming?.headers;
    const requestId = resolveRequestId(
      requestHeaders
        ? single(requestHeaders['x-request-id'])
        : (request.headers.get('x-request-id') ?? undefined),
    );
    const path = getPath(request);
    const headers: EdgeHeaders = { 'x-request-id': requestId, 'x-content-type-options': 'nosniff' };
    addCorsHeaders(
      headers,
      requestHeaders ? requestHeaders.origin : (request.headers.get('origin') ?? undefined),
      allowedOrigins,
    );
    const pathHeaders = headersFor(path);
    if (pathHeaders !== undefined) Object.assign(headers, pathHeaders);
    const outgoing = node?.outgoing;
    const onServer = outgoing instanceof EdgeServerResponse;
    if (onServer) outgoing.edgeHeaders = headers;

    const log = (status: number) =>
      logRequest({
        requestId,
        method: request.method,
        route: routes().routeOf(request.method, path),
        status,
        startedAt,
      });
    const finish = (response: Response): Response => {
      const answered = onServer ? response : withHeaders(response, headers);
      log(answered.status);
      return answered;
    };
    // Hono renders handler errors itself; a rejection here means its error handler failed too, and
    // the server adapter answers 500: logged as such.
    const failed = (error: unknown): never => {
      log(500);
      throw error;
    };
    const result = dispatch(request, new RequestScope(deps, requestId, path, incoming, outgoing));
    return result instanceof Promise ? result.then(finish, failed) : finish(result);
  };
}

/** The request environment: the request's child logger is made only when a handler logs. */
class RequestScope implements RequestEnv {
  readonly deps: Dependencies;
  readonly requestId: string;
  readonly path: string;
  readonly incoming: IncomingMessage | undefined;
  readonly outgoing: ServerResponse | undefined;
  #logger: Logger | undefined;

  constructor(
    deps: Dependencies,
    requestId: string,
    path: string,
    incoming: IncomingMessage | undefined,
    outgoing: ServerResponse | undefined,
  ) {
    this.deps = deps;
    this.requestId = requestId;
    this.path = path;
    this.incoming = incoming;
    this.outgoing = outgoing;
  }

  get logger(): Logger {
    this.#logger ??= this.deps.logger.child({ requestId: this.requestId });
    return this.#logger;
  }
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** The in-process path of the edge's headers: a handler's own header wins; `Vary` is combined. */
function withHeaders(response: Response, headers: EdgeHeaders): Response {
  let target = response;
  for (const name in headers) {
    const value = headers[name]!;
    if (name !== 'vary' && target.headers.has(name)) continue;
    try {
      if (name === 'vary') target.headers.append(name, value);
      else target.headers.set(name, value);
    } catch {
      // A response with immutable headers (one returned by fetch()): copy it once, then set.
      target = new Response(target.body, target);
      if (name === 'vary') target.headers.append(name, value);
      else target.headers.set(name, value);
    }
  }
  return target;
}
