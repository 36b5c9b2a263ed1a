import type { CacheStore } from '../../db/cache-store.ts';
import { normalizeUrl, SafeFetchError, type SafeFetcher } from '../../integrations/safe-fetch/safe-fetch.ts';
import { decodeMarkup } from '../../text/decode-text.ts';
import { HtmlTooComplexError, MAX_HTML_ELEMENTS, nestingDepth } from '../../text/html.ts';
import { runChecks } from './checks.ts';
import { SeoFailure } from './errors.ts';
import { SEO_LIMITS } from './limits.ts';
import type { PageInput, SeoReport } from './report.ts';
import { parseRobots, robotsAllows } from './robots.ts';

export interface SeoContext {
  safeFetch: SafeFetcher;
  cache: CacheStore;
  now?: () => number;
}

export interface SeoAnalysis extends SeoReport {
  url: string;
  finalUrl: string;
  status: number;
  redirects: { url: string; status: number }[];
  analyzedAt: string;
  cached: boolean;
  summary: { errors: number; warnings: number; notices: number };
}

/** Search engines' token in robots.txt; the page is judged as Googlebot would see it. */
const CRAWLER = 'googlebot';

/** A fetch failure as the visitor's URL (refused) or the page's site (failed). */
function fetchFailure(error: unknown): SeoFailure {
  if (error instanceof SafeFetchError) {
    return new SeoFailure(error.isPolicy ? 'refused_url' : 'page_failed', error.message, { cause: error });
  }
  return new SeoFailure('page_failed', 'The page could not be fetched.', { cause: error });
}

/** Fetches the page, its robots.txt and sitemap through the safe fetcher, and runs the checks. */
export async function analyzeSeo(ctx: SeoContext, rawUrl: string): Promise<SeoAnalysis> {
  let url: URL;
  try {
    url = normalizeUrl(rawUrl);
  } catch (error) {
    throw fetchFailure(error);
  }
  const key = `seo:${url.href}`;
  const cached = await ctx.cache.get<SeoAnalysis>(key);
  if (cached?.fresh) return { ...cached.value, cached: true };

  const deadline = AbortSignal.timeout(SEO_LIMITS.totalTimeoutMs);
  let page: Awaited<ReturnType<SafeFetcher['fetch']>>;
  try {
    page = await ctx.safeFetch.fetch(url.href, {
      timeoutMs: SEO_LIMITS.pageTimeoutMs,
      maxBytes: SEO_LIMITS.pageMaxBytes,
      signal: deadline,
    });
  } catch (error) {
    throw fetchFailure(error);
  }
  const final = new URL(page.url);
  const [robots, sitemapFromRobots] = await readRobots(ctx, final, deadline);
  const sitemap = await findSitemap(ctx, final, sitemapFromRobots, deadline);
  const isHtml = /html/i.test(page.headers['content-type'] ?? 'text/html');
  const input: PageInput = {
    requestedUrl: url.href,
    finalUrl: page.url,
    status: page.status,
    redirects: page.redirects,
    headers: page.headers,
    html: isHtml ? await decodeMarkup(page.body, page.headers['content-type']) : null,
    robots,
    sitemap,
  };
  const { load } = await import('cheerio');
  if (input.html !== null && nestingDepth(input.html, load) > SEO_LIMITS.maxNesting) {
    throw new SeoFailure(
      'page_failed',
      `The page nests its elements more than ${SEO_LIMITS.maxNesting} levels deep; it cannot be analysed.`,
    );
  }
  let report: ReturnType<typeof runChecks>;
  try {
    report = runChecks(input, load);
  } catch (error) {
    // A page the checks cannot read is the page's problem, answered like one that cannot be fetched.
    if (error instanceof HtmlTooComplexError) {
      throw new SeoFailure(
        'page_failed',
        `The page makes more than ${MAX_HTML_ELEMENTS} HTML elements; it cannot be analysed.`,
      );
    }
    throw new SeoFailure('page_failed', 'The page could not be analysed.', { cause: error });
  }
  const count = (s: string) => report.findings.filter((f) => f.severity === s).length;
  const analysis: SeoAnalysis = {
    url: url.href,
    finalUrl: page.url,
    status: page.status,
    redirects: page.redirects,
    analyzedAt: new Date(ctx.now?.() ?? Date.now()).toISOString(),
    cached: false,
    summary: { errors: count('error'), warnings: count('warning'), notices: count('notice') },
    ...report,
  };
  await ctx.cache.set(key, analysis, SEO_LIMITS.cacheTtlSeconds, 0);
  return analysis;
}

async function readRobots(
  ctx: SeoContext,
  page: URL,
  signal: AbortSignal,
): Promise<[PageInput['robots'], string[]]> {
  try {
    const response = await ctx.safeFetch.fetch(new URL('/robots.txt', page).href, {
      timeoutMs: SEO_LIMITS.sideRequestTimeoutMs,
      maxBytes: SEO_LIMITS.robotsMaxBytes,
      signal,
    });
    if (response.status >= 400 && response.status < 500) return ['missing', []];
    if (response.status >= 500) return ['unreachable', []];
    const robots = parseRobots(response.body.toString('utf8'));
    const allowed = robotsAllows(robots, CRAWLER, `${page.pathname}${page.search}`);
    return [allowed ? 'allowed' : 'disallowed', robots.sitemaps];
  } catch {
    return ['unreachable', []];
  }
}

async function findSitemap(
  ctx: SeoContext,
  page: URL,
  fromRobots: string[],
  signal: AbortSignal,
): Promise<PageInput['sitemap']> {
  const candidates = [
    ...fromRobots.slice(0, 2),
    new URL('/sitemap.xml', page).href,
    new URL('/sitemap_index.xml', page).href,
  ];
  for (const candidate of [...new Set(candidates)]) {
    try {
      const response = await ctx.safeFetch.fetch(candidate, {
        timeoutMs: SEO_LIMITS.sideRequestTimeoutMs,
        maxBytes: SEO_LIMITS.sitemapMaxBytes,
        signal,
      });
      if (
        response.status === 200 &&
        /<(urlset|sitemapindex)[\s>]/i.test(response.body.toString('utf8', 0, 4096))
      ) {
        return { found: true, url: response.url };
      }
    } catch (error) {
      // A too-large sitemap still exists.
      if (error instanceof SafeFetchError && error.reason === 'too_large')
        return { found: true, url: candidate };
      if (signal.aborted) break;
    }
  }
  return { found: false, url: null };
}
