import type { IncomingMessage, ServerResponse } from 'node:http';
import { getPath } from 'hono/utils/url';
import type { Logger } from 'pino';
import type { Infrastructure } from '../infrastructure.ts';
import { addCorsHeaders } from './cors.ts';
import type { EdgeHook, EdgeRequest } from './edge-hooks.ts';
import { type EdgeHeaders, EdgeServerResponse } from './edge-response.ts';
import type { RequestEnv } from './env.ts';
import type { ApiError } from './errors.ts';
import type { PathRules } from './paths.ts';
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
  deps: Infrastructure;
  /** Origins whose cross-origin requests are answered with CORS headers. */
  allowedOrigins: ReadonlySet<string>;
  /** What features declared about their paths: per-path headers, error envelopes. */
  paths: PathRules;
  /** The app's routes, for the matched route pattern of the log line and the metrics. */
  routes: () => RouteTable;
  /** Cross-cutting work added to every request (`http/edge-hooks.ts`), in order. */
  hooks?: readonly EdgeHook[];
}

/**
 * What every request goes through, wrapped around Hono's dispatch rather than registered as a Hono
 * middleware: its id (the caller's `X-Request-Id` when sane), the request environment handlers read
 * (`c.env.deps`, `c.env.requestId`, `c.env.logger`), the response headers every response carries
 * (`X-Request-Id`, `nosniff`, CORS, per-path headers), the registered edge hooks, and afterwards the
 * one log line and the metrics. Outside Hono because a single middleware on every route costs a third
 * of a small request's CPU: it turns Hono's direct call of a route's one handler into its composed
 * middleware chain (promises, context checks), and context variables are re-copied into an object on
 * every `c.var` read. The CORS preflight and the body limit stay Hono handlers (`app.ts`): they need
 * the routing. More work for every request is an `EdgeHook`, never an `app.use('*')`.
 *
 * The edge's headers go on every response, whatever built it (`c.json`, a plain `Response` with
 * plain-object headers, an error handler, a stream, a hook): on the real server through the server's
 * response class (`EdgeServerResponse`), in-process (`app.request()`, no Node response) onto the
 * finished response, with the same merge rules.
 */
export function withEdge(dispatch: Dispatch, options: EdgeOptions): Dispatch {
  const { deps, allowedOrigins, paths, routes } = options;
  const hooks = options.hooks ?? [];
  const arounds = hooks.filter((hook) => hook.around !== undefined);
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
    const pathHeaders = paths.headersFor(path);
    if (pathHeaders !== undefined) Object.assign(headers, pathHeaders);
    const outgoing = node?.outgoing;
    const onServer = outgoing instanceof EdgeServerResponse;
    if (onServer) {
      outgoing.edgeHeaders = headers;
      outgoing.routedPath = path;
    }
    const scope = new RequestScope(deps, requestId, path, incoming, outgoing);

    const edgeRequest =
      hooks.length === 0 ? null : new HookedRequest(request, scope, headers, paths, hooks.length);
    const log = (status: number) => {
      if (edgeRequest !== null) edgeRequest.answered(hooks, status);
      logRequest({
        requestId,
        method: request.method,
        route: routes().routeOf(request.method, path),
        status,
        startedAt,
      });
    };
    const finish = (response: Response): Response => {
      const answered = onServer ? response : withHeaders(response, headers);
      log(answered.status);
      return answered;
    };
    // Hono renders handler errors itself; a rejection here means its error handler (or a hook) failed,
    // and the server adapter answers 500: logged as such.
    const failed = (error: unknown): never => {
      log(500);
      throw error;
    };
    const handle = (): Response | Promise<Response> => {
      let result: Response | Promise<Response>;
      try {
        result =
          edgeRequest === null
            ? dispatch(request, scope)
            : edgeRequest.run(hooks, () => dispatch(request, scope));
      } catch (error) {
        return failed(error);
      }
      return result instanceof Promise ? result.then(finish, failed) : finish(result);
    };
    return edgeRequest === null || arounds.length === 0 ? handle() : around(arounds, edgeRequest, handle);
  };
}

/** `inner` inside each hook's `around`, the first hook outermost. */
function around<T>(hooks: readonly EdgeHook[], request: EdgeRequest, inner: () => T): T {
  let next = inner;
  for (let i = hooks.length - 1; i > 0; i--) {
    const hook = hooks[i]!;
    const then = next;
    next = () => hook.around!(request, then);
  }
  return hooks[0]!.around!(request, next);
}

/** The request environment: the request's child logger is made only when a handler logs. */
class RequestScope implements RequestEnv {
  readonly deps: Infrastructure;
  readonly requestId: string;
  readonly path: string;
  readonly incoming: IncomingMessage | undefined;
  readonly outgoing: ServerResponse | undefined;
  #logger: Logger | undefined;

  constructor(
    deps: Infrastructure,
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

/** A request as the hooks see it, and the bookkeeping of which hooks saw it. */
class HookedRequest implements EdgeRequest {
  readonly request: Request;
  readonly env: RequestEnv;
  readonly responseHeaders: EdgeHeaders;
  readonly #paths: PathRules;
  /** How many hooks' `onRequest` ran (the first ones, in order). */
  #entered: number;

  constructor(request: Request, env: RequestEnv, headers: EdgeHeaders, paths: PathRules, count: number) {
    this.request = request;
    this.env = env;
    this.responseHeaders = headers;
    this.#paths = paths;
    this.#entered = count;
  }

  get path(): string {
    return this.env.path;
  }

  get requestId(): string {
    return this.env.requestId;
  }

  reject(error: ApiError): Response {
    const { status, body, headers } = this.#paths.errorEnvelopeFor(this.env.path)(error, this.env.requestId);
    return new Response(JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json', ...headers },
    });
  }

  /** Each hook's `onRequest` in order; the first answer ends the walk, else the app answers. */
  run(hooks: readonly EdgeHook[], app: () => Response | Promise<Response>): Response | Promise<Response> {
    this.#entered = 0;
    const next = (from: number): Response | Promise<Response> => {
      for (let i = from; i < hooks.length; i++) {
        this.#entered = i + 1;
        const answer = hooks[i]!.onRequest?.(this);
        if (answer instanceof Promise) return answer.then((early) => early ?? next(i + 1));
        if (answer !== undefined) return answer;
      }
      return app();
    };
    return next(0);
  }

  /** `onResponse` of every hook whose `onRequest` ran, the last one first. */
  answered(hooks: readonly EdgeHook[], status: number): void {
    for (let i = this.#entered - 1; i >= 0; i--) {
      try {
        hooks[i]!.onResponse?.(this, status);
      } catch (error) {
        this.env.logger.error({ err: error, hook: hooks[i]!.name }, 'edge hook failed after the answer');
      }
    }
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
