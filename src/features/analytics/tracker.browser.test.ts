import { readFileSync } from 'node:fs';
import { get, type IncomingHttpHeaders } from 'node:http';
import { createRequire } from 'node:module';
import { gunzipSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAS_CHROMIUM, launchChromium, warnIfNoChromium } from '../../../test/support/chromium.ts';
import { type StandIn, startStandIn } from '../../../test/support/stand-in.ts';
import { startTestServer } from '../../../test/support/test-app.ts';
import { trackerScript } from './tracker-script.ts';

// Headless Chromium names itself HeadlessChrome, which the bot filter drops: a visitor's browser.
const VISITOR_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';

const OTHER_UA =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0';

const PLAUSIBLE_MODULE = readFileSync(
  createRequire(import.meta.url).resolve('@plausible-analytics/tracker'),
  'utf8',
);

/** A link off the site that does not leave the page (the click is what is recorded). */
const OUTBOUND = `<a id="out" href="https://partner.example/offer?ref=agency" onclick="event.preventDefault()">Partner</a>`;

function sitePage(server: string, url: string): string {
  if (url.startsWith('/plausible.js')) return PLAUSIBLE_MODULE;
  if (url.startsWith('/plausible')) {
    // The npm package as a site bundles it: its endpoint is this service's track route. It ignores
    // browsers driven by automation unless window.__plausible is set, and localhost unless told.
    return `<!doctype html><title>Plausible site</title><h1>Home</h1>${OUTBOUND}
      <script type="module">
        import { init, track } from '/plausible.js';
        window.__plausible = true;
        init({ domain: 'agency.example', endpoint: '${server}/api/analytics/track', outboundLinks: true, captureOnLocalhost: true });
        window.plausibleTrack = track;
      </script>`;
  }
  return `<!doctype html><title>Site</title><h1>Pricing</h1>${OUTBOUND}
    <script>window.agencyAnalytics = window.agencyAnalytics || function () {
      (window.agencyAnalytics.q = window.agencyAnalytics.q || []).push(arguments); };
      agencyAnalytics('queued_before_load');</script>
    <script defer src="${server}/api/analytics/script.js"></script>`;
}

warnIfNoChromium('Analytics tracker browser tests');

describe.skipIf(!HAS_CHROMIUM)('the tracker script and Plausible’s tracker, in Chromium', () => {
  let site: StandIn;
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let browser: Browser;

  beforeAll(async () => {
    let serverUrl = '';
    site = await startStandIn((req, res) => {
      const module = req.url.startsWith('/plausible.js');
      res.writeHead(200, { 'content-type': module ? 'text/javascript' : 'text/html; charset=utf-8' });
      res.end(sitePage(serverUrl, req.url));
    });
    server = await startTestServer({ env: { SITE_ORIGIN: site.url } });
    serverUrl = server.url;
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await site?.close();
  });

  async function visit(path: string, referer?: string, userAgent = VISITOR_UA): Promise<Page> {
    const context = await browser.newContext({ userAgent });
    const page = await context.newPage();
    await page.goto(`${site.url}${path}`, referer ? { referer } : {});
    return page;
  }

  const stats = async (query = '') => {
    const response = await fetch(`${server.url}/api/analytics/stats${query}`);
    return (await response.json()) as {
      totalEvents: number;
      pageviews: number;
      visits: number;
      eventTypes: { type: string; count: number }[];
      topPages: { page: string; count: number }[];
      sources: { source: string | null }[];
      utmCampaigns: { utmCampaign: string }[];
      browsers: { browser: string }[];
    };
  };
  const events = async () => {
    const response = await fetch(`${server.url}/api/analytics/events?limit=200`);
    return ((await response.json()) as { events: { type: string; page: string; properties: unknown }[] })
      .events;
  };

  /** The answer's bytes as sent (fetch would decompress them). */
  const rawScript = (acceptEncoding: string) =>
    new Promise<{ headers: IncomingHttpHeaders; bytes: Buffer }>((resolve, reject) => {
      get(
        `${server.url}/api/analytics/script.js`,
        { headers: { 'accept-encoding': acceptEncoding } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => resolve({ headers: res.headers, bytes: Buffer.concat(chunks) }));
        },
      ).on('error', reject);
    });

  it('is served small, gzip-compressed when accepted, cached by a content hash, with no cookie', async () => {
    const response = await fetch(`${server.url}/api/analytics/script.js`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/javascript/);
    expect(response.headers.get('cache-control')).toBe('public, max-age=3600');
    expect(response.headers.get('vary')).toMatch(/\bAccept-Encoding\b/);
    expect(response.headers.get('set-cookie')).toBeNull();
    // fetch asks for gzip (and undoes it).
    expect(response.headers.get('content-encoding')).toBe('gzip');
    const etag = response.headers.get('etag');
    expect(etag).toBe(trackerScript({ 'accept-encoding': 'gzip' }).etag);
    const body = await response.text();
    expect(body).not.toMatch(/localStorage|sessionStorage|document\.cookie/);

    const gzipped = await rawScript('gzip, deflate, br');
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gzipped.bytes.byteLength).toBeLessThan(2048);
    expect(gunzipSync(gzipped.bytes).toString('utf8')).toBe(body);
    // As written when gzip is not accepted, with a tag of its own.
    for (const acceptEncoding of ['identity', 'gzip;q=0, br', '']) {
      const plain = await rawScript(acceptEncoding);
      expect(plain.headers['content-encoding'], acceptEncoding).toBeUndefined();
      expect(plain.headers.etag).not.toBe(etag);
      expect(plain.bytes.toString('utf8')).toBe(body);
    }

    // RFC 9110's weak comparison: the tag as a CDN that compressed the script sends it back, in a list, or `*`.
    for (const ifNoneMatch of [etag!, `W/${etag}`, `"other", ${etag}`, '*']) {
      const again = await fetch(`${server.url}/api/analytics/script.js`, {
        headers: { 'If-None-Match': ifNoneMatch },
      });
      expect(again.status, ifNoneMatch).toBe(304);
    }
    const changed = await fetch(`${server.url}/api/analytics/script.js`, {
      headers: { 'If-None-Match': '"other"' },
    });
    expect(changed.status).toBe(200);
    await changed.text();
  });

  it('records the page view, an SPA navigation, an outbound click, custom events and time on page', async () => {
    const page = await visit('/pricing?utm_source=newsletter&utm_campaign=spring', 'https://www.google.com/');
    await expect.poll(async () => (await stats()).pageviews, { timeout: 10_000 }).toBe(1);
    await page.evaluate(() => history.pushState({}, '', '/app/step-2'));
    // The same page: an anchor and a query changed in place are no page views (Plausible's rule).
    await page.evaluate(() => {
      location.hash = 'faq';
      history.pushState({}, '', '/app/step-2?tab=2');
    });
    await page.click('#out');
    await page.evaluate(() => {
      const w = window as unknown as { agencyAnalytics: (n: string, p?: object, o?: object) => void };
      w.agencyAnalytics('signup', { plan: 'pro' });
      w.agencyAnalytics('video_autoplay', undefined, { interactive: false });
    });
    await expect
      .poll(async () => (await events()).map((e) => e.type).sort(), { timeout: 10_000 })
      .toEqual(['outbound_link', 'page_view', 'page_view', 'queued_before_load', 'signup', 'video_autoplay']);
    const list = await events();
    expect(list.find((e) => e.type === 'outbound_link')?.properties).toEqual({
      url: 'https://partner.example/offer',
    });
    expect(list.find((e) => e.type === 'signup')?.properties).toEqual({ plan: 'pro' });
    const report = await stats();
    expect(report.topPages.map((p) => p.page).sort()).toEqual(['/app/step-2', '/pricing']);
    expect(report).toMatchObject({ visits: 1, pageviews: 2 });
    // The visit's source is its tagged source; its campaign its UTM campaign; Chrome from the UA.
    expect(report.sources).toMatchObject([{ source: 'Newsletter' }]);
    expect(report.utmCampaigns).toMatchObject([{ utmCampaign: 'spring' }]);
    expect(report.browsers).toMatchObject([{ browser: 'Chrome' }]);
    // The SPA navigation sent the first page's visible time; leaving sends the second's.
    await page.context().close();
    await expect
      .poll(async () => {
        const visit = await server.deps.db
          .selectFrom('analytics_visits')
          .select('engagement_ms')
          .executeTakeFirst();
        return Number(visit?.engagement_ms ?? 0) > 0;
      })
      .toBe(true);
    expect((await stats()).pageviews).toBe(2);
  });

  it('sends the page view before the calls queued ahead of it: the visit keeps the referrer as its source', async () => {
    // Another visitor (another User-Agent): a visit of its own, arriving from a search engine untagged.
    const firefox = 'Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0';
    const page = await visit('/landing', 'https://www.google.com/', firefox);
    const query = '?entry_page=/landing';
    await expect.poll(async () => (await stats(query)).totalEvents, { timeout: 10_000 }).toBe(2);
    expect((await stats(query)).sources).toMatchObject([{ source: 'Google' }]);
    await page.context().close();
  });

  it('@plausible-analytics/tracker pointed at the track route works unchanged: its events count as ours', async () => {
    const before = await stats();
    // Another visitor (same address, another browser): a visit of its own.
    const page = await visit('/plausible?utm_campaign=plausible-launch', undefined, OTHER_UA);
    await expect.poll(async () => (await stats()).pageviews, { timeout: 10_000 }).toBe(before.pageviews + 1);
    await page.evaluate(() => history.pushState({}, '', '/plausible/next'));
    await page.click('#out');
    await page.evaluate(() => {
      const w = window as unknown as { plausibleTrack: (n: string, o?: object) => void };
      w.plausibleTrack('signup', { props: { plan: 'team' } });
    });
    await expect
      .poll(
        async () =>
          (await events())
            .filter((e) => e.page.startsWith('/plausible'))
            .map((e) => e.type)
            .sort(),
        {
          timeout: 10_000,
        },
      )
      .toEqual(['outbound_link', 'page_view', 'page_view', 'signup']);
    const list = await events();
    expect(list.find((e) => e.type === 'signup' && e.page.startsWith('/plausible'))?.properties).toEqual({
      plan: 'team',
    });
    expect(
      list.find((e) => e.type === 'outbound_link' && e.page.startsWith('/plausible'))?.properties,
    ).toEqual({
      url: 'https://partner.example/offer',
    });
    const report = await stats('?utm_campaign=plausible-launch');
    // Its engagement event (sent on the SPA navigation) is time on page: no page view, no event type.
    expect(report).toMatchObject({ visits: 1, pageviews: 2, totalEvents: 4 });
    expect(report.eventTypes.map((t) => t.type)).not.toContain('engagement');
    await page.context().close();
  });
});
