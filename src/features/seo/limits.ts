/** Limits of the SEO analysis, shared by the schemas, the logic and the tests. */
export const SEO_LIMITS = {
  /** Analyses per client IP per hour (each one fetches or renders a page for a visitor). */
  ratePerHour: 30,
  urlMaxChars: 2048,
  /** Analyses are cached this long per normalised URL. */
  cacheTtlSeconds: 60 * 60,
  /** The whole analysis (page, robots.txt, sitemap) fits in this. */
  totalTimeoutMs: 20_000,
  pageTimeoutMs: 15_000,
  pageMaxBytes: 3 * 1024 * 1024,
  robotsMaxBytes: 512 * 1024,
  /** robots.txt Allow/Disallow rules kept (across all groups); later ones are ignored. */
  robotsMaxRules: 2000,
  /** A robots.txt rule with a longer pattern is ignored (URLs here are at most `urlMaxChars`). */
  robotsPatternMaxChars: 2048,
  sitemapMaxBytes: 1024 * 1024,
  sideRequestTimeoutMs: 5_000,
  title: { min: 30, max: 60 },
  description: { min: 70, max: 160 },
  /** Deeper nesting is refused (502) before the HTML parser, which is quadratic in depth, runs. */
  maxNesting: 512,
  minWords: 300,
  maxLinks: 300,
} as const;

export const SEVERITY_COST = { error: 10, warning: 4, notice: 1 } as const;
export type Severity = keyof typeof SEVERITY_COST;
