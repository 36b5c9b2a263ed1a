import { createRoute } from '@hono/zod-openapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestContext } from '../testing/test-app.ts';
import { createRouter } from './openapi.ts';
import { rateLimit } from './rate-limit.ts';

let ctx: TestContext & { url: string };
beforeAll(async () => {
  const route = createRoute({
    method: 'post',
    path: '/test/limited',
    middleware: [rateLimit({ name: 'test', limit: 3, windowMs: 60_000 })] as const,
    responses: { 200: { description: 'ok' } },
  });
  ctx = await startTestServer({
    env: { TRUST_PROXY: 'xff' },
    extend: (app) =>
      app.route(
        '/',
        createRouter().openapi(route, (c) => c.json({ ok: true }, 200)),
      ),
  });
});
afterAll(() => ctx.close());

describe('rate limit', () => {
  it('allows the limit per client IP, then answers 429 with Retry-After', async () => {
    const hit = (ip: string) =>
      fetch(`${ctx.url}/test/limited`, { method: 'POST', headers: { 'X-Forwarded-For': ip } });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await hit('203.0.113.7')).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const limited = await hit('203.0.113.7');
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await limited.json()).toMatchObject({ success: false, error: { code: 'RATE_LIMITED' } });
    expect((await hit('203.0.113.8')).status).toBe(200);
  });
});
