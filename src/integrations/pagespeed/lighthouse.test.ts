import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIAGNOSTICS_QUEUE } from '../../features/diagnostics/limits.ts';
import { type StandIn, startStandIn } from '../../testing/stand-in.ts';
import { createTestApp, type TestContext } from '../../testing/test-app.ts';
import { findChrome } from './lighthouse-engine.ts';

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
