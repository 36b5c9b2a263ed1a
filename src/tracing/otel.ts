/**
 * Spans exported through the OpenTelemetry SDK over OTLP/HTTP (JSON), when OTEL_EXPORTER_OTLP_ENDPOINT
 * is set. Loaded only then (a dynamic import in `createTracer`): the default path loads none of it.
 * The SDK makes the ids and records; which span is whose parent is ours to say (the edge hook, the
 * queue worker, the outbound clients pass it explicitly), so no OpenTelemetry context manager or
 * propagator is registered and nothing global is touched.
 */
import {
  createTraceState,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  TraceFlags,
  trace,
} from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import type { SpanContext } from './trace-context.ts';
import type { SpanKind as OurSpanKind, Span, Tracer } from './tracer.ts';

export interface OtelOptions {
  /** OTEL_EXPORTER_OTLP_ENDPOINT: the collector's base URL; spans go to `<endpoint>/v1/traces`. */
  endpoint: string;
  serviceName: string;
  serviceVersion: string;
  /** INSTANCE_ID, or host name and process id. */
  instanceId: string;
}

/** One export to the collector (the SDK's default is 10 s). */
const EXPORT_TIMEOUT_MS = 5000;
/** How long shutdown waits for the last spans to be exported. */
const SHUTDOWN_EXPORT_MS = 2000;

const KINDS: Record<OurSpanKind, SpanKind> = {
  server: SpanKind.SERVER,
  client: SpanKind.CLIENT,
  consumer: SpanKind.CONSUMER,
};

export function createOtelTracer(options: OtelOptions): Tracer {
  const provider = new TracerProvider({
    resource: resourceFromAttributes({
      'service.name': options.serviceName,
      'service.version': options.serviceVersion,
      'service.instance.id': options.instanceId,
    }),
    spanProcessors: [
      new BatchSpanProcessor({
        exporter: new OTLPTraceExporter({
          url: `${options.endpoint.replace(/\/+$/, '')}/v1/traces`,
          timeoutMillis: EXPORT_TIMEOUT_MS,
        }),
      }),
    ],
  });
  const tracer = provider.getTracer(options.serviceName, options.serviceVersion);
  return {
    startSpan(name, { kind, parent, attributes }): Span {
      const parentContext =
        parent === null ? ROOT_CONTEXT : trace.setSpanContext(ROOT_CONTEXT, toOtel(parent));
      const span = tracer.startSpan(name, { kind: KINDS[kind], attributes }, parentContext);
      const own = span.spanContext();
      const context: SpanContext = {
        traceId: own.traceId,
        spanId: own.spanId,
        sampled: (own.traceFlags & TraceFlags.SAMPLED) === TraceFlags.SAMPLED,
        ...(parent?.traceState ? { traceState: parent.traceState } : {}),
      };
      let ended = false;
      return {
        context,
        end(outcome = {}) {
          if (ended) return;
          ended = true;
          if (outcome.status !== undefined) span.setAttribute('http.response.status_code', outcome.status);
          if (outcome.error !== undefined || (outcome.status ?? 0) >= 500) {
            const error = outcome.error;
            span.setStatus({
              code: SpanStatusCode.ERROR,
              message: error instanceof Error ? error.message : undefined,
            });
          }
          span.end();
        },
      };
    },
    // A collector that does not answer must not hold the shutdown: what it has not taken is lost.
    shutdown: () =>
      Promise.race([
        provider.shutdown(),
        new Promise<void>((resolve) => setTimeout(resolve, SHUTDOWN_EXPORT_MS).unref()),
      ]),
  };
}

function toOtel(parent: SpanContext) {
  return {
    traceId: parent.traceId,
    spanId: parent.spanId,
    traceFlags: parent.sampled ? TraceFlags.SAMPLED : TraceFlags.NONE,
    isRemote: true,
    ...(parent.traceState ? { traceState: createTraceState(parent.traceState) } : {}),
  };
}
