import { type StandIn, sendJson, startStandIn } from './stand-in.ts';

/** One span as an OpenTelemetry collector received it (OTLP/JSON: ids as hex strings). */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  /** Empty for the first span of a trace. */
  parentSpanId: string;
  name: string;
  /** OTLP's SpanKind: 2 server, 3 client, 5 consumer. */
  kind: number;
  attributes: Record<string, string | number | boolean>;
  /** `service.name` and the other attributes of the resource that sent it. */
  resource: Record<string, string | number | boolean>;
  status: { code?: number; message?: string };
}

interface OtlpAttribute {
  key: string;
  value: { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number };
}

interface OtlpTraces {
  resourceSpans?: {
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: {
      spans?: (Omit<ReceivedSpan, 'attributes' | 'resource' | 'parentSpanId'> & {
        parentSpanId?: string;
        attributes?: OtlpAttribute[];
      })[];
    }[];
  }[];
}

/**
 * A local OpenTelemetry collector (tests only): `POST /v1/traces` in OTLP/HTTP with JSON bodies (what
 * @opentelemetry/exporter-trace-otlp-http sends), every span it received kept in `spans`. Protobuf
 * bodies are refused with 415, as a JSON-only collector would.
 */
export async function startOtlpReceiver(): Promise<StandIn & { spans: ReceivedSpan[] }> {
  const spans: ReceivedSpan[] = [];
  const standIn = await startStandIn((req, res) => {
    if (req.method !== 'POST' || req.url !== '/v1/traces') return sendJson(res, 404, {});
    if (!String(req.headers['content-type']).startsWith('application/json')) return sendJson(res, 415, {});
    const body = JSON.parse(req.body) as OtlpTraces;
    for (const resourceSpans of body.resourceSpans ?? []) {
      const resource = attributesOf(resourceSpans.resource?.attributes);
      for (const scopeSpans of resourceSpans.scopeSpans ?? []) {
        for (const span of scopeSpans.spans ?? []) {
          spans.push({
            traceId: span.traceId,
            spanId: span.spanId,
            parentSpanId: span.parentSpanId ?? '',
            name: span.name,
            kind: span.kind,
            attributes: attributesOf(span.attributes),
            resource,
            status: span.status ?? {},
          });
        }
      }
    }
    sendJson(res, 200, { partialSuccess: {} });
  });
  return Object.assign(standIn, { spans });
}

function attributesOf(attributes: OtlpAttribute[] | undefined): Record<string, string | number | boolean> {
  return Object.fromEntries(
    (attributes ?? []).map(({ key, value }) => [
      key,
      value.stringValue ?? value.boolValue ?? value.doubleValue ?? Number(value.intValue),
    ]),
  );
}
