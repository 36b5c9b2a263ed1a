import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StandIn, startStandIn } from '../../../test/support/stand-in.ts';
import { createTestApp, type TestContext } from '../../../test/support/test-app.ts';
import { MAX_HTML_ELEMENTS } from '../../text/html.ts';
import { runChecks } from './checks.ts';
import { SEO_LIMITS } from './limits.ts';
import { blocksIndexing, normalizeRobotsPath, parseRobots, type RobotsWork, robotsAllows } from './robots.ts';

const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');

function goodPage(base: string) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Fast websites for growing companies | Agency</title>
<meta name="description" content="We design and build fast, accessible websites and web applications for growing companies in Europe.">
<link rel="canonical" href="${base}/good">
<link rel="alternate" hreflang="en" href="${base}/good"><link rel="alternate" hreflang="es-ES" href="${base}/es/good">
<link rel="alternate" hreflang="x-default" href="${base}/good">
<link rel="icon" href="/favicon.svg">
<meta property="og:title" content="Fast websites"><meta property="og:description" content="We build fast websites.">
<meta property="og:image" content="${base}/og.png"><meta property="og:url" content="${base}/good">
<meta name="twitter:card" content="summary_large_image">
<script type="application/ld+json">{"@context":"https://schema.org","@type":"Organization","name":"Agency"}</script>
</head><body><h1>Fast websites</h1><h2>What we do</h2><h3>Design</h3><p>${words(350)}</p>
<img src="/a.png" alt="Team at work"><img src="/deco.png" alt="">
<a href="/services">Our web design services</a> <a href="https://partner.example/">Our hosting partner</a>
</body></html>`;
}

/**
 * Link labels that end in a long run of punctuation: a regex stripping it (`[.…»›→!]+$`) is quadratic
 * when a letter follows the run: 250 000 dots held the event loop for over a minute per label.
 */
const DOTS = '.'.repeat(250_000);
const PUNCTUATED_LINKS_PAGE = `<html><body>
<a href="/a">Read more${DOTS}</a>
<a href="/b">${DOTS}x</a>
<a href="/c" aria-label="${DOTS}x">c</a>
<a href="/d"><img src="/d.png" alt="${DOTS}x"></a>
</body></html>`;

const BAD_PAGE = `<html><head>
<meta name="robots" content="noindex, nofollow">
<link rel="canonical" href="/"><link rel="canonical" href="https://other.example/">
<link rel="alternate" hreflang="english" href="/en/">
<script type="application/ld+json">{"@type": "Organization", "name": }</script>
</head><body><h1>One</h1><h1></h1><h2>Two</h2><h4>Four</h4>
<img src="/a.png"><img src="/b.png"><img src="/c.png" alt="ok">
<a href="/x">Click here</a> <a href="/y">Read more…</a> <a>no href</a> <a href="#">hash</a> <a href="javascript:void(0)">js</a>
<p>Too few words.</p></body></html>`;

let site: StandIn;
let ctx: TestContext;
let base: string;

beforeAll(async () => {
  site = await startStandIn((req, res) => {
    const path = new URL(req.url, 'http://x').pathname;
    const html = (body: string, headers: Record<string, string> = {}) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...headers });
      res.end(body);
    };
    if (path === '/robots.txt') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(`User-agent: *\nDisallow: /private/\nAllow: /private/open$\n\nSitemap: ${base}/sitemap.xml\n`);
    } else if (path === '/sitemap.xml') {
      res.writeHead(200, { 'content-type': 'application/xml' });
      res.end(
        `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${base}/good</loc></url></urlset>`,
      );
    } else if (path === '/good' || path === '/private/open') {
      html(goodPage(base));
    } else if (path === '/bad') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(BAD_PAGE);
    } else if (path === '/noindex-header') {
      html(goodPage(base), { 'x-robots-tag': 'noindex' });
    } else if (path === '/private/page') {
      html(goodPage(base));
    } else if (path === '/hop1') {
      res.writeHead(302, { location: '/hop2' });
      res.end();
    } else if (path === '/hop2') {
      res.writeHead(301, { location: '/good' });
      res.end();
    } else if (path === '/canonical-root') {
      html(goodPage(base).replace(`rel="canonical" href="${base}/good"`, `rel="canonical" href="${base}/"`));
    } else if (path === '/file.pdf') {
      res.writeHead(200, { 'content-type': 'application/pdf' });
      res.end('%PDF-1.4');
    } else if (path === '/deep') {
      html(`<html><body>${'<div>'.repeat(20_000)}text${'</div>'.repeat(20_000)}</body></html>`);
    } else if (path === '/re-opened-formatting') {
      // Each paragraph leaves a distinct <b> open: the HTML standard re-opens all of them in every
      // later paragraph (110 kB of this exhausted the heap).
      html(Array.from({ length: 6000 }, (_, i) => `<p><b id=${i}>x</p>`).join(''));
    } else if (path === '/many-links') {
      html(
        goodPage(base).replace(
          '</body>',
          `${Array.from({ length: 50_000 }, (_, i) => `<a href="/p${i}">p ${i}</a>`).join('')}</body>`,
        ),
      );
    } else if (path === '/minified') {
      html(
        goodPage(base).replace(
          `<p>${words(350)}</p>`,
          Array.from({ length: 400 }, (_, i) => `<p>word${i}</p>`).join(''),
        ),
      );
    } else if (path === '/image-preview') {
      html(
        goodPage(base).replace(
          '<head>',
          '<head><meta name="robots" content="max-image-preview:none, max-snippet:-1">',
        ),
        {
          'x-robots-tag': 'otherbot: noindex',
        },
      );
    } else if (path === '/latin1') {
      res.writeHead(200, { 'content-type': 'text/html; charset=iso-8859-1' });
      res.end(
        Buffer.from(
          goodPage(base)
            .replace('<meta charset="utf-8">', '')
            .replace('Fast websites for growing companies', 'Diseño web en España para empresas'),
          'latin1',
        ),
      );
    } else if (path === '/undecodable-charset') {
      // A label the WHATWG list knows but the decoder lacks: the page is still plain ASCII HTML.
      res.writeHead(200, { 'content-type': 'text/html; charset=x-user-defined' });
      res.end(goodPage(base).replace('<meta charset="utf-8">', ''));
    } else if (path === '/undecodable-declaration') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(
        `<?xml version="1.0" encoding="x-user-defined"?>${goodPage(base).replace('<meta charset="utf-8">', '')}`,
      );
    } else if (path === '/punctuated-links') {
      html(PUNCTUATED_LINKS_PAGE);
    } else if (path === '/giant') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<html><body>${'x'.repeat(4 * 1024 * 1024)}</body></html>`);
    } else {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<html><head><title>Not found</title></head><body>Not found</body></html>');
    }
  });
  base = site.url;
  ctx = await createTestApp({ env: { FETCH_ALLOW_HOSTS: '127.0.0.1' } });
});
afterAll(async () => {
  await ctx.close();
  await site.close();
});

async function analyze(url: string, app = ctx.app) {
  const res = await app.request('/api/seo/analyze', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ url }),
  });
  return { status: res.status, body: await res.json() };
}
const ids = (body: { findings: { id: string }[] }) => body.findings.map((f) => f.id);
const finding = (body: { findings: { id: string; severity: string }[] }, id: string) =>
  body.findings.find((f) => f.id === id);

describe('SEO analysis on fixture pages', () => {
  it('passes a well-made page except for plain HTTP', async () => {
    const { status, body } = await analyze(`${base}/good#section`);
    expect(status).toBe(200);
    expect(body.success).toBe(true);
    expect(body.url).toBe(`${base}/good`);
    expect(ids(body)).toEqual(['https']);
    expect(body.score).toBe(90);
    expect(body.passed).toEqual(
      expect.arrayContaining([
        'title',
        'meta-description',
        'h1',
        'canonical',
        'hreflang',
        'sitemap',
        'robots-txt',
        'structured-data',
      ]),
    );
    expect(body.stats.wordCount).toBeGreaterThan(300);
    expect(body.stats.links).toEqual({ total: 2, internal: 1, external: 1 });
    expect(body.stats.images).toEqual({ total: 2, withoutAlt: 0 });
    expect(body.page.title).toBe('Fast websites for growing companies | Agency');
    for (const f of body.findings) expect(f.fix.length).toBeGreaterThan(10);
  });

  it('reports every known defect of a bad page', async () => {
    const { body } = await analyze(`${base}/bad`);
    const expected: [string, string][] = [
      ['meta-robots', 'error'],
      ['title', 'error'],
      ['meta-description', 'error'],
      ['h1', 'warning'],
      ['heading-order', 'warning'],
      ['img-alt', 'warning'],
      ['link-text', 'warning'],
      ['link-href', 'warning'],
      ['canonical', 'error'],
      ['hreflang', 'error'],
      ['html-lang', 'warning'],
      ['viewport', 'error'],
      ['charset', 'warning'],
      ['open-graph', 'warning'],
      ['twitter-card', 'notice'],
      ['structured-data', 'error'],
      ['favicon', 'notice'],
      ['word-count', 'warning'],
    ];
    for (const [id, severity] of expected) expect(finding(body, id)?.severity, id).toBe(severity);
    expect(finding(body, 'img-alt')).toMatchObject({ message: '2 of 3 images have no alt attribute.' });
    expect(finding(body, 'link-text')).toMatchObject({ message: expect.stringContaining('2 links') });
    expect(finding(body, 'link-href')).toMatchObject({ message: expect.stringContaining('3 links') });
    expect(finding(body, 'heading-order')).toMatchObject({ message: 'Heading levels skip from h2 to h4.' });
    expect(body.score).toBeLessThan(20);
    expect(body.summary.errors).toBeGreaterThanOrEqual(7);
    // Errors come first.
    expect(body.findings[0].severity).toBe('error');
  });

  it('reads noindex from X-Robots-Tag and robots.txt disallow rules', async () => {
    expect(finding((await analyze(`${base}/noindex-header`)).body, 'x-robots-tag')?.severity).toBe('error');
    expect(finding((await analyze(`${base}/private/page`)).body, 'robots-txt')?.severity).toBe('error');
    expect(ids((await analyze(`${base}/private/open`)).body)).not.toContain('robots-txt');
  });

  it('reports the redirect chain and temporary redirects', async () => {
    const { body } = await analyze(`${base}/hop1`);
    expect(body.finalUrl).toBe(`${base}/good`);
    expect(body.redirects).toEqual([
      { url: `${base}/hop1`, status: 302 },
      { url: `${base}/hop2`, status: 301 },
    ]);
    expect(finding(body, 'redirects')?.severity).toBe('warning');
  });

  it('flags a canonical pointing an inner page to the root, a 404 and a non-HTML answer', async () => {
    expect(finding((await analyze(`${base}/canonical-root`)).body, 'canonical')?.severity).toBe('error');
    const missing = await analyze(`${base}/nothing-here`);
    expect(missing.status).toBe(200);
    expect(finding(missing.body, 'http-status')).toMatchObject({
      severity: 'error',
      message: 'The page answered HTTP 404.',
    });
    expect(finding((await analyze(`${base}/file.pdf`)).body, 'content-type')?.severity).toBe('error');
  });

  it('caches an analysis for an hour', async () => {
    const before = site.requests.filter((r) => r.url === '/canonical-root').length;
    const again = await analyze(`${base}/canonical-root`);
    expect(again.body.cached).toBe(true);
    expect(site.requests.filter((r) => r.url === '/canonical-root').length).toBe(before);
  });
});

describe('SEO bad input', () => {
  it.each([
    ['not a url'],
    ['ftp://example.com/'],
    ['file:///etc/passwd'],
    ['http://user:secret@example.com/'],
    ['http://169.254.169.254/latest/meta-data/'],
    ['http://10.0.0.1/'],
    ['http://example.com:8080/'],
    [''],
  ])('refuses %s with 400', async (url) => {
    const { status, body } = await analyze(url);
    expect(status).toBe(400);
    expect(body.error.code).toBe('VALIDATION_ERROR');
  });

  it('answers 502 for a page nested too deeply to parse in time, and keeps serving', async () => {
    const { status, body } = await analyze(`${base}/deep`);
    expect(status).toBe(502);
    expect(body.error.message).toContain('levels deep');
  });

  it('answers 502 for a page whose unclosed formatting the parser would re-open in every paragraph', async () => {
    const { status, body } = await analyze(`${base}/re-opened-formatting`);
    expect(status).toBe(502);
    expect(body.error.message).toContain(`more than ${MAX_HTML_ELEMENTS} HTML elements`);
    expect((await analyze(`${base}/good`)).status).toBe(200);
  });

  it('reads a page of 50 000 links (linear, not quadratic)', async () => {
    const { status, body } = await analyze(`${base}/many-links`);
    expect(status).toBe(200);
    expect(body.stats.links.total).toBe(50_002);
  });

  it('counts words across elements, and reads the page in its declared charset', async () => {
    const minified = await analyze(`${base}/minified`);
    expect(minified.body.stats.wordCount).toBeGreaterThanOrEqual(400);
    expect(ids(minified.body)).not.toContain('word-count');
    const latin1 = await analyze(`${base}/latin1`);
    expect(latin1.body.page.title).toContain('Diseño web en España');
  });

  it.each([['/undecodable-charset'], ['/undecodable-declaration']])(
    'reads a page (%s) whose declared charset the decoder cannot decode',
    async (path) => {
      const { status, body } = await analyze(`${base}${path}`);
      expect(status).toBe(200);
      expect(body.page.title).toBe('Fast websites for growing companies | Agency');
    },
  );

  it("max-image-preview:none and another crawler's noindex do not block indexing", async () => {
    const { body } = await analyze(`${base}/image-preview`);
    expect(ids(body)).not.toContain('meta-robots');
    expect(ids(body)).not.toContain('x-robots-tag');
  });

  it('reads link labels ending in a long run of punctuation', async () => {
    const { status, body } = await analyze(`${base}/punctuated-links`);
    expect(status).toBe(200);
    expect(body.stats.links.total).toBe(4);
    // Only "Read more……" is generic; the labels of dots then a letter are not.
    expect(finding(body, 'link-text')).toMatchObject({ message: expect.stringContaining('1 links') });
  });

  it('reads a robots directive with a long run of spaces before a line break', () => {
    // `\s*:\s*(.*)$` backtracked quadratically here (400 000 spaces: minutes).
    const spaced = `googlebot:${' '.repeat(400_000)}x\ny`;
    expect(blocksIndexing(`${spaced}, noindex`)).toBe(true);
    expect(blocksIndexing(`${spaced}, nofollow`)).toBe(false);
    expect(blocksIndexing('otherbot: x\ny, noindex')).toBe(false);
  });

  it('answers 502 for a page over the size cap', async () => {
    const { status, body } = await analyze(`${base}/giant`);
    expect(status).toBe(502);
    expect(body.error.message).toContain('larger than');
  });

  it('needs JSON with a url', async () => {
    expect((await ctx.app.request('/api/seo/analyze', { method: 'POST', body: 'url=x' })).status).toBe(415);
    const res = await ctx.app.request('/api/seo/analyze', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(400);
  });

  it('never contacts a loopback page when it is not on FETCH_ALLOW_HOSTS', async () => {
    const strict = await createTestApp();
    try {
      const before = site.requests.length;
      const { status } = await analyze(`${base}/good`, strict.app);
      expect(status).toBe(400);
      expect(site.requests.length).toBe(before);
    } finally {
      await strict.close();
    }
  });

  it('reports its health', async () => {
    const res = await ctx.app.request('/api/seo/health');
    expect(await res.json()).toMatchObject({ status: 'ok', service: 'seo', cacheTtlSeconds: 3600 });
  });
});

describe('SEO checks on nested headings, links and titles', () => {
  it('reads 2 000 nested h1s and 2 000 nested links around 3 MB of text in linear time', async () => {
    // Each nested h1 and each link nested through <object> read all the text inside it: 4 000 × 3 MB
    // of text (minutes, gigabytes) before only the first h1 was read and link labels had a budget.
    const { load } = await import('cheerio');
    const text = 'word '.repeat(600_000);
    const html = `<html><head><title>Nested headings and links for the SEO checks</title></head><body><a href="/y">click here</a>${'<h1><b>'.repeat(2000)}${'<a href="/x"><object>'.repeat(2000)}<p>Read more</p>${text}<svg><title>icon</title></svg></body></html>`;
    const report = runChecks(
      {
        requestedUrl: 'https://example.com/',
        finalUrl: 'https://example.com/',
        status: 200,
        redirects: [],
        headers: {},
        html,
        robots: 'allowed',
        sitemap: { found: true, url: null },
      },
      load,
    );
    expect(report.stats.headings.h1).toBe(2000);
    expect(report.stats.links.total).toBe(2001);
    expect(report.page.title).toBe('Nested headings and links for the SEO checks');
    expect(report.findings.find((f) => f.id === 'h1')?.message).toBe('The page has 2000 <h1> elements.');
    expect(report.findings.find((f) => f.id === 'title')).toBeUndefined();
    // "click here" is generic; the nested links, holding the whole text, are not.
    expect(report.findings.find((f) => f.id === 'link-text')?.message).toContain('1 links');
  });
});

describe('robots.txt rules', () => {
  const robots = parseRobots(`# comment
User-agent: Googlebot
Disallow: /nogoogle
User-agent: *
Disallow: /private
Allow: /private/open$
Disallow: /*.pdf$
Disallow:
`);
  it('applies the longest match, allow on ties, wildcards and the specific agent group', () => {
    expect(robotsAllows(robots, 'bingbot', '/private/x')).toBe(false);
    expect(robotsAllows(robots, 'bingbot', '/private/open')).toBe(true);
    expect(robotsAllows(robots, 'bingbot', '/private/open/more')).toBe(false);
    expect(robotsAllows(robots, 'bingbot', '/doc.pdf')).toBe(false);
    expect(robotsAllows(robots, 'bingbot', '/doc.pdf?x')).toBe(true);
    expect(robotsAllows(robots, 'googlebot', '/private/x')).toBe(true);
    expect(robotsAllows(robots, 'googlebot', '/nogoogle/a')).toBe(false);
    expect(robotsAllows(parseRobots(''), 'googlebot', '/')).toBe(true);
  });

  it('matches many wildcards against a long path in one pass, with the same answers', () => {
    // As a backtracking RegExp (`.*` per star) this rule on this path took minutes.
    const rules = parseRobots(`User-agent: *\nDisallow: /${'*a'.repeat(7)}X\nAllow: /*a$\n`);
    const path = `/${'a'.repeat(100)}`;
    expect(robotsAllows(rules, 'googlebot', path)).toBe(true);
    expect(robotsAllows(rules, 'googlebot', `${path}X`)).toBe(false);
    expect(robotsAllows(rules, 'googlebot', `${path}Xa`)).toBe(false);
    expect(robotsAllows(rules, 'googlebot', '/aaaaaaX')).toBe(true);
  });

  it('ignores rules past the rule cap and patterns longer than the pattern cap', () => {
    const filler = Array.from({ length: SEO_LIMITS.robotsMaxRules }, (_, i) => `Disallow: /filler${i}`);
    const capped = parseRobots(['User-agent: *', ...filler, 'Disallow: /late'].join('\n'));
    expect(capped.groups[0]?.rules).toHaveLength(SEO_LIMITS.robotsMaxRules);
    expect(robotsAllows(capped, 'googlebot', '/late')).toBe(true);
    expect(robotsAllows(capped, 'googlebot', '/filler7')).toBe(false);
    const long = `/${'x'.repeat(SEO_LIMITS.robotsPatternMaxChars)}`;
    const lengthy = parseRobots(`User-agent: *\nDisallow: ${long}\nDisallow: /short\n`);
    expect(lengthy.groups[0]?.rules.map((r) => r.pattern)).toEqual(['/short']);
  });

  it('compares patterns and paths percent-encoded as Google does', () => {
    expect(normalizeRobotsPath('/diseño')).toBe('/dise%C3%B1o');
    expect(normalizeRobotsPath('/dise%c3%b1o-web')).toBe('/dise%C3%B1o-web');
    expect(normalizeRobotsPath('/a%2fb/c d?q=ü')).toBe('/a%2Fb/c d?q=%C3%BC');
    // A character outside the BMP, a lone surrogate (U+FFFD), a broken escape left as written.
    expect(normalizeRobotsPath('/😀/\ud800/%zz/%4')).toBe('/%F0%9F%98%80/%EF%BF%BD/%zz/%4');
    expect(normalizeRobotsPath('/plain/path')).toBe('/plain/path');

    const robots = parseRobots('User-agent: *\nDisallow: /diseño\nDisallow: /caf%c3%a9/\nDisallow: /a%2Fb\n');
    for (const blocked of [
      '/dise%C3%B1o-web',
      '/diseño-web',
      '/dise%c3%b1o',
      '/caf%C3%A9/menu',
      '/café/',
      '/a%2fb',
    ]) {
      expect(robotsAllows(robots, 'googlebot', blocked), blocked).toBe(false);
    }
    // Reserved characters stay as written: an encoded slash is not a slash.
    for (const open of ['/diseno', '/cafe/', '/a/b'])
      expect(robotsAllows(robots, 'googlebot', open), open).toBe(true);
    // The longest match is measured on the normalised pattern: `/ñ` (6 characters encoded) beats `/%C3`.
    const priority = parseRobots('User-agent: *\nAllow: /ñ\nDisallow: /%C3\n');
    expect(robotsAllows(priority, 'googlebot', '/ñandu')).toBe(true);
  });

  it('stays linear on a hostile robots.txt and path (work counted, not timed)', () => {
    // Pieces that almost match everywhere: `indexOf` may compare each one again at every position.
    const piece = `${'a'.repeat(1000)}b`;
    const rules = Array.from({ length: 50 }, (_, i) => `Disallow: /*${piece}*${i}$`);
    const text = ['User-agent: *', ...rules].join('\n');
    const robots = parseRobots(text);
    const path = `/${'a'.repeat(20_000)}`;
    const work: RobotsWork = { steps: 0 };
    expect(robotsAllows(robots, 'googlebot', path, work)).toBe(true);
    const linear = text.length + rules.length * path.length;
    expect(work.steps).toBeGreaterThan(rules.length * path.length);
    expect(work.steps).toBeLessThanOrEqual(3 * linear);
    // Non-ASCII everywhere (9 characters each once encoded) costs the same order.
    const wide = parseRobots(`User-agent: *\nDisallow: /*${'ñ'.repeat(2000)}x\n`);
    const wideWork: RobotsWork = { steps: 0 };
    expect(robotsAllows(wide, 'googlebot', `/${'ñ'.repeat(20_000)}`, wideWork)).toBe(true);
    expect(wideWork.steps).toBeLessThanOrEqual(3 * (6 * 2000 + 6 * 20_000 + 20_000));
  });

  it('matches the user agent by its whole product token, not a substring', () => {
    const rules = parseRobots('User-agent: bot\nDisallow: /\n\nUser-agent: *\nAllow: /\n');
    expect(robotsAllows(rules, 'googlebot', '/x')).toBe(true);
    const versioned = parseRobots('User-agent: Googlebot/2.1\nDisallow: /g\n\nUser-agent: *\nAllow: /\n');
    expect(robotsAllows(versioned, 'googlebot', '/g')).toBe(false);
  });
});
