import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAS_CHROMIUM, launchChromium, warnIfNoChromium } from '../../../test/support/chromium.ts';
import { type StandIn, startStandIn } from '../../../test/support/stand-in.ts';
import { startTestServer } from '../../../test/support/test-app.ts';

// Headless Chromium names itself HeadlessChrome, which the bot filter drops: a visitor's browser.
const VISITOR_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';

/**
 * The site's pages call this API from their own origin, as the agency's site does: every body
 * `navigator.sendBeacon` can send must arrive, a typed JSON Blob (preflighted with credentials) too.
 */
warnIfNoChromium('Analytics beacon browser tests');

describe.skipIf(!HAS_CHROMIUM)('analytics beacons from the site, cross-origin, in Chromium', () => {
  let site: StandIn;
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let browser: Browser;

  beforeAll(async () => {
    site = await startStandIn((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><title>Site</title><h1>Pricing</h1>');
    });
    server = await startTestServer({ env: { SITE_ORIGIN: site.url } });
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await site?.close();
  });

  const recordedPages = async () => {
    const response = await fetch(`${server.url}/api/analytics/events?limit=100`);
    const list = (await response.json()) as { events: { page: string }[] };
    return list.events.map((event) => event.page).sort();
  };

  it('records a string, a typed JSON Blob, an untyped Blob, URLSearchParams and FormData', async () => {
    const context = await browser.newContext({ userAgent: VISITOR_UA });
    const page = await context.newPage();
    await page.goto(`${site.url}/pricing`);
    const queued = await page.evaluate((endpoint) => {
      const event = (page: string) => JSON.stringify({ type: 'page_view', page });
      const form = new FormData();
      form.set('page', '/form-data');
      return [
        navigator.sendBeacon(endpoint, event('/string')),
        navigator.sendBeacon(endpoint, new Blob([event('/json-blob')], { type: 'application/json' })),
        navigator.sendBeacon(endpoint, new Blob([event('/untyped-blob')])),
        navigator.sendBeacon(endpoint, new URLSearchParams({ page: '/search-params' })),
        navigator.sendBeacon(endpoint, form),
      ];
    }, `${server.url}/api/analytics/track`);
    expect(queued).toEqual([true, true, true, true, true]);
    await expect
      .poll(recordedPages, { timeout: 10_000 })
      .toEqual(['/form-data', '/json-blob', '/search-params', '/string', '/untyped-blob']);
    await context.close();
  });
});
