import { z } from '@hono/zod-openapi';
import { DIAGNOSTIC_LIMITS, STRATEGIES } from './limits.ts';

export const DiagnosticRequest = z
  .object({
    url: z.string().min(1).max(DIAGNOSTIC_LIMITS.urlMaxChars).openapi({
      description: 'Absolute http(s) URL of a public page (no credentials; ports 80/443).',
      example: 'https://example.com/',
    }),
    strategy: z
      .enum(STRATEGIES)
      .default('mobile')
      .openapi({ description: 'Device to emulate.', example: 'mobile' }),
  })
  .openapi('DiagnosticRequest');

const Metric = z
  .object({
    value: z
      .number()
      .nullable()
      .openapi({ description: 'Milliseconds (unitless for CLS).', example: 2310.5 }),
    unit: z.enum(['ms', 'unitless']),
    displayValue: z.string().nullable().openapi({ example: '2.3 s' }),
    score: z
      .number()
      .int()
      .nullable()
      .openapi({ description: '0–100 as Lighthouse scores the metric.', example: 87 }),
  })
  .openapi('LabMetric');

const FieldMetric = z.object({
  percentile: z.number().openapi({ description: '75th percentile (ms; CLS unitless).', example: 2100 }),
  category: z.string().openapi({ example: 'FAST' }),
});

const score = (description: string) =>
  z.number().int().min(0).max(100).nullable().openapi({ description, example: 91 });

export const DiagnosticResponse = z
  .object({
    success: z.literal(true),
    url: z
      .string()
      .openapi({ description: 'The normalised URL (lower-case host, no default port, no fragment).' }),
    finalUrl: z.string().openapi({ description: 'The URL measured after redirects.' }),
    strategy: z.enum(STRATEGIES),
    engine: z.enum(['pagespeed-insights', 'lighthouse']),
    lighthouseVersion: z.string().nullable().openapi({ example: '13.5.0' }),
    analyzedAt: z.string().openapi({ example: '2026-11-21T09:00:00.000Z' }),
    cached: z.boolean().openapi({ description: 'True when served from the 24-hour cache.' }),
    scores: z.object({
      performance: score('Performance category, 0–100.'),
      accessibility: score('Accessibility category, 0–100.'),
      bestPractices: score('Best-practices category, 0–100.'),
      seo: score('SEO category, 0–100.'),
    }),
    metrics: z
      .object({
        lcp: Metric,
        cls: Metric,
        tbt: Metric,
        fcp: Metric,
        speedIndex: Metric,
        serverResponseTime: Metric,
      })
      .openapi({
        description:
          'Lab metrics: Largest Contentful Paint, Cumulative Layout Shift, Total Blocking Time, First Contentful Paint, Speed Index, server response time (TTFB of the document).',
      }),
    opportunities: z
      .array(
        z.object({
          id: z.string().openapi({ example: 'render-blocking-insight' }),
          title: z.string(),
          description: z.string(),
          displayValue: z.string().nullable(),
          score: z.number().int().nullable(),
          savingsMs: z.number().nullable(),
          savingsBytes: z.number().nullable(),
        }),
      )
      .openapi({ description: 'Up to five failing performance audits, largest estimated saving first.' }),
    fieldData: z
      .object({
        scope: z.enum(['url', 'origin']),
        overallCategory: z.string().nullable(),
        metrics: z
          .object({
            lcp: FieldMetric,
            cls: FieldMetric,
            inp: FieldMetric,
            fcp: FieldMetric,
            ttfb: FieldMetric,
          })
          .partial(),
      })
      .nullable()
      .openapi({
        description:
          'Chrome UX Report field data (PSI `loadingExperience`); null when Google has none or with local Lighthouse.',
      }),
    warnings: z.array(z.string()),
  })
  .openapi('DiagnosticResult');

export const DiagnosticHealth = z
  .object({
    status: z.enum(['ok', 'unavailable']),
    engine: z
      .enum(['pagespeed-insights', 'lighthouse'])
      .nullable()
      .openapi({ description: 'The engine analyses use; null when none is possible.' }),
    pagespeedApiKeyConfigured: z.boolean(),
    lighthouse: z.object({ chromiumFound: z.boolean() }),
    cacheTtlSeconds: z.number().int(),
    queue: z.object({ pending: z.number().int(), running: z.number().int() }),
  })
  .openapi('DiagnosticHealth');
