import { AsyncLocalStorage } from 'node:async_hooks';
import type { SpanContext } from './trace-context.ts';
import type { Span, Tracer } from './tracer.ts';

/** The span work runs in (a request's, a job's) and the tracer that makes its children. */
export interface ActiveSpan {
  readonly span: Span;
  readonly tracer: Tracer;
}

const active = new AsyncLocalStorage<ActiveSpan>();

/**
 * Runs `work` in `span`: whatever it does, awaits or starts (timers, background work, the jobs it
 * enqueues) sees it through `activeSpan()`. AsyncLocalStorage rather than a context argument, so
 * that feature logic carries no tracing code: the edge hook enters the request's span, the queue
 * worker a job's, and the clients of outside services read it for their headers.
 */
export function runInSpan<T>(current: ActiveSpan, work: () => T): T {
  return active.run(current, work);
}

export function activeSpan(): ActiveSpan | undefined {
  return active.getStore();
}

/** The active span's context, if any (what the job queue stores with a job). */
export function activeSpanContext(): SpanContext | undefined {
  return active.getStore()?.span.context;
}

/**
 * The logger's mixin: `traceId` on every line logged in a span (a request's, a job's), so that the
 * lines of one request can be found across instances and outside services' logs. Outside a span it
 * returns null, which `mergeTraceLogFields` passes over (pino's own merge would copy every line's
 * fields into a new object for nothing).
 */
export function traceLogFields(): { traceId: string } | null {
  const current = active.getStore();
  return current === undefined ? null : { traceId: current.span.context.traceId };
}

/** pino's `mixinMergeStrategy` for `traceLogFields`: the line's fields after the trace id. */
export function mergeTraceLogFields(line: object, fields: object | null): object {
  return fields === null ? line : Object.assign(fields, line);
}
