import type { EdgeHeaders } from './edge-response.ts';
import type { RequestEnv } from './env.ts';
import type { ApiError } from './errors.ts';
import { endRequestSpan, traceRequest } from './tracing-hook.ts';

/**
 * The extension point for cross-cutting work: something every request must go through besides what
 * the edge does itself (request id, `nosniff`, CORS, per-path headers, the log line, the metrics).
 * A header on every response, an authentication check, a tracing span: each is one `EdgeHook` in
 * `EDGE_HOOKS` below, never an `app.use('*')` (a middleware on every route costs a third of a small
 * request's CPU; see `edge.ts`). Hooks run in list order for every request the app receives (404s,
 * 405s and CORS preflights included), before routing; with none registered the edge skips them.
 */
export interface EdgeHook {
  /** Named in the log when the hook fails. */
  readonly name: string;
  /**
   * Around the rest of the request: everything after the edge worked out the request id and headers
   * (the hooks' `onRequest`, the app, the log line and the metrics, the hooks' `onResponse`) runs
   * inside `next`, which it must call once and whose answer it returns. For what must hold for the
   * whole request, such as an AsyncLocalStorage context (the trace every log line and outbound call
   * of the request belongs to). Hooks with one wrap in list order, the first outermost.
   */
  around?<T>(request: EdgeRequest, next: () => T): T;
  /**
   * Before routing. May add response headers (`request.responseHeaders`; a handler's own header of the
   * same name wins, `Vary` is combined), or answer the request itself by returning a response, usually
   * `request.reject(new ApiError(…))` (an error in the path's own envelope); later hooks and the app
   * then do not run. The edge's headers, log line and metrics apply to that answer too. A hook that
   * throws fails the request with the adapter's bare 500: answer with `reject` instead.
   */
  onRequest?(request: EdgeRequest): Response | undefined | Promise<Response | undefined>;
  /**
   * Once the request is answered (the status is known, the body may still be streaming), for every hook
   * whose `onRequest` ran, the last one first: end a span, count something. Errors are logged.
   */
  onResponse?(request: EdgeRequest, status: number): void;
}

/** One request as the hooks see it. */
export interface EdgeRequest {
  readonly request: Request;
  /** The path as routed (percent-decoded). */
  readonly path: string;
  readonly requestId: string;
  /** What handlers see as `c.env`: the infrastructure (`deps`) and the request's logger. */
  readonly env: RequestEnv;
  /** The headers the edge adds to the response (lower-case names); add more here. */
  readonly responseHeaders: EdgeHeaders;
  /** A response answering `error` in the envelope of the request's path (AI or backend). */
  reject(error: ApiError): Response;
}

/** The hooks every request of the service goes through, in order. */
export const EDGE_HOOKS: readonly EdgeHook[] = [
  // Each request a span, the rest of it run in that span: the trace id on its log lines, its jobs and
  // its outbound calls (`traceparent`); exported with OTEL_EXPORTER_OTLP_ENDPOINT.
  { name: 'tracing', around: traceRequest, onResponse: endRequestSpan },
];
