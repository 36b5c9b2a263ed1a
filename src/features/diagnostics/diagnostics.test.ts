import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StandIn, sendJson, startStandIn } from '../../../test/support/stand-in.ts';
import { createTestApp, type TestContext } from '../../../test/support/test-app.ts';
import { DIAGNOSTICS_QUEUE } from './limits.ts';

const RECORDED = JSON.parse(
  readFileSync(new URL('../../../test/support/fixtures/psi-response.json', import.meta.url), 'utf8'),
);
const KEY = 'psi-secret-key-12345';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let psi: StandIn;
let ctx: TestContext;

beforeAll(async () => {
  psi = await startStandIn((_req, res) => sendJson(res, 200, RECORDED));
  ctx = await createTestApp({
    env: { PAGESPEED_API_KEY: KEY, PAGESPEED_API_URL: `${psi.url}/runPagespeed` },
  });
});
afterAll(async () => {
  await ctx.close();
  await psi.close();
});

function analyze(body: unknown, app = ctx.app) {
  return app.request('/api/diagnostic/analyze', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/** Workers do not run in tests: wait for the request to enqueue its job, then run the queue. */
async function withQueue(pending: Promise<Response> | Response, test = ctx): Promise<Response> {
  for (let i = 0; i < 300; i++) {
    if ((await test.deps.jobs.status(DIAGNOSTICS_QUEUE)).counts.pending > 0) break;
    await sleep(10);
  }
  await sleep(50);
  await test.deps.worker.drain(DIAGNOSTICS_QUEUE);
  return pending;
}

describe('POST /api/diagnostic/analyze with PageSpeed Insights', () => {
  it('normalises the URL, runs PSI through the queue and answers the documented shape', async () => {
    const res = await withQueue(analyze({ url: '  HTTPS://Example.COM:443/#top' }));
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({
      success: true,
      url: 'https://example.com/',
      strategy: 'mobile',
      engine: 'pagespeed-insights',
      cached: false,
      scores: { performance: 58, accessibility: 87, bestPractices: 96, seo: 92 },
      metrics: { lcp: { displayValue: '4.6 s' }, serverResponseTime: { value: 212 } },
      fieldData: { scope: 'url', metrics: { lcp: { percentile: 2650 } } },
    });
    expect(body.opportunities.length).toBeGreaterThan(0);
    expect(new URL(psi.requests.at(-1)!.url, 'http://x').searchParams.get('url')).toBe(
      'https://example.com/',
    );
    expect(JSON.stringify(body)).not.toContain(KEY);
  });

  it('serves the same URL and strategy from the cache for 24 hours', async () => {
    const before = psi.requests.length;
    const res = await analyze({ url: 'https://example.com', strategy: 'mobile' });
    expect((await res.json()).cached).toBe(true);
    expect(psi.requests.length).toBe(before);
  });

  it('shares one run among concurrent identical requests, per strategy', async () => {
    const before = psi.requests.length;
    const requests = [1, 2, 3].map(() => analyze({ url: 'https://example.org/page', strategy: 'desktop' }));
    const [first, ...rest] = requests;
    await withQueue(first!);
    const bodies = await Promise.all(requests.map(async (r) => (await r).json()));
    for (const body of bodies)
      expect(body).toMatchObject({ success: true, strategy: 'desktop', url: 'https://example.org/page' });
    expect(psi.requests.length - before).toBe(1);
    expect(new URL(psi.requests.at(-1)!.url, 'http://x').searchParams.get('strategy')).toBe('desktop');
    void rest;
  });

  it.each([
    [{ url: 'not a url' }],
    [{ url: 'ftp://example.com/' }],
    [{ url: 'javascript:alert(1)' }],
    [{ url: 'https://user:pass@example.com/' }],
    [{ url: 'http://127.0.0.1/' }],
    [{ url: 'http://[::ffff:169.254.169.254]/' }],
    [{ url: 'http://2130706433/' }],
    [{ url: 'https://example.com:8443/' }],
    [{ url: 'https://example.com/', strategy: 'tablet' }],
    [{ url: '' }],
    [{}],
  ])('refuses %j with 400 before anything runs', async (input) => {
    const before = psi.requests.length;
    const res = await analyze(input);
    expect(res.status).toBe(400);
    expect((await res.json()).error.code).toBe('VALIDATION_ERROR');
    expect(psi.requests.length).toBe(before);
    expect((await ctx.deps.jobs.status(DIAGNOSTICS_QUEUE)).counts.pending).toBe(0);
  });

  it('answers 502 when the run fails', async () => {
    psi.setHandler((_req, res) =>
      sendJson(res, 400, { error: { code: 400, message: 'Lighthouse returned error: NO_FCP.' } }),
    );
    try {
      const res = await withQueue(analyze({ url: 'https://broken.example.com/' }));
      expect(res.status).toBe(502);
      const body = await res.json();
      expect(body.error.code).toBe('EXTERNAL_SERVICE_ERROR');
      expect(body.error.message).toContain('NO_FCP');
    } finally {
      psi.setHandler((_req, res) => sendJson(res, 200, RECORDED));
    }
  });

  it('needs a JSON body', async () => {
    const res = await ctx.app.request('/api/diagnostic/analyze', {
      method: 'POST',
      body: 'url=https://example.com',
    });
    expect(res.status).toBe(415);
  });

  it('reports the engine and that a key is configured, never the key', async () => {
    const res = await ctx.app.request('/api/diagnostic/health');
    const text = await res.text();
    expect(text).not.toContain(KEY);
    expect(JSON.parse(text)).toMatchObject({
      status: 'ok',
      engine: 'pagespeed-insights',
      pagespeedApiKeyConfigured: true,
      cacheTtlSeconds: 86400,
    });
  });
});

describe('diagnostics with no engine', () => {
  it.each([
    ['http://127.0.0.1/'],
    ['http://169.254.169.254/'],
    ['https://example.com:8443/'],
    ['ftp://example.com/'],
  ])('still refuses %s with 400 before answering 503', async (url) => {
    const bare = await createTestApp({ env: { CHROME_PATH: '/nonexistent/chromium' } });
    try {
      const res = await analyze({ url }, bare.app);
      expect(res.status).toBe(400);
      expect((await res.json()).error.code).toBe('VALIDATION_ERROR');
    } finally {
      await bare.close();
    }
  });

  it('answers 503 NOT_CONFIGURED and reports itself unavailable', async () => {
    const bare = await createTestApp({ env: { CHROME_PATH: '/nonexistent/chromium' } });
    try {
      const res = await analyze({ url: 'https://example.com/' }, bare.app);
      expect(res.status).toBe(503);
      expect((await res.json()).error.code).toBe('NOT_CONFIGURED');
      const health = await (await bare.app.request('/api/diagnostic/health')).json();
      expect(health).toMatchObject({
        status: 'unavailable',
        engine: null,
        pagespeedApiKeyConfigured: false,
        lighthouse: { chromiumFound: false },
      });
    } finally {
      await bare.close();
    }
  });
});
