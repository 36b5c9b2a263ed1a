import type { load as CheerioLoad } from 'cheerio';
import { h1, headingOrder, imgAlt, linkCount, linkHref, linkText, wordCount } from './content-checks.ts';
import {
  canonical,
  charset,
  favicon,
  hreflang,
  htmlLang,
  metaDescription,
  metaRobots,
  openGraph,
  structuredData,
  title,
  twitterCard,
  viewport,
} from './head-checks.ts';
import { SEVERITY_COST, type Severity } from './limits.ts';
import { type PageFacts, readPageFacts } from './page-facts.ts';
import type { Check, Finding, PageInput, SeoReport, SeoStats } from './report.ts';
import { httpStatus, https, redirects, robotsTxt, sitemap, xRobotsTag } from './site-checks.ts';

/** The checks of the answer and the site, run on every page. */
const SITE_CHECKS: readonly Check<PageInput>[] = [
  ['http-status', httpStatus],
  ['redirects', redirects],
  ['https', https],
  ['x-robots-tag', xRobotsTag],
  ['robots-txt', robotsTxt],
  ['sitemap', sitemap],
];

/** The checks of an HTML page, in the order they are reported. */
const PAGE_CHECKS: readonly Check<PageFacts>[] = [
  ['meta-robots', metaRobots],
  ['title', title],
  ['meta-description', metaDescription],
  ['h1', h1],
  ['heading-order', headingOrder],
  ['img-alt', imgAlt],
  ['link-text', linkText],
  ['link-href', linkHref],
  ['canonical', canonical],
  ['hreflang', hreflang],
  ['html-lang', htmlLang],
  ['viewport', viewport],
  ['charset', charset],
  ['open-graph', openGraph],
  ['twitter-card', twitterCard],
  ['structured-data', structuredData],
  ['favicon', favicon],
  ['word-count', wordCount],
  ['link-count', linkCount],
];

/**
 * Runs every check on one page; pure (no I/O), so fixtures can test each rule. cheerio's `load` is
 * passed in so the parser (≈35 MB) is loaded on the first analysis, not at start-up.
 */
export function runChecks(input: PageInput, load: typeof CheerioLoad): SeoReport {
  const findings: Finding[] = [];
  const passed: string[] = [];
  const run = <Subject>(checks: readonly Check<Subject>[], subject: Subject) => {
    for (const [id, rule] of checks) {
      const problem = rule(subject);
      if (problem) findings.push({ id, ...problem });
      else passed.push(id);
    }
  };
  run(SITE_CHECKS, input);
  if (input.html === null) {
    findings.push({
      id: 'content-type',
      severity: 'error',
      message: `The URL answered ${input.headers['content-type'] ?? 'no content type'}, not an HTML page.`,
      fix: 'Analyse the URL of an HTML page.',
    });
    return finish(findings, passed, null);
  }
  const page = readPageFacts(input.html, new URL(input.finalUrl), input.headers['content-type'], load);
  run(PAGE_CHECKS, page);
  return finish(findings, passed, page);
}

function finish(findings: Finding[], passed: string[], page: PageFacts | null): SeoReport {
  const cost = findings.reduce((sum, f) => sum + SEVERITY_COST[f.severity], 0);
  const order: Record<Severity, number> = { error: 0, warning: 1, notice: 2 };
  findings.sort((a, b) => order[a.severity] - order[b.severity]);
  return { score: Math.max(0, 100 - cost), findings, passed, stats: statsOf(page), page: summaryOf(page) };
}

function statsOf(page: PageFacts | null): SeoStats {
  const headings = { h1: 0, h2: 0, h3: 0, h4: 0, h5: 0, h6: 0 };
  for (const level of page?.headingLevels ?? []) headings[`h${level}` as keyof SeoStats['headings']]++;
  return {
    wordCount: page?.wordCount ?? 0,
    links: page ? { ...page.links } : { total: 0, internal: 0, external: 0 },
    images: page ? { ...page.images } : { total: 0, withoutAlt: 0 },
    headings,
  };
}

function summaryOf(page: PageFacts | null): SeoReport['page'] {
  return {
    title: page?.title || null,
    description: page?.description || null,
    canonical: page?.canonicalHref || null,
    lang: page?.lang ?? null,
  };
}
