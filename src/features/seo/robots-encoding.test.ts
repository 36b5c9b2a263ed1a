import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StandIn, startStandIn } from '../../../test/support/stand-in.ts';
import { startTestServer, type TestContext } from '../../../test/support/test-app.ts';
import { SEO_LIMITS } from './limits.ts';

/**
 * robots.txt written by hand names paths as people type them (`/diseño`), or encoded with lower-case
 * hex; browsers and crawlers request them encoded (`/dise%C3%B1o-web`). The analysis must read both
 * as the same path, as Google does.
 */
const ROBOTS = ['User-agent: *', 'Disallow: /diseño', 'Disallow: /caf%c3%a9/', 'Disallow: /a%2Fb', ''].join(
  '\n',
);

let site: StandIn;
let ctx: TestContext & { url: string };
beforeAll(async () => {
  site = await startStandIn((req, res) => {
    if (new URL(req.url, 'http://x').pathname === '/robots.txt') {
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(ROBOTS);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      '<!doctype html><html lang="es"><head><title>Página</title></head><body><h1>Hola</h1></body></html>',
    );
  });
  ctx = await startTestServer({ env: { FETCH_ALLOW_HOSTS: '127.0.0.1' } });
});
afterAll(async () => {
  await ctx.close();
  await site.close();
});

async function analyze(url: string) {
  const res = await fetch(`${ctx.url}/api/seo/analyze`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ url }),
  });
  const body = (await res.json()) as { findings: { id: string; severity: string }[] };
  return { res, blocked: body.findings.some((f) => f.id === 'robots-txt') };
}

describe('robots.txt rules compared percent-encoded, over HTTP', () => {
  it.each([
    ['an unencoded path under an unencoded rule', '/diseño-web', true],
    ['the encoded path a browser requests', '/dise%C3%B1o-web', true],
    ['a lower-case escape in the URL', '/dise%c3%b1o/precios', true],
    ['a rule written with lower-case escapes', '/café/menu', true],
    ['the same, encoded', '/caf%C3%A9/menu', true],
    ['an encoded slash, kept encoded', '/a%2fb', true],
    ['a real slash, which the encoded one is not', '/a/b', false],
    ['a path no rule names', '/diseno-web', false],
  ])('%s: %s', async (_label, path, blocked) => {
    const result = await analyze(`${site.url}${path}`);
    expect(result.res.status).toBe(200);
    expect(result.blocked).toBe(blocked);
  });

  it('the analysis route advertises its limit on a success', async () => {
    const { res } = await analyze(`${site.url}/limit-headers`);
    expect(res.headers.get('ratelimit-policy')).toBe(`"seo";q=${SEO_LIMITS.ratePerHour};w=3600`);
    expect(res.headers.get('ratelimit')).toMatch(/^"seo";r=\d+;t=\d+$/);
  });
});
