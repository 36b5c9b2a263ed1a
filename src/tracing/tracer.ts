import { newSpanId, newTraceId, type SpanContext } from './trace-context.ts';

/** What a span stands for: the request served, a call out, a queued job run. */
export type SpanKind = 'server' | 'client' | 'consumer';

export interface SpanOptions {
  kind: SpanKind;
  /** The span it belongs under; null starts a new trace. */
  parent: SpanContext | null;
  attributes?: Record<string, string | number | boolean>;
}

/** How a span ended: an HTTP status (5xx marks an error), or the error it failed with. */
export interface SpanOutcome {
  status?: number;
  error?: unknown;
}

export interface Span {
  readonly context: SpanContext;
  /** Ends the span (only the first call counts). */
  end(outcome?: SpanOutcome): void;
}

/**
 * Makes spans. The default (`ID_ONLY_TRACER`) only makes ids, so that a trace can be followed through
 * the logs and the outside services; with OTEL_EXPORTER_OTLP_ENDPOINT the OpenTelemetry SDK makes
 * them and exports them (`otel.ts`, loaded only then).
 */
export interface Tracer {
  startSpan(name: string, options: SpanOptions): Span;
  /** Exports what is still buffered and stops. */
  shutdown(): Promise<void>;
}

/**
 * Ids and nothing recorded: a child keeps its parent's trace id and `sampled` flag (the decision is
 * the caller's); a new trace is not sampled, since nothing here records it.
 */
export const ID_ONLY_TRACER: Tracer = {
  startSpan(_name, { parent }) {
    const context: SpanContext =
      parent === null
        ? { traceId: newTraceId(), spanId: newSpanId(), sampled: false }
        : parent.traceState === undefined
          ? { traceId: parent.traceId, spanId: newSpanId(), sampled: parent.sampled }
          : {
              traceId: parent.traceId,
              spanId: newSpanId(),
              sampled: parent.sampled,
              traceState: parent.traceState,
            };
    return { context, end: ignore };
  },
  shutdown: async () => {},
};

function ignore(): void {}
