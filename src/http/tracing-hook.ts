import { activeSpan, runInSpan } from '../tracing/context.ts';
import { parseTraceparent } from '../tracing/trace-context.ts';
import type { RequestEnv } from './env.ts';

/** What of a request the tracing hook reads (an `EdgeRequest`). */
interface TracedRequest {
  readonly request: Request;
  readonly path: string;
  readonly env: RequestEnv;
}

/**
 * The tracing edge hook's `around` (registered in `edge-hooks.ts`): every request is a span, a child
 * of the caller's W3C `traceparent` when it is valid, else the first span of a new trace. The rest of
 * the request runs in it (AsyncLocalStorage, `tracing/context.ts`), so its log line, every line
 * logged while it is served, the jobs it enqueues and every call it makes to an outside service carry
 * its trace id.
 */
export function traceRequest<T>(edge: TracedRequest, next: () => T): T {
  const incoming = edge.env.incoming?.headers;
  const parent = incoming
    ? parseTraceparent(single(incoming.traceparent), single(incoming.tracestate))
    : parseTraceparent(edge.request.headers.get('traceparent'), edge.request.headers.get('tracestate'));
  const tracer = edge.env.deps.tracer;
  const span = tracer.startSpan(edge.request.method, {
    kind: 'server',
    parent,
    attributes: { 'http.request.method': edge.request.method, 'url.path': edge.path },
  });
  return runInSpan({ span, tracer }, next);
}

/** The tracing edge hook's `onResponse`: the request's span ends with its status. */
export function endRequestSpan(_edge: TracedRequest, status: number): void {
  activeSpan()?.span.end({ status });
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(',') : value;
}
