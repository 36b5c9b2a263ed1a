import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestContext } from '../../../test/support/test-app.ts';
import { AI_RATE } from './limits.ts';
import { AiErrorSchema } from './schemas.ts';

const LIMIT = 2;
let ctx: TestContext & { url: string };
beforeAll(async () => {
  ctx = await startTestServer({ env: { TRUST_PROXY: 'xff', AI_RATE_LIMIT: String(LIMIT) } });
});
afterAll(() => ctx.close());

const post = (path: string, ip: string) =>
  fetch(`${ctx.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
    body: JSON.stringify({ message: 'A website for our bakery with online orders.' }),
  });

describe('AI routes: per-IP rate limits across the shared database', () => {
  it.each(['/api/ai/recommend-plan', '/api/ai/refine'])(
    '%s allows AI_RATE_LIMIT, then 429 rate_limited',
    async (path) => {
      const ip = path.endsWith('refine') ? '198.51.100.20' : '198.51.100.10';
      for (let i = 0; i < LIMIT; i++) expect((await post(path, ip)).status).toBe(200);
      const limited = await post(path, ip);
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(limited.headers.get('cache-control')).toBe('no-store');
      const body = await limited.json();
      expect(body).toEqual({ error: { code: 'rate_limited', message: expect.any(String) } });
      // The OpenAPI document describes the 429 with this schema: it must accept what is sent.
      expect(AiErrorSchema.safeParse(body).success).toBe(true);
      // Another client is not affected.
      expect((await post(path, '198.51.100.99')).status).toBe(200);
    },
  );

  it('search-test allows searchTestFactor times the limit', async () => {
    const get = () =>
      fetch(`${ctx.url}/api/ai/search-test?q=website`, { headers: { 'x-forwarded-for': '198.51.100.30' } });
    const statuses: number[] = [];
    for (let i = 0; i <= LIMIT * AI_RATE.searchTestFactor; i++) statuses.push((await get()).status);
    expect(statuses.slice(0, -1).every((s) => s === 200)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });

  it('counts rejected requests too (a flood of invalid bodies is limited as well)', async () => {
    const bad = () =>
      fetch(`${ctx.url}/api/ai/refine`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.40' },
        body: '{',
      });
    const statuses: number[] = [];
    for (let i = 0; i <= LIMIT; i++) statuses.push((await bad()).status);
    expect(statuses).toEqual([...Array(LIMIT).fill(400), 429]);
  });
});
