import { activeSpan } from './context.ts';
import { traceHeaders } from './trace-context.ts';
import { ID_ONLY_TRACER, type SpanOutcome } from './tracer.ts';

/** A call to an outside service, as a child span of the work it is made for. */
export interface OutboundCall {
  /** `traceparent` (and `tracestate`) naming the call's span: send them with the call. */
  readonly headers: Record<string, string>;
  readonly traceId: string;
  /** Ends the call's span: with the answer's HTTP status, or the error it failed with. */
  end(outcome?: SpanOutcome): void;
}

/**
 * Starts the span of a call to an outside service (`service`: `pipedrive`, `smtp` …): a child of the
 * active request's or job's span, or, outside any, the first span of a new trace. The clients of
 * outside services call this; feature logic never does.
 */
export function startOutboundCall(
  service: string,
  attributes: Record<string, string | number | boolean> = {},
): OutboundCall {
  const current = activeSpan();
  const tracer = current?.tracer ?? ID_ONLY_TRACER;
  const span = tracer.startSpan(service, {
    kind: 'client',
    parent: current?.span.context ?? null,
    attributes: { 'peer.service': service, ...attributes },
  });
  return { headers: traceHeaders(span.context), traceId: span.context.traceId, end: (o) => span.end(o) };
}

/**
 * Runs one HTTP call to an outside service in its span: `call` gets the headers to send and returns
 * the response, whose status ends the span (a thrown error ends it too, and is thrown on).
 */
export async function tracedFetch(
  service: string,
  attributes: Record<string, string | number | boolean>,
  call: (headers: Record<string, string>) => Promise<Response>,
): Promise<Response> {
  const outbound = startOutboundCall(service, attributes);
  try {
    const response = await call(outbound.headers);
    outbound.end({ status: response.status });
    return response;
  } catch (error) {
    outbound.end({ error });
    throw error;
  }
}
