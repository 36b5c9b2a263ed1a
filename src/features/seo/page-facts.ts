import type { load as CheerioLoad } from 'cheerio';
import { firstImageAlt, imageAltWithin, parseHtmlBounded, textOf, textWithin } from '../../text/html.ts';

/**
 * What the HTML checks judge, read from the page once. The reading is where the cost is (hostile
 * pages nest and repeat elements by the hundred thousand): each part below says how it stays bounded.
 */
export interface PageFacts {
  /** The robots and googlebot meta tags' content, joined with commas. */
  robotsMeta: string;
  /** The first page title (not an `<svg>`'s), whitespace collapsed; '' when there is none. */
  title: string;
  titleCount: number;
  description: string;
  descriptionCount: number;
  /** Every heading's level, in document order. */
  headingLevels: number[];
  h1Count: number;
  /** The first h1's text, or its image's alt text. */
  h1Text: string;
  images: { total: number; withoutAlt: number };
  links: { total: number; internal: number; external: number };
  /** Links whose label is "click here" and the like. */
  genericLinks: number;
  /** Links with no crawlable href (missing, "#", javascript:, unparsable). */
  linksWithoutHref: number;
  canonicalCount: number;
  /** The first canonical link's href, trimmed; '' when there is none. */
  canonicalHref: string;
  /** The path of the page's final URL (a canonical to the home page is wrong for an inner page). */
  pathname: string;
  hreflang: { count: number; invalid: string[]; relative: number };
  lang: string | null;
  viewport: string | null;
  charsetDeclared: boolean;
  missingOpenGraph: string[];
  twitterCard: string | null;
  /** The text of every JSON-LD script. */
  jsonLd: string[];
  favicon: boolean;
  wordCount: number;
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
 * Parses the page (bounded: HtmlTooComplexError past MAX_HTML_ELEMENTS) and reads its facts. cheerio's
 * `load` is passed in so the parser (≈35 MB) is loaded on the first analysis, not at start-up.
 */
export function readPageFacts(
  html: string,
  finalUrl: URL,
  contentType: string | undefined,
  load: typeof CheerioLoad,
): PageFacts {
  const $ = load(parseHtmlBounded(html));
  const property = (name: string) =>
    $(`meta[property="${name}" i], meta[name="${name}" i]`).attr('content')?.trim() || null;

  // Every title (those in <head> included), its ancestors walked on the parsed nodes: the selector
  // `head title, title` and `$(el).parents('svg')` per title took 2.7 s on a page of 95 000 titles
  // 500 levels deep.
  const titles = $('title').filter((_, el) => !insideSvg(el));
  const descriptions = $('meta[name="description" i]');

  const headingLevels: number[] = [];
  $('h1, h2, h3, h4, h5, h6').each((_, el) => {
    headingLevels.push(Number(el.tagName.slice(1)));
  });
  // An image heading (<h1><img alt="Acme"></h1>) is named by its alt text. Only the first one's text
  // is read: h1s nest (`<h1><b><h1>…`), and reading every one's whole text made 250 nested h1s around
  // 2.8 MB of text read 700 MB (1.7 s, 1 GB).
  const h1s = $('h1');
  const images = $('img');
  const canonicals = $('link[rel~="canonical" i]');
  const alternates = $('link[rel~="alternate" i][hreflang]');
  const body = $('body')[0];
  return {
    robotsMeta: $('meta[name="robots" i], meta[name="googlebot" i]')
      .map((_, el) => $(el).attr('content') ?? '')
      .get()
      .join(', '),
    title: titles.first().text().replace(/\s+/g, ' ').trim(),
    titleCount: titles.length,
    description: descriptions.first().attr('content')?.replace(/\s+/g, ' ').trim() ?? '',
    descriptionCount: descriptions.length,
    headingLevels,
    h1Count: h1s.length,
    h1Text: h1s[0] ? (textOf(h1s[0]).trim() || firstImageAlt(h1s[0]) || '').trim() : '',
    images: {
      total: images.length,
      withoutAlt: images.filter((_, el) => $(el).attr('alt') === undefined).length,
    },
    ...readLinks($, finalUrl, html.length),
    canonicalCount: canonicals.length,
    canonicalHref: canonicals.first().attr('href')?.trim() ?? '',
    pathname: finalUrl.pathname,
    hreflang: {
      count: alternates.length,
      invalid: alternates
        .filter((_, el) => !HREFLANG.test($(el).attr('hreflang')?.trim() ?? ''))
        .map((_, el) => $(el).attr('hreflang') ?? '')
        .get(),
      relative: alternates.filter((_, el) => !/^https?:\/\//i.test($(el).attr('href')?.trim() ?? '')).length,
    },
    lang: $('html').attr('lang')?.trim() || null,
    viewport: $('meta[name="viewport" i]').attr('content')?.trim() ?? null,
    charsetDeclared:
      $('meta[charset]').length > 0 ||
      /charset=/i.test($('meta[http-equiv="content-type" i]').attr('content') ?? '') ||
      /charset=/i.test(contentType ?? ''),
    missingOpenGraph: ['og:title', 'og:description', 'og:image', 'og:url'].filter((p) => !property(p)),
    twitterCard: property('twitter:card'),
    jsonLd: $('script[type="application/ld+json" i]')
      .map((_, el) => $(el).text())
      .get(),
    favicon: $('link[rel~="icon" i], link[rel="shortcut icon" i], link[rel="apple-touch-icon" i]').length > 0,
    wordCount: (body ? textOf(body) : '').split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length,
  };
}

/**
 * The links' counts and labels, read from the parsed nodes: a cheerio wrapper per link made a page
 * of 100 000 links quadratic. The accessible name: aria-label first, then the text, then an image's alt.
 */
function readLinks($: ReturnType<typeof CheerioLoad>, finalUrl: URL, pageLength: number) {
  const links = { total: 0, internal: 0, external: 0 };
  let genericLinks = 0;
  let linksWithoutHref = 0;
  const labelBudget = { left: LINK_TEXT_BUDGET_FACTOR * pageLength };
  $('a').each((_, el) => {
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
    if (GENERIC_LINK_TEXT.has(withoutTrailingPunctuation(label).trim())) genericLinks++;
    if (!href || href === '#' || /^javascript:/i.test(href)) {
      linksWithoutHref++;
      return;
    }
    let target: URL;
    try {
      target = new URL(href, finalUrl);
    } catch {
      linksWithoutHref++;
      return;
    }
    if (target.protocol !== 'http:' && target.protocol !== 'https:') return;
    links.total++;
    if (target.hostname === finalUrl.hostname) links.internal++;
    else links.external++;
  });
  return { links, genericLinks, linksWithoutHref };
}
