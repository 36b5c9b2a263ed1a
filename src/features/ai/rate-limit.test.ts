import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestContext } from '../../../test/support/test-app.ts';
import { AI_LIMITS, AI_RATE } from './limits.ts';
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

  it('validates first: ten invalid requests answer 400 and cost nothing, then AI_RATE_LIMIT valid ones pass', async () => {
    const ip = '198.51.100.40';
    const send = (body: string, contentType = 'application/json') =>
      fetch(`${ctx.url}/api/ai/refine`, {
        method: 'POST',
        headers: { 'content-type': contentType, 'x-forwarded-for': ip },
        body,
      });
    const invalid: [string, string?][] = [
      ['{'],
      ['[]'],
      ['{}'],
      [JSON.stringify({ message: '' })],
      [JSON.stringify({ message: '   ' })],
      [JSON.stringify({ message: 'x'.repeat(AI_LIMITS.messageMax + 1) })],
      [JSON.stringify({ message: 42 })],
      [JSON.stringify({ message: 'ok', locale: 'x'.repeat(AI_LIMITS.localeMax + 1) })],
      ['message=hello', 'application/x-www-form-urlencoded'],
      ['hello', 'text/plain'],
    ];
    for (const [body, type] of invalid) {
      const res = await send(body, type);
      expect(res.status, body.slice(0, 40)).toBe(400);
      expect((await res.json()).error.code).toBe('invalid_request');
      // Not counted, so no service limit is reported either.
      expect(res.headers.get('ratelimit')).toBeNull();
    }
    const valid = JSON.stringify({ message: 'A website for our bakery with online orders.' });
    for (let i = 1; i <= LIMIT; i++) {
      const res = await send(valid);
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-policy')).toBe(`"ai-refine";q=${LIMIT};w=${AI_RATE.windowMs / 1000}`);
      expect(res.headers.get('ratelimit')).toMatch(new RegExp(`^"ai-refine";r=${LIMIT - i};t=\\d+$`));
    }
    const limited = await send(valid);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('ratelimit')).toMatch(/^"ai-refine";r=0;t=\d+$/);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // Once limited, a broken request still learns what is wrong with it.
    expect((await send('{')).status).toBe(400);
  });

  it('exposes the limit headers to the site, cross-origin', async () => {
    const res = await fetch(`${ctx.url}/api/ai/search-test?q=website`, {
      headers: { 'x-forwarded-for': '198.51.100.50', origin: ctx.config.siteOrigin },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(ctx.config.siteOrigin);
    const exposed = (res.headers.get('access-control-expose-headers') ?? '').split(/,\s*/);
    expect(exposed).toEqual(expect.arrayContaining(['RateLimit', 'RateLimit-Policy', 'Retry-After']));
    expect(res.headers.get('ratelimit-policy')).toBe(
      `"ai-search";q=${LIMIT * AI_RATE.searchTestFactor};w=${AI_RATE.windowMs / 1000}`,
    );
  });
});
