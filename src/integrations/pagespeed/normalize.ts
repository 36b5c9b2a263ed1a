import type { DiagnosticReport, EngineName, FieldData, LabMetric, Opportunity, Strategy } from './report.ts';

/** The parts of a Lighthouse result (LHR) this service reads; PSI's `lighthouseResult` has the same shape. */
export interface LighthouseAudit {
  id?: string;
  title?: string;
  description?: string;
  score?: number | null;
  scoreDisplayMode?: string;
  displayValue?: string;
  numericValue?: number;
  numericUnit?: string;
  metricSavings?: Record<string, number>;
  details?: { type?: string; overallSavingsMs?: number; overallSavingsBytes?: number };
}

export interface LighthouseResult {
  lighthouseVersion?: string;
  finalDisplayedUrl?: string;
  finalUrl?: string;
  runWarnings?: string[];
  runtimeError?: { code?: string; message?: string };
  categories?: Record<string, { score?: number | null; auditRefs?: { id: string; group?: string }[] }>;
  audits?: Record<string, LighthouseAudit>;
}

export interface LoadingExperience {
  metrics?: Record<string, { percentile?: number; category?: string }>;
  overall_category?: string;
  origin_fallback?: boolean;
}

const TOP_OPPORTUNITIES = 5;

const toScore = (score: number | null | undefined) =>
  typeof score === 'number' ? Math.round(score * 100) : null;

const round = (value: number, decimals: number) => Math.round(value * 10 ** decimals) / 10 ** decimals;

function metric(audit: LighthouseAudit | undefined, unit: LabMetric['unit']): LabMetric {
  return {
    value: typeof audit?.numericValue === 'number' ? round(audit.numericValue, unit === 'ms' ? 1 : 4) : null,
    unit,
    displayValue: audit?.displayValue ?? null,
    score: toScore(audit?.score),
  };
}

function opportunities(lhr: LighthouseResult): Opportunity[] {
  const refs = lhr.categories?.performance?.auditRefs ?? [];
  const audits = lhr.audits ?? {};
  const found: Opportunity[] = [];
  for (const ref of refs) {
    if (ref.group === 'metrics' || ref.group === 'hidden') continue;
    const audit = audits[ref.id];
    if (!audit || typeof audit.score !== 'number' || audit.score >= 0.9) continue;
    if (audit.scoreDisplayMode === 'informative' || audit.scoreDisplayMode === 'notApplicable') continue;
    const savings = audit.metricSavings ?? {};
    const savingsMs =
      audit.details?.overallSavingsMs ??
      (Math.max(savings.LCP ?? 0, savings.FCP ?? 0, savings.TBT ?? 0) || null);
    found.push({
      id: ref.id,
      title: audit.title ?? ref.id,
      description: (audit.description ?? '').replace(/\s*\[Learn[^\]]*\]\([^)]*\)\.?/g, '').trim(),
      displayValue: audit.displayValue ?? null,
      score: toScore(audit.score),
      savingsMs: savingsMs === null ? null : Math.round(savingsMs),
      savingsBytes: audit.details?.overallSavingsBytes ?? null,
    });
  }
  return found
    .sort((a, b) => (b.savingsMs ?? 0) - (a.savingsMs ?? 0) || (a.score ?? 100) - (b.score ?? 100))
    .slice(0, TOP_OPPORTUNITIES);
}

const FIELD_METRICS: [keyof FieldData['metrics'], string][] = [
  ['lcp', 'LARGEST_CONTENTFUL_PAINT_MS'],
  ['cls', 'CUMULATIVE_LAYOUT_SHIFT_SCORE'],
  ['inp', 'INTERACTION_TO_NEXT_PAINT'],
  ['fcp', 'FIRST_CONTENTFUL_PAINT_MS'],
  ['ttfb', 'EXPERIMENTAL_TIME_TO_FIRST_BYTE'],
];

/** CrUX data as PSI returns it (`loadingExperience`), or null when Google has none for the URL. */
export function fieldData(experience: LoadingExperience | undefined): FieldData | null {
  if (!experience?.metrics || Object.keys(experience.metrics).length === 0) return null;
  const metrics: FieldData['metrics'] = {};
  for (const [name, key] of FIELD_METRICS) {
    const m = experience.metrics[key];
    if (typeof m?.percentile !== 'number') continue;
    // PSI reports the CLS percentile multiplied by 100.
    metrics[name] = {
      percentile: name === 'cls' ? m.percentile / 100 : m.percentile,
      category: m.category ?? 'NONE',
    };
  }
  return {
    scope: experience.origin_fallback ? 'origin' : 'url',
    overallCategory: experience.overall_category ?? null,
    metrics,
  };
}

export function fromLighthouseResult(
  lhr: LighthouseResult,
  engine: EngineName,
  strategy: Strategy,
  experience?: LoadingExperience,
): DiagnosticReport {
  const audits = lhr.audits ?? {};
  const categories = lhr.categories ?? {};
  return {
    engine,
    strategy,
    finalUrl: lhr.finalDisplayedUrl ?? lhr.finalUrl ?? '',
    lighthouseVersion: lhr.lighthouseVersion ?? null,
    scores: {
      performance: toScore(categories.performance?.score),
      accessibility: toScore(categories.accessibility?.score),
      bestPractices: toScore(categories['best-practices']?.score),
      seo: toScore(categories.seo?.score),
    },
    metrics: {
      lcp: metric(audits['largest-contentful-paint'], 'ms'),
      cls: metric(audits['cumulative-layout-shift'], 'unitless'),
      tbt: metric(audits['total-blocking-time'], 'ms'),
      fcp: metric(audits['first-contentful-paint'], 'ms'),
      speedIndex: metric(audits['speed-index'], 'ms'),
      serverResponseTime: metric(audits['server-response-time'], 'ms'),
    },
    opportunities: opportunities(lhr),
    fieldData: fieldData(experience),
    warnings: (lhr.runWarnings ?? []).slice(0, 10),
  };
}
