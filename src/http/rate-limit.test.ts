import { createRoute } from '@hono/zod-openapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestContext } from '../../test/support/test-app.ts';
import { limitKey } from './client-ip.ts';
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

const hit = (ip: string) =>
  fetch(`${ctx.url}/test/limited`, { method: 'POST', headers: { 'X-Forwarded-For': ip } });

describe('rate limit', () => {
  it('allows the limit per client IP, then answers 429 with Retry-After', async () => {
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await hit('203.0.113.7')).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const limited = await hit('203.0.113.7');
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await limited.json()).toMatchObject({ success: false, error: { code: 'RATE_LIMITED' } });
    expect((await hit('203.0.113.8')).status).toBe(200);
  });

  it('counts an IPv6 client by its /64: stepping to another address of it does not reset the limit', async () => {
    const statuses = [];
    for (const ip of ['2001:db8:5:6::1', '2001:db8:5:6::2', '2001:db8:5:6:a:b:c:d', '2001:db8:5:6:ffff::9']) {
      statuses.push((await hit(ip)).status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect((await hit('2001:db8:5:7::1')).status).toBe(200);
  });
});

describe('limitKey', () => {
  it('keeps an IPv4 address, and gives an IPv6 one as its /64', () => {
    expect(limitKey('203.0.113.7')).toBe('203.0.113.7');
    expect(limitKey('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(limitKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(limitKey(null)).toBeNull();
  });
});
