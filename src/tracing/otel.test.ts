/**
 * With OTEL_EXPORTER_OTLP_ENDPOINT the spans of a request and of its outbound calls are exported
 * through the OpenTelemetry SDK (OTLP/HTTP JSON) to a local collector, in the trace of the caller's
 * `traceparent`; without it, the SDK is not even loaded.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ReceivedSpan, startOtlpReceiver } from '../../test/support/otlp-receiver.ts';
import { spawnServer } from '../../test/support/process.ts';
import { type StandIn, sendJson, startStandIn } from '../../test/support/stand-in.ts';
import { startTestServer } from '../../test/support/test-app.ts';
import { parseTraceparent } from './trace-context.ts';

const TRACE = '0af7651916cd43dd8448eb211c80319c';
const PARENT = 'b7ad6b7169203331';
const TRACEPARENT = `00-${TRACE}-${PARENT}-01`;

let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
let wordpress: StandIn;
beforeAll(async () => {
  receiver = await startOtlpReceiver();
  wordpress = await startStandIn((req, res) => {
    if (req.url.startsWith('/wp-json/wp/v2/posts')) {
      return sendJson(
        res,
        200,
        [{ id: 1, title: { rendered: 'Hello' }, excerpt: { rendered: '<p>One</p>' } }],
        {
          'x-wp-total': '1',
          'x-wp-totalpages': '1',
        },
      );
    }
    sendJson(res, 404, {});
  });
});
afterAll(async () => {
  await receiver.close();
  await wordpress.close();
});

describe('OTEL_EXPORTER_OTLP_ENDPOINT set', () => {
  it('exports the request span and its outbound span, in the trace of the incoming traceparent', async () => {
    const ctx = await startTestServer({
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        WORDPRESS_API_URL: `${wordpress.url}/wp-json/wp/v2`,
        INSTANCE_ID: 'otel-test-1',
      },
    });
    let status: number;
    try {
      const response = await fetch(`${ctx.url}/api/posts?per_page=1&page=1`, {
        headers: { traceparent: TRACEPARENT, 'x-request-id': 'otel-request' },
      });
      status = response.status;
      await response.arrayBuffer();
    } finally {
      // Shutdown exports what the SDK still buffers.
      await ctx.close();
    }
    expect(status).toBe(200);
    const inTrace = receiver.spans.filter((span) => span.traceId === TRACE);
    const server = only(inTrace, (span) => span.kind === 2);
    expect(server).toMatchObject({
      parentSpanId: PARENT,
      name: 'GET',
      attributes: {
        'http.request.method': 'GET',
        'url.path': '/api/posts',
        'http.response.status_code': 200,
      },
      resource: { 'service.name': 'agency-backend', 'service.instance.id': 'otel-test-1' },
    });
    const outbound = only(inTrace, (span) => span.kind === 3);
    expect(outbound).toMatchObject({
      name: 'wordpress',
      parentSpanId: server.spanId,
      attributes: { 'peer.service': 'wordpress', 'http.response.status_code': 200 },
    });
    // What WordPress was sent names the exported outbound span.
    const sent = parseTraceparent(wordpress.requests.at(-1)!.headers.traceparent as string);
    expect(sent).toEqual({ traceId: TRACE, spanId: outbound.spanId, sampled: true });
    // And the log line of the request carries the same trace.
    expect(ctx.logs.lines.find((l) => l.requestId === 'otel-request' && l.msg === 'request')).toMatchObject({
      traceId: TRACE,
    });
  });
});

function only(spans: ReceivedSpan[], which: (span: ReceivedSpan) => boolean): ReceivedSpan {
  const found = spans.filter(which);
  expect(found, JSON.stringify(spans)).toHaveLength(1);
  return found[0]!;
}

describe('which modules the service loads', () => {
  /**
   * Every module of the OpenTelemetry SDK the real server process resolved while serving a traced
   * request. `@opentelemetry/api` does not count: prom-client requires it at start-up whatever the
   * configuration (for exemplars), and it is a small facade that records nothing.
   */
  async function openTelemetryModulesLoaded(env: Record<string, string>): Promise<string[]> {
    const server = await spawnServer({ DATABASE_URL: 'sqlite::memory:', ...env }, 15_000, {
      nodeArgs: ['--import', './test/support/record-imports.ts'],
    });
    try {
      const response = await fetch(`${server.url}/health`, { headers: { traceparent: TRACEPARENT } });
      expect(response.status).toBe(200);
      expect((await fetch(`${server.url}/ready`)).status).toBe(200);
    } finally {
      expect(await server.stop()).toBe(0);
    }
    expect(server.output.some((line) => line.startsWith('resolved ') && line.includes('/src/main.js'))).toBe(
      true,
    );
    return server.output.filter(
      (line) =>
        line.startsWith('resolved ') &&
        line.includes('/@opentelemetry/') &&
        !line.includes('/@opentelemetry/api/'),
    );
  }

  it('by default: no module of the OpenTelemetry SDK', async () => {
    expect(await openTelemetryModulesLoaded({})).toEqual([]);
  });

  it('with OTEL_EXPORTER_OTLP_ENDPOINT: the SDK and the exporter', async () => {
    const loaded = await openTelemetryModulesLoaded({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url });
    expect(loaded.some((line) => line.includes('/@opentelemetry/sdk-trace/'))).toBe(true);
    expect(loaded.some((line) => line.includes('/@opentelemetry/exporter-trace-otlp-http/'))).toBe(true);
  });
});
