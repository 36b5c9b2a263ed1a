import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/support/test-app.ts';
import { namedQueue } from '../../queue/worker.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({
    env: { METRICS_API_SECRET: 'metrics-secret', ADMIN_API_SECRET: 'admin-secret' },
  });
});
afterAll(() => ctx.close());

describe('GET /metrics', () => {
  it('refuses without a secret and with a wrong one', async () => {
    expect((await ctx.app.request('/metrics')).status).toBe(401);
    expect((await ctx.app.request('/metrics', { headers: { Authorization: 'Bearer nope' } })).status).toBe(
      401,
    );
  });

  it('reports requests per route, queue depths and outside-service errors', async () => {
    ctx.deps.worker.register({ name: 'demo', handle: async () => {} });
    await namedQueue(ctx.deps.jobs, { name: 'demo' }).enqueue({});
    await ctx.app.request('/health');
    await ctx.app.request('/no/such/thing');
    ctx.deps.metrics.recordOutboundError('pipedrive');
    const credentials: Record<string, string>[] = [
      { Authorization: 'Bearer metrics-secret' },
      { Authorization: 'bearer metrics-secret' },
      { 'X-Admin-Api-Key': 'admin-secret' },
    ];
    for (const headers of credentials) {
      const res = await ctx.app.request('/metrics', { headers });
      expect(res.status).toBe(200);
      const text = await res.text();
      expect(text).toMatch(/http_requests_total\{method="GET",route="\/health",status="200"\} 1/);
      expect(text).toMatch(/http_requests_total\{method="GET",route="unmatched",status="404"\} 1/);
      expect(text).toContain('http_request_duration_seconds_bucket');
      expect(text).toMatch(/queue_jobs\{queue="demo",state="pending"\} 1/);
      expect(text).toMatch(/outbound_errors_total\{service="pipedrive"\} 1/);
    }
  });
});

describe('request metrics: counted on the request path, read at scrape time', () => {
  it('keeps cumulative buckets, sum and count per method and route across statuses and scrapes', async () => {
    const { Metrics } = await import('../../metrics.ts');
    const metrics = new Metrics({ jobs: ctx.deps.jobs, queueNames: () => [] });
    metrics.observeRequest('GET', '/api/posts', 200, 0.0005);
    metrics.observeRequest('GET', '/api/posts', 200, 0.02);
    metrics.observeRequest('GET', '/api/posts', 502, 30);
    const first = await metrics.registry.metrics();
    expect(first).toContain('http_requests_total{method="GET",route="/api/posts",status="200"} 2');
    expect(first).toContain('http_requests_total{method="GET",route="/api/posts",status="502"} 1');
    expect(first).toContain(
      'http_request_duration_seconds_bucket{le="0.001",method="GET",route="/api/posts"} 1',
    );
    expect(first).toContain(
      'http_request_duration_seconds_bucket{le="0.025",method="GET",route="/api/posts"} 2',
    );
    expect(first).toContain(
      'http_request_duration_seconds_bucket{le="10",method="GET",route="/api/posts"} 2',
    );
    expect(first).toContain(
      'http_request_duration_seconds_bucket{le="+Inf",method="GET",route="/api/posts"} 3',
    );
    expect(first).toContain('http_request_duration_seconds_sum{method="GET",route="/api/posts"} 30.0205');
    expect(first).toContain('http_request_duration_seconds_count{method="GET",route="/api/posts"} 3');
    metrics.observeRequest('GET', '/api/posts', 200, 0.0005);
    const second = await metrics.registry.metrics();
    expect(second).toContain('http_requests_total{method="GET",route="/api/posts",status="200"} 3');
    expect(second).toContain('http_request_duration_seconds_count{method="GET",route="/api/posts"} 4');
    metrics.registry.resetMetrics();
    expect(await metrics.registry.metrics()).not.toContain('route="/api/posts"');
  });
});
