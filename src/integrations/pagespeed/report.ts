/**
 * The diagnostic report both engines produce (PageSpeed Insights returns a Lighthouse result too, so
 * one normaliser serves both), plus the interface an engine implements.
 */

export type Strategy = 'mobile' | 'desktop';
export type EngineName = 'pagespeed-insights' | 'lighthouse';

export interface LabMetric {
  /** Milliseconds, or unitless for CLS. */
  value: number | null;
  unit: 'ms' | 'unitless';
  displayValue: string | null;
  /** 0–100 as Lighthouse scores the metric. */
  score: number | null;
}

export interface Opportunity {
  id: string;
  title: string;
  description: string;
  displayValue: string | null;
  score: number | null;
  savingsMs: number | null;
  savingsBytes: number | null;
}

export interface FieldMetric {
  percentile: number;
  category: string;
}

export interface FieldData {
  /** `url` when the data is for the page itself, `origin` when PSI fell back to the whole origin. */
  scope: 'url' | 'origin';
  overallCategory: string | null;
  metrics: Partial<Record<'lcp' | 'cls' | 'inp' | 'fcp' | 'ttfb', FieldMetric>>;
}

export interface DiagnosticReport {
  engine: EngineName;
  strategy: Strategy;
  /** The URL Lighthouse finally measured (after redirects). */
  finalUrl: string;
  lighthouseVersion: string | null;
  scores: {
    performance: number | null;
    accessibility: number | null;
    bestPractices: number | null;
    seo: number | null;
  };
  metrics: {
    lcp: LabMetric;
    cls: LabMetric;
    tbt: LabMetric;
    fcp: LabMetric;
    speedIndex: LabMetric;
    serverResponseTime: LabMetric;
  };
  opportunities: Opportunity[];
  fieldData: FieldData | null;
  /** Lighthouse's run warnings (e.g. "the page redirected"). */
  warnings: string[];
}

export interface AnalyzeOptions {
  url: string;
  strategy: Strategy;
  signal?: AbortSignal;
}

export interface PageSpeedEngine {
  readonly name: EngineName;
  analyze(options: AnalyzeOptions): Promise<DiagnosticReport>;
}

/** Thrown by an engine when the analysis failed; `permanent` failures are not worth retrying. */
export class PageSpeedError extends Error {
  override name = 'PageSpeedError';
  readonly permanent: boolean;
  /**
   * True when the SSRF rules refused the page (its name resolves to a non-public address, or it
   * redirects to one): the visitor's URL is not acceptable (400), not an upstream failure (502).
   */
  readonly refused: boolean;
  /** What the service said, for the operator's log: `message` is what the visitor is told. */
  readonly detail: string | null;
  /** True when the analysing service itself failed (no answer, a bad key, a quota), not the page. */
  readonly upstream: boolean;
  constructor(
    message: string,
    options: {
      permanent?: boolean;
      refused?: boolean;
      upstream?: boolean;
      cause?: unknown;
      detail?: string;
    } = {},
  ) {
    super(message, { cause: options.cause });
    this.permanent = options.permanent ?? false;
    this.refused = options.refused ?? false;
    this.upstream = options.upstream ?? false;
    this.detail = options.detail ?? null;
  }
}
