import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type StandIn, startStandIn } from '../../../test/support/stand-in.ts';
import { createTestApp, startTestServer, type TestContext } from '../../../test/support/test-app.ts';
import { DIAGNOSTICS_QUEUE } from '../../features/diagnostics/limits.ts';
import { findChrome } from './lighthouse-engine.ts';

// DNS for made-up public-looking names under example.test, answered here (in this process: the
// safe fetcher's check before a run); every other name goes to the system resolver.
vi.mock('node:dns/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:dns/promises')>();
  const table: Record<string, string> = {
    'intranet.example.test': '127.0.0.1',
    'metadata.example.test': '169.254.169.254',
  };
  const lookup = (async (hostname: string, options?: object) => {
    if (!hostname.endsWith('.example.test')) return real.lookup(hostname, options ?? {});
    const address = table[hostname];
    if (!address) throw Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return [{ address, family: 4 }];
  }) as typeof real.lookup;
  return { ...real, lookup };
});

/**
 * One real local Lighthouse run (Chromium at /usr/bin/chromium, ~10 s and ~750 MB): the page is on
 * 127.0.0.1, allowed through FETCH_ALLOW_HOSTS; it also tries to load an image from an internal
 * target by another name, which the browser's checking proxy must refuse.
 */
const chrome = findChrome(process.env.CHROME_PATH);

let page: StandIn;
let internal: StandIn;
let ctx: TestContext;

beforeAll(async () => {
  internal = await startStandIn((_req, res) => {
    res.writeHead(200, { 'content-type': 'image/png' });
    res.end();
  });
  const internalPort = new URL(internal.url).port;
  page = await startStandIn((req, res) => {
    if (req.url !== '/') {
      res.writeHead(404);
      res.end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Local Lighthouse fixture page</title>
<meta name="description" content="A small page served on loopback for the local Lighthouse test."></head>
<body><h1>Hello</h1><p>Some text for the paint metrics.</p>
<img src="http://localhost:${internalPort}/secret.png" width="10" height="10" alt="x">
<img src="http://169.254.169.254/latest/meta-data/x.png" width="10" height="10" alt="y"></body></html>`);
  });
  ctx = await createTestApp({
    env: { FETCH_ALLOW_HOSTS: '127.0.0.1', ...(chrome ? { CHROME_PATH: chrome } : {}) },
  });
});
afterAll(async () => {
  await ctx?.close();
  await page?.close();
  await internal?.close();
});

describe.skipIf(!chrome)('local Lighthouse', () => {
  it('analyses a local page through the queue, and the browser reaches no internal target', {
    timeout: 180_000,
  }, async () => {
    const pending = ctx.app.request('/api/diagnostic/analyze', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${page.url}/`, strategy: 'desktop' }),
    });
    for (let i = 0; i < 300; i++) {
      if ((await ctx.deps.jobs.status(DIAGNOSTICS_QUEUE)).counts.pending > 0) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    await ctx.deps.worker.drain(DIAGNOSTICS_QUEUE);
    const res = await pending;
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body.engine).toBe('lighthouse');
    expect(body.strategy).toBe('desktop');
    for (const name of ['performance', 'accessibility', 'bestPractices', 'seo']) {
      expect(body.scores[name], name).toBeGreaterThanOrEqual(0);
      expect(body.scores[name], name).toBeLessThanOrEqual(100);
    }
    for (const name of ['lcp', 'cls', 'tbt', 'fcp', 'speedIndex', 'serverResponseTime']) {
      expect(body.metrics[name].value, name).not.toBeNull();
      expect(typeof body.metrics[name].displayValue, name).toBe('string');
    }
    expect(body.fieldData).toBeNull();
    expect(page.requests.some((r) => r.url === '/')).toBe(true);
    expect(internal.requests).toHaveLength(0);
    expect(body.warnings.join(' ')).toContain('non-public addresses were blocked');

    const health = await (await ctx.app.request('/api/diagnostic/health')).json();
    expect(health).toMatchObject({
      status: 'ok',
      engine: 'lighthouse',
      pagespeedApiKeyConfigured: false,
      lighthouse: { chromiumFound: true },
    });
  });
});

type TestServer = Awaited<ReturnType<typeof startTestServer>>;

/** POSTs an analysis over real HTTP and runs the queue (workers do not run in tests). */
async function analyzeOverHttp(server: TestServer, url: string) {
  const pending = fetch(`${server.url}/api/diagnostic/analyze`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ url, strategy: 'desktop' }),
  });
  for (let i = 0; i < 300; i++) {
    if ((await server.deps.jobs.status(DIAGNOSTICS_QUEUE)).counts.pending > 0) break;
    await new Promise((r) => setTimeout(r, 10));
  }
  await server.deps.worker.drain(DIAGNOSTICS_QUEUE);
  const res = await pending;
  return { status: res.status, body: await res.json() };
}

/**
 * A public-looking name that resolves to a non-public address is refused before any browser starts,
 * so this needs no Chromium: CHROME_PATH only has to name an existing file for the local Lighthouse
 * engine to be chosen.
 */
describe('local Lighthouse: a name resolving to a non-public address', () => {
  let strict: TestServer;
  beforeAll(async () => {
    strict = await startTestServer({ env: { CHROME_PATH: chrome ?? process.execPath } });
  });
  afterAll(() => strict?.close());

  it.each([
    ['http://intranet.example.test/', 'http://127.0.0.1/'],
    ['https://metadata.example.test/latest/meta-data/', 'https://169.254.169.254/latest/meta-data/'],
  ])('answers %s with the same 400 as the literal %s', async (named, literal) => {
    const direct = await fetch(`${strict.url}/api/diagnostic/analyze`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: literal }),
    });
    const expected = await direct.json();
    expect(direct.status).toBe(400);

    const { status, body } = await analyzeOverHttp(strict, named);
    expect(status, JSON.stringify(body)).toBe(400);
    expect(body).toEqual({
      success: false,
      error: { code: 'VALIDATION_ERROR', message: expected.error.message, requestId: expect.any(String) },
    });
  });

  it('still answers 502 when the name does not resolve at all', async () => {
    const { status, body } = await analyzeOverHttp(strict, 'http://nowhere.example.test/');
    expect(status).toBe(502);
    expect(body.error).toMatchObject({
      code: 'EXTERNAL_SERVICE_ERROR',
      message: 'The host nowhere.example.test could not be resolved.',
    });
  });
});

describe.skipIf(!chrome)('local Lighthouse: redirects into non-public addresses, and real failures', () => {
  // The site is on 127.0.0.1, which FETCH_ALLOW_HOSTS makes count as a public site here.
  let server: TestServer;
  let site: StandIn;
  let closedPort: number;
  beforeAll(async () => {
    site = await startStandIn((req, res) => {
      if (req.url === '/to-metadata' || req.url === '/to-loopback-https') {
        const location =
          req.url === '/to-metadata' ? 'http://169.254.169.254/latest/meta-data/' : 'https://localhost/admin';
        res.writeHead(302, { location });
        res.end();
        return;
      }
      // A page that fails by itself: its refused image and frame are not what made it fail.
      res.writeHead(500, { 'content-type': 'text/html' });
      res.end(`<!doctype html><title>down</title><h1>Down for maintenance</h1>
<img src="http://169.254.169.254/x.png" alt=""><iframe src="https://localhost/"></iframe>`);
    });
    // A port nothing listens on: an upstream that refuses the connection.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    closedPort = (probe.address() as { port: number }).port;
    await new Promise((resolve) => probe.close(resolve));
    server = await startTestServer({ env: { FETCH_ALLOW_HOSTS: '127.0.0.1', CHROME_PATH: chrome! } });
  });
  afterAll(async () => {
    await server?.close();
    await site?.close();
  });

  it.each([
    ['/to-metadata', '169.254.169.254 is link-local'],
    ['/to-loopback-https', 'localhost is a local name'],
  ])(
    'answers a page redirecting (%s) into a non-public address with 400',
    {
      timeout: 180_000,
    },
    async (path, reason) => {
      const { status, body } = await analyzeOverHttp(server, `${site.url}${path}`);
      expect(status, JSON.stringify(body)).toBe(400);
      expect(body).toEqual({
        success: false,
        error: {
          code: 'VALIDATION_ERROR',
          message: `The URL leads to an address that cannot be analysed (${reason}).`,
          requestId: expect.any(String),
        },
      });
    },
  );

  it('still answers 502 for an upstream that refuses the connection, or a page that fails by itself', {
    timeout: 180_000,
  }, async () => {
    const unreachable = await analyzeOverHttp(server, `http://127.0.0.1:${closedPort}/`);
    expect(unreachable.status, JSON.stringify(unreachable.body)).toBe(502);
    expect(unreachable.body.error.code).toBe('EXTERNAL_SERVICE_ERROR');

    const failing = await analyzeOverHttp(server, `${site.url}/broken`);
    expect(failing.status, JSON.stringify(failing.body)).toBe(502);
    expect(failing.body.error).toMatchObject({
      code: 'EXTERNAL_SERVICE_ERROR',
      message: expect.stringContaining('Lighthouse could not load the page'),
    });
  });
});
