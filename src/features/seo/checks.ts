import type { load as CheerioLoad } from 'cheerio';
import { firstImageAlt, imageAltWithin, parseHtmlBounded, textOf, textWithin } from '../../http/html.ts';
import type { RedirectHop } from '../../integrations/safe-fetch/safe-fetch.ts';
import { SEO_LIMITS, SEVERITY_COST, type Severity } from './limits.ts';

/** What the checks look at: the fetched page and what was learnt about its site. */
export interface PageInput {
  requestedUrl: string;
  finalUrl: string;
  status: number;
  redirects: RedirectHop[];
  headers: Record<string, string>;
  /** The body when it is HTML, else null. */
  html: string | null;
  robots: 'allowed' | 'disallowed' | 'missing' | 'unreachable';
  sitemap: { found: boolean; url: string | null };
}

export interface Finding {
  id: string;
  severity: Severity;
  message: string;
  fix: string;
}

export interface SeoStats {
  wordCount: number;
  links: { total: number; internal: number; external: number };
  images: { total: number; withoutAlt: number };
  headings: Record<'h1' | 'h2' | 'h3' | 'h4' | 'h5' | 'h6', number>;
}

export interface SeoReport {
  score: number;
  findings: Finding[];
  passed: string[];
  stats: SeoStats;
  page: { title: string | null; description: string | null; canonical: string | null; lang: string | null };
}

const GENERIC_LINK_TEXT = new Set([
  'click here',
  'here',
  'read more',
  'more',
  'learn more',
  'this',
  'link',
  'this link',
  'go',
  'continue',
  'details',
  'more info',
  'click',
  'aquí',
  'haz clic aquí',
  'leer más',
  'más',
  'ver más',
  'más información',
]);
/** Robots directives written `name: value`, which name no crawler. */
const VALUED_ROBOTS_DIRECTIVES = new Set([
  'max-snippet',
  'max-image-preview',
  'max-video-preview',
  'unavailable_after',
]);

/**
 * Whether robots directives (`<meta name="robots">` or `X-Robots-Tag`, comma-separated) keep the page
 * out of the index: `noindex` or `none` as a whole directive (not inside `max-image-preview:none`),
 * for every crawler or for Googlebot (`otherbot: noindex` is another crawler's business).
 */
export function blocksIndexing(directives: string): boolean {
  let crawler: string | null = null;
  for (const raw of directives.toLowerCase().split(',')) {
    let directive = raw.trim();
    // "googlebot: noindex, nofollow" names the crawler for the directives that follow it. Split at
    // the colon rather than with one regex: `\s*:\s*(.*)$` backtracks quadratically on a long run
    // of spaces before a line break, and the page writes this text.
    const colon = directive.indexOf(':');
    const name = colon < 0 ? '' : directive.slice(0, colon).trimEnd();
    if (/^[a-z][\w-]*$/.test(name) && !VALUED_ROBOTS_DIRECTIVES.has(name)) {
      crawler = name;
      directive = directive.slice(colon + 1).trim();
    }
    if (crawler !== null && crawler !== 'googlebot' && crawler !== 'all') continue;
    if (directive === 'noindex' || directive === 'none') return true;
  }
  return false;
}

const TRAILING_PUNCTUATION = new Set(['.', '…', '»', '›', '→', '!']);

/**
 * The text without the punctuation that trails a link label ("Read more…", "Next »"). A loop from
 * the end, not `/[.…»›→!]+$/`: that regex is quadratic on a long run of dots followed by a letter.
 */
function withoutTrailingPunctuation(text: string): string {
  let end = text.length;
  while (end > 0 && TRAILING_PUNCTUATION.has(text[end - 1]!)) end--;
  return text.slice(0, end);
}

/**
 * Characters (and nodes) the link labels may read in all, per character of the page. Links that do
 * not nest read each character of the page at most once, far below this; links nested through table
 * cells (`<a><table><tr><td><a>…`) each read everything inside them, and 100 of them around 2.8 MB of
 * text read 280 MB (2.9 s, 600 MB) before this bound.
 */
const LINK_TEXT_BUDGET_FACTOR = 4;

/** Whether an element is inside an `<svg>` (whose `<title>` is no page title), walking up the parsed nodes. */
function insideSvg(node: { parent: unknown }): boolean {
  for (let p = node.parent as { name?: string; parent: unknown } | null; p; p = p.parent as typeof p) {
    if (p.name === 'svg') return true;
  }
  return false;
}

const HREFLANG = /^(x-default|[a-z]{2,3}(-[a-z]{4})?(-([a-z]{2}|\d{3}))?)$/i;

/**
 * Runs every check on one page; pure (no I/O), so fixtures can test each rule. cheerio's `load` is
 * passed in so the parser (≈35 MB) is loaded on the first analysis, not at start-up.
 */
export function runChecks(input: PageInput, load: typeof CheerioLoad): SeoReport {
  const findings: Finding[] = [];
  const passed: string[] = [];
  const check = (id: string, problem: Omit<Finding, 'id'> | null) => {
    if (problem) findings.push({ id, ...problem });
    else passed.push(id);
  };
  const final = new URL(input.finalUrl);

  check(
    'http-status',
    input.status >= 400
      ? {
          severity: 'error',
          message: `The page answered HTTP ${input.status}.`,
          fix: 'Serve the page with status 200 (or remove links to it).',
        }
      : null,
  );
  const hops = input.redirects.length;
  const temporary = input.redirects.some((r) => r.status === 302 || r.status === 307);
  check(
    'redirects',
    hops > 1
      ? {
          severity: 'warning',
          message: `The URL goes through ${hops} redirects before the page.`,
          fix: 'Link straight to the final URL and collapse the chain into one 301.',
        }
      : temporary
        ? {
            severity: 'notice',
            message: 'The URL is moved with a temporary redirect (302/307).',
            fix: 'Use a 301 (or 308) for a permanent move so search engines transfer the ranking.',
          }
        : null,
  );
  check(
    'https',
    final.protocol !== 'https:'
      ? {
          severity: 'error',
          message: 'The page is not served over HTTPS.',
          fix: 'Serve the site over HTTPS and redirect http:// to https:// with a 301.',
        }
      : null,
  );
  const robotsHeader = input.headers['x-robots-tag'] ?? '';
  check(
    'x-robots-tag',
    blocksIndexing(robotsHeader)
      ? {
          severity: 'error',
          message: `The X-Robots-Tag header says "${robotsHeader}".`,
          fix: 'Remove noindex from the X-Robots-Tag header of pages that should rank.',
        }
      : null,
  );
  check(
    'robots-txt',
    input.robots === 'disallowed'
      ? {
          severity: 'error',
          message: 'robots.txt disallows this URL for search engines.',
          fix: 'Remove or narrow the Disallow rule in robots.txt that matches this path.',
        }
      : input.robots === 'missing'
        ? {
            severity: 'notice',
            message: 'The site has no robots.txt.',
            fix: 'Add /robots.txt with a Sitemap: line.',
          }
        : input.robots === 'unreachable'
          ? {
              severity: 'warning',
              message: 'robots.txt could not be fetched.',
              fix: 'Make /robots.txt answer 200 (or 404); errors make crawlers back off.',
            }
          : null,
  );
  check(
    'sitemap',
    !input.sitemap.found
      ? {
          severity: 'warning',
          message: 'No XML sitemap was found (robots.txt Sitemap: or /sitemap.xml).',
          fix: 'Publish an XML sitemap and name it in robots.txt with a Sitemap: line.',
        }
      : null,
  );

  const stats: SeoStats = {
    wordCount: 0,
    links: { total: 0, internal: 0, external: 0 },
    images: { total: 0, withoutAlt: 0 },
    headings: { h1: 0, h2: 0, h3: 0, h4: 0, h5: 0, h6: 0 },
  };
  const page: SeoReport['page'] = { title: null, description: null, canonical: null, lang: null };

  if (input.html === null) {
    check('content-type', {
      severity: 'error',
      message: `The URL answered ${input.headers['content-type'] ?? 'no content type'}, not an HTML page.`,
      fix: 'Analyse the URL of an HTML page.',
    });
    return finish(findings, passed, stats, page);
  }

  const $ = load(parseHtmlBounded(input.html));
  const meta = (name: string) => $(`meta[name="${name}" i]`).attr('content')?.trim() ?? null;
  const property = (name: string) =>
    $(`meta[property="${name}" i], meta[name="${name}" i]`).attr('content')?.trim() || null;

  const robotsMeta = $('meta[name="robots" i], meta[name="googlebot" i]')
    .map((_, el) => $(el).attr('content') ?? '')
    .get()
    .join(', ');
  check(
    'meta-robots',
    blocksIndexing(robotsMeta)
      ? {
          severity: 'error',
          message: `The robots meta tag says "${robotsMeta}".`,
          fix: 'Remove noindex from <meta name="robots"> on pages that should rank.',
        }
      : /nofollow/i.test(robotsMeta)
        ? {
            severity: 'warning',
            message: 'The robots meta tag says nofollow.',
            fix: 'Drop nofollow so the page passes ranking to the pages it links.',
          }
        : null,
  );

  // Every title (those in <head> included), its ancestors walked on the parsed nodes: the selector
  // `head title, title` and `$(el).parents('svg')` per title took 2.7 s on a page of 95 000 titles
  // 500 levels deep.
  const titles = $('title').filter((_, el) => !insideSvg(el));
  const title = titles.first().text().replace(/\s+/g, ' ').trim();
  page.title = title || null;
  const { min: tMin, max: tMax } = SEO_LIMITS.title;
  check(
    'title',
    !title
      ? {
          severity: 'error',
          message: 'The page has no title.',
          fix: 'Add a <title> of 30–60 characters naming the page and the brand.',
        }
      : titles.length > 1
        ? {
            severity: 'warning',
            message: `The page has ${titles.length} <title> elements.`,
            fix: 'Keep exactly one <title> in <head>.',
          }
        : title.length < tMin || title.length > tMax
          ? {
              severity: 'warning',
              message: `The title is ${title.length} characters long.`,
              fix: `Write a title of ${tMin}–${tMax} characters so it is not cut off or too vague.`,
            }
          : null,
  );

  const descriptions = $('meta[name="description" i]');
  const description = descriptions.first().attr('content')?.replace(/\s+/g, ' ').trim() ?? '';
  page.description = description || null;
  const { min: dMin, max: dMax } = SEO_LIMITS.description;
  check(
    'meta-description',
    !description
      ? {
          severity: 'error',
          message: 'The page has no meta description.',
          fix: `Add <meta name="description"> of ${dMin}–${dMax} characters summarising the page.`,
        }
      : descriptions.length > 1
        ? {
            severity: 'warning',
            message: `The page has ${descriptions.length} meta descriptions.`,
            fix: 'Keep exactly one meta description.',
          }
        : description.length < dMin || description.length > dMax
          ? {
              severity: 'warning',
              message: `The meta description is ${description.length} characters long.`,
              fix: `Write ${dMin}–${dMax} characters so search results show it whole.`,
            }
          : null,
  );

  const levels: number[] = [];
  $('h1, h2, h3, h4, h5, h6').each((_, el) => {
    const level = Number(el.tagName.slice(1));
    levels.push(level);
    stats.headings[`h${level}` as keyof SeoStats['headings']]++;
  });
  // An image heading (<h1><img alt="Acme"></h1>) is named by its alt text. Only the first one's text
  // is read: h1s nest (`<h1><b><h1>…`), and reading every one's whole text made 250 nested h1s around
  // 2.8 MB of text read 700 MB (1.7 s, 1 GB).
  const h1s = $('h1');
  const firstH1 = h1s[0] ? (textOf(h1s[0]).trim() || firstImageAlt(h1s[0]) || '').trim() : '';
  check(
    'h1',
    h1s.length === 0
      ? {
          severity: 'error',
          message: 'The page has no <h1>.',
          fix: 'Add one <h1> that states what the page is about.',
        }
      : h1s.length > 1
        ? {
            severity: 'warning',
            message: `The page has ${h1s.length} <h1> elements.`,
            fix: 'Keep exactly one <h1>; use <h2>–<h6> below it.',
          }
        : !firstH1
          ? {
              severity: 'error',
              message: 'The <h1> is empty.',
              fix: "Put the page's main heading text in the <h1>.",
            }
          : null,
  );
  const skip = levels.findIndex((level, i) => i > 0 && level > (levels[i - 1] ?? 0) + 1);
  check(
    'heading-order',
    skip > 0
      ? {
          severity: 'warning',
          message: `Heading levels skip from h${levels[skip - 1]} to h${levels[skip]}.`,
          fix: 'Nest headings one level at a time (h2 under h1, h3 under h2).',
        }
      : null,
  );

  const images = $('img');
  stats.images.total = images.length;
  stats.images.withoutAlt = images.filter((_, el) => $(el).attr('alt') === undefined).length;
  check(
    'img-alt',
    stats.images.withoutAlt > 0
      ? {
          severity: 'warning',
          message: `${stats.images.withoutAlt} of ${stats.images.total} images have no alt attribute.`,
          fix: 'Give every <img> an alt text (alt="" for purely decorative images).',
        }
      : null,
  );

  const anchors = $('a');
  let generic = 0;
  let noHref = 0;
  // Read from the parsed nodes: a cheerio wrapper per link made a page of 100 000 links quadratic.
  // The accessible name: aria-label first, then the text, then an image's alt.
  const labelBudget = { left: LINK_TEXT_BUDGET_FACTOR * input.html.length };
  anchors.each((_, el) => {
    const href = el.attribs.href?.trim();
    const text = el.attribs['aria-label'] ? '' : textWithin(el, labelBudget);
    // A link whose text the budget cannot read (only nested links use it up) is not counted as generic.
    const label =
      text === null
        ? ''
        : (el.attribs['aria-label'] || text.trim() || imageAltWithin(el, labelBudget) || '')
            .replace(/\s+/g, ' ')
            .trim()
            .toLowerCase();
    if (GENERIC_LINK_TEXT.has(withoutTrailingPunctuation(label).trim())) generic++;
    if (!href || href === '#' || /^javascript:/i.test(href)) {
      noHref++;
      return;
    }
    let target: URL;
    try {
      target = new URL(href, final);
    } catch {
      noHref++;
      return;
    }
    if (target.protocol !== 'http:' && target.protocol !== 'https:') return;
    stats.links.total++;
    if (target.hostname === final.hostname) stats.links.internal++;
    else stats.links.external++;
  });
  check(
    'link-text',
    generic > 0
      ? {
          severity: 'warning',
          message: `${generic} links have generic text such as "click here" or "read more".`,
          fix: 'Use link text that says where the link goes.',
        }
      : null,
  );
  check(
    'link-href',
    noHref > 0
      ? {
          severity: 'warning',
          message: `${noHref} links have no real href (missing, "#" or javascript:).`,
          fix: 'Give links a crawlable href, or use <button> for actions.',
        }
      : null,
  );

  const canonicals = $('link[rel~="canonical" i]');
  const canonicalHref = canonicals.first().attr('href')?.trim() ?? '';
  page.canonical = canonicalHref || null;
  check(
    'canonical',
    (() => {
      if (canonicals.length === 0)
        return {
          severity: 'warning' as const,
          message: 'The page has no canonical link.',
          fix: 'Add <link rel="canonical" href="https://…"> with the page\'s absolute preferred URL.',
        };
      if (canonicals.length > 1)
        return {
          severity: 'error' as const,
          message: `The page has ${canonicals.length} canonical links.`,
          fix: 'Keep exactly one rel="canonical"; search engines ignore conflicting ones.',
        };
      if (!/^https?:\/\//i.test(canonicalHref))
        return {
          severity: 'warning' as const,
          message: `The canonical URL "${canonicalHref}" is not absolute.`,
          fix: 'Write the canonical as an absolute URL with scheme and host.',
        };
      let target: URL;
      try {
        target = new URL(canonicalHref);
      } catch {
        return {
          severity: 'error' as const,
          message: 'The canonical URL is invalid.',
          fix: 'Point rel="canonical" to a valid absolute URL.',
        };
      }
      if (target.pathname === '/' && final.pathname !== '/' && !target.search) {
        return {
          severity: 'error' as const,
          message: 'The canonical of this inner page points to the home page.',
          fix: "Point the canonical to this page's own URL, not the site root.",
        };
      }
      return null;
    })(),
  );

  const alternates = $('link[rel~="alternate" i][hreflang]');
  const badHreflang = alternates
    .filter((_, el) => !HREFLANG.test($(el).attr('hreflang')?.trim() ?? ''))
    .map((_, el) => $(el).attr('hreflang') ?? '')
    .get();
  const relativeHreflang = alternates.filter(
    (_, el) => !/^https?:\/\//i.test($(el).attr('href')?.trim() ?? ''),
  ).length;
  check(
    'hreflang',
    alternates.length === 0
      ? null
      : badHreflang.length > 0
        ? {
            severity: 'error',
            message: `Invalid hreflang value(s): ${badHreflang.slice(0, 5).join(', ')}.`,
            fix: 'Use ISO 639-1 language codes, optionally with an ISO 3166-1 region (en, en-GB), or x-default.',
          }
        : relativeHreflang > 0
          ? {
              severity: 'warning',
              message: `${relativeHreflang} hreflang links are not absolute URLs.`,
              fix: 'Give every hreflang alternate an absolute URL.',
            }
          : null,
  );

  page.lang = $('html').attr('lang')?.trim() || null;
  check(
    'html-lang',
    !page.lang
      ? {
          severity: 'warning',
          message: 'The <html> element has no lang attribute.',
          fix: 'Declare the language, e.g. <html lang="en">.',
        }
      : null,
  );
  check(
    'viewport',
    !meta('viewport')
      ? {
          severity: 'error',
          message: 'The page has no viewport meta tag (not mobile-friendly).',
          fix: 'Add <meta name="viewport" content="width=device-width, initial-scale=1">.',
        }
      : null,
  );
  const charsetDeclared =
    $('meta[charset]').length > 0 ||
    /charset=/i.test($('meta[http-equiv="content-type" i]').attr('content') ?? '') ||
    /charset=/i.test(input.headers['content-type'] ?? '');
  check(
    'charset',
    !charsetDeclared
      ? {
          severity: 'warning',
          message: 'No character encoding is declared.',
          fix: 'Add <meta charset="utf-8"> as the first element of <head>.',
        }
      : null,
  );

  const missingOg = ['og:title', 'og:description', 'og:image', 'og:url'].filter((p) => !property(p));
  check(
    'open-graph',
    missingOg.length > 0
      ? {
          severity: 'warning',
          message: `Open Graph tags missing: ${missingOg.join(', ')}.`,
          fix: 'Add the missing og: meta tags so shared links show a title, text and image.',
        }
      : null,
  );
  check(
    'twitter-card',
    !property('twitter:card')
      ? {
          severity: 'notice',
          message: 'No twitter:card meta tag.',
          fix: 'Add <meta name="twitter:card" content="summary_large_image">.',
        }
      : null,
  );

  const blocks = $('script[type="application/ld+json" i]')
    .map((_, el) => $(el).text())
    .get();
  check(
    'structured-data',
    (() => {
      if (blocks.length === 0)
        return {
          severity: 'notice' as const,
          message: 'The page has no JSON-LD structured data.',
          fix: 'Describe the page with schema.org JSON-LD (Organization, Article, Product…).',
        };
      for (const [i, block] of blocks.entries()) {
        let data: unknown;
        try {
          data = JSON.parse(block);
        } catch {
          return {
            severity: 'error' as const,
            message: `JSON-LD block ${i + 1} is not valid JSON.`,
            fix: 'Fix the JSON syntax of the structured data block.',
          };
        }
        const items = (Array.isArray(data) ? data : [data]) as Record<string, unknown>[];
        for (const item of items) {
          const graph = Array.isArray(item?.['@graph'])
            ? (item['@graph'] as Record<string, unknown>[])
            : null;
          const typed = graph ? graph.every((g) => g?.['@type']) : Boolean(item?.['@type']);
          if (!item?.['@context'] || !typed) {
            return {
              severity: 'error' as const,
              message: `JSON-LD block ${i + 1} lacks @context or @type.`,
              fix: 'Give each structured data item "@context": "https://schema.org" and an "@type".',
            };
          }
        }
      }
      return null;
    })(),
  );
  check(
    'favicon',
    $('link[rel~="icon" i], link[rel="shortcut icon" i], link[rel="apple-touch-icon" i]').length === 0
      ? {
          severity: 'notice',
          message: 'The page declares no favicon.',
          fix: 'Add <link rel="icon" href="/favicon.svg"> (and a 180×180 apple-touch-icon).',
        }
      : null,
  );

  const body = $('body')[0];
  stats.wordCount = (body ? textOf(body) : '').split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
  check(
    'word-count',
    stats.wordCount < SEO_LIMITS.minWords
      ? {
          severity: 'warning',
          message: `The page has ${stats.wordCount} words of text.`,
          fix: `Write at least ${SEO_LIMITS.minWords} words of useful content; thin pages rank poorly.`,
        }
      : null,
  );
  check(
    'link-count',
    stats.links.total > SEO_LIMITS.maxLinks
      ? {
          severity: 'warning',
          message: `The page has ${stats.links.total} links.`,
          fix: `Keep under ${SEO_LIMITS.maxLinks} links so each one carries weight.`,
        }
      : stats.links.internal === 0
        ? {
            severity: 'warning',
            message: 'The page links to no other page of the site.',
            fix: 'Link to related pages of the site so crawlers and visitors can go on.',
          }
        : null,
  );

  return finish(findings, passed, stats, page);
}

function finish(findings: Finding[], passed: string[], stats: SeoStats, page: SeoReport['page']): SeoReport {
  const cost = findings.reduce((sum, f) => sum + SEVERITY_COST[f.severity], 0);
  const order: Record<Severity, number> = { error: 0, warning: 1, notice: 2 };
  findings.sort((a, b) => order[a.severity] - order[b.severity]);
  return { score: Math.max(0, 100 - cost), findings, passed, stats, page };
}
