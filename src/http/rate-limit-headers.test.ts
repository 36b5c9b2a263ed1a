import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestContext } from '../../test/support/test-app.ts';
import { policyItem, rateLimitFields, refusalFields, serviceLimitItem } from './rate-limit-fields.ts';

describe('RateLimit-Policy and RateLimit fields (draft-ietf-httpapi-ratelimit-headers-10)', () => {
  it('writes Structured Field lists of a policy-name String with integer parameters', () => {
    expect(policyItem({ name: 'contact', quota: 10, windowSeconds: 3600 })).toBe('"contact";q=10;w=3600');
    expect(serviceLimitItem('contact', { remaining: 7, resetSeconds: 1834 })).toBe('"contact";r=7;t=1834');
    expect(
      rateLimitFields({ name: 'a', quota: 2, windowSeconds: 60 }, { remaining: 0, resetSeconds: 5 }),
    ).toEqual({ 'RateLimit-Policy': '"a";q=2;w=60', RateLimit: '"a";r=0;t=5' });
    expect(refusalFields({ name: 'a', quota: 2, windowSeconds: 60 }, 41)).toEqual({
      'RateLimit-Policy': '"a";q=2;w=60',
      RateLimit: '"a";r=0;t=41',
      'Retry-After': '41',
    });
  });

  it('escapes the name as an SF String and keeps the integers in range', () => {
    expect(policyItem({ name: 'we"ird\\ñame', quota: -3, windowSeconds: 0.4 })).toBe(
      '"we\\"ird\\\\ame";q=0;w=1',
    );
    expect(serviceLimitItem('x', { remaining: 2.7, resetSeconds: 1e20 })).toBe('"x";r=2;t=999999999999999');
  });
});

/**
 * Every route behind the shared per-IP limiter advertises its policy and what is left of it, on
 * whatever it answers once the limit was taken (here: refusals of an invalid body that the route reads
 * after the limit), and documents both in /openapi.json.
 */
describe('limited routes carry the limit headers', () => {
  let ctx: TestContext & { url: string };
  beforeAll(async () => {
    ctx = await startTestServer({
      env: { TRUST_PROXY: 'xff', CHAT_API_SECRET: 'chat-secret-for-tests', ANALYTICS_TRACK_RATE_LIMIT: '4' },
    });
  });
  afterAll(() => ctx.close());

  const json = { 'content-type': 'application/json' };
  it.each([
    ['POST', '/api/leads', json, '{}', /^"leads";q=\d+;w=\d+$/],
    ['POST', '/api/support/send', json, '{}', /^"support-send";q=20;w=3600$/],
    [
      'POST',
      '/api/support/tickets',
      { 'content-type': 'text/plain' },
      'x',
      /^"support-tickets";q=20;w=3600$/,
    ],
    ['POST', '/api/seo/analyze', json, '{}', /^"seo";q=30;w=3600$/],
    ['POST', '/api/diagnostic/analyze', json, '{}', /^"diagnostics";q=\d+;w=3600$/],
    [
      'POST',
      '/api/chat/stream',
      { ...json, 'x-chat-api-key': 'chat-secret-for-tests' },
      '{}',
      /^"chat";q=30;w=60$/,
    ],
  ])('%s %s', async (method, path, headers, body, policy) => {
    const res = await fetch(`${ctx.url}${path}`, {
      method,
      headers: { ...headers, 'x-forwarded-for': '203.0.113.77' },
      body,
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.headers.get('ratelimit-policy')).toMatch(policy);
    const name = /^"([^"]+)"/.exec(res.headers.get('ratelimit-policy') ?? '')?.[1];
    expect(res.headers.get('ratelimit')).toMatch(new RegExp(`^"${name}";r=\\d+;t=\\d+$`));
  });

  it('analytics track says what is left from half-way through its limit, and on its 429', async () => {
    const track = () =>
      fetch(`${ctx.url}/api/analytics/track`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain', 'x-forwarded-for': '203.0.113.78' },
        body: JSON.stringify({ page: '/pricing' }),
      });
    const seen: (string | null)[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await track();
      expect(res.status).toBe(202);
      seen.push(res.headers.get('ratelimit'));
    }
    expect(seen[0]).toBeNull();
    expect(seen.slice(1)).toEqual([
      expect.stringMatching(/^"analytics-track";r=2;t=\d+$/),
      expect.stringMatching(/^"analytics-track";r=1;t=\d+$/),
      expect.stringMatching(/^"analytics-track";r=0;t=\d+$/),
    ]);
    const limited = await track();
    expect(limited.status).toBe(429);
    expect(limited.headers.get('ratelimit-policy')).toBe('"analytics-track";q=4;w=60');
    expect(limited.headers.get('ratelimit')).toMatch(/^"analytics-track";r=0;t=\d+$/);
  });

  it('documents Retry-After and the limit fields on every 429 of /openapi.json', async () => {
    const doc = (await (await fetch(`${ctx.url}/openapi.json`)).json()) as {
      paths: Record<
        string,
        Record<string, { responses?: Record<string, { headers?: Record<string, unknown> }> }>
      >;
    };
    const limited: string[] = [];
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const tooMany = operation.responses?.['429'];
        if (!tooMany) continue;
        limited.push(`${method.toUpperCase()} ${path}`);
        expect(Object.keys(tooMany.headers ?? {}), `${method} ${path}`).toEqual(
          expect.arrayContaining(['Retry-After', 'RateLimit-Policy', 'RateLimit']),
        );
      }
    }
    expect(limited).toEqual(
      expect.arrayContaining([
        'POST /api/contact',
        'POST /api/ai/refine',
        'GET /api/posts',
        'POST /api/analytics/track',
        'POST /api/leads/{id}/generate',
      ]),
    );
  });
});
