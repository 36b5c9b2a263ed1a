import { z } from '@hono/zod-openapi';
import { SEO_LIMITS } from './limits.ts';

export const SeoRequest = z
  .object({
    url: z.string().min(1).max(SEO_LIMITS.urlMaxChars).openapi({
      description: 'Absolute http(s) URL of the page (no credentials).',
      example: 'https://example.com/services',
    }),
  })
  .openapi('SeoAnalyzeRequest');

const Finding = z.object({
  id: z.string().openapi({ example: 'meta-description' }),
  severity: z.enum(['error', 'warning', 'notice']),
  message: z.string().openapi({ example: 'The meta description is 42 characters long.' }),
  fix: z.string().openapi({ example: 'Write 70–160 characters so search results show it whole.' }),
});

export const SeoResponse = z
  .object({
    success: z.literal(true),
    url: z
      .string()
      .openapi({ description: 'The normalised URL analysed.', example: 'https://example.com/services' }),
    finalUrl: z.string().openapi({ description: 'The URL that answered after redirects.' }),
    status: z.number().int().openapi({ description: 'HTTP status of the final answer.', example: 200 }),
    redirects: z.array(z.object({ url: z.string(), status: z.number().int() })),
    score: z
      .number()
      .int()
      .min(0)
      .max(100)
      .openapi({ description: '100 minus 10 per error, 4 per warning, 1 per notice.', example: 82 }),
    summary: z.object({ errors: z.number().int(), warnings: z.number().int(), notices: z.number().int() }),
    findings: z
      .array(Finding)
      .openapi({ description: 'Problems found, errors first, each with a one-line fix.' }),
    passed: z
      .array(z.string())
      .openapi({ description: 'Ids of the checks that passed.', example: ['https', 'title', 'viewport'] }),
    stats: z.object({
      wordCount: z.number().int(),
      links: z.object({ total: z.number().int(), internal: z.number().int(), external: z.number().int() }),
      images: z.object({ total: z.number().int(), withoutAlt: z.number().int() }),
      headings: z.record(z.string(), z.number().int()),
    }),
    page: z.object({
      title: z.string().nullable(),
      description: z.string().nullable(),
      canonical: z.string().nullable(),
      lang: z.string().nullable(),
    }),
    analyzedAt: z.string().openapi({ example: '2026-11-21T09:00:00.000Z' }),
    cached: z
      .boolean()
      .openapi({ description: `True when served from the ${SEO_LIMITS.cacheTtlSeconds / 60}-minute cache.` }),
  })
  .openapi('SeoAnalysis');

export const SeoHealth = z
  .object({
    status: z.literal('ok'),
    service: z.literal('seo'),
    cacheTtlSeconds: z.number().int(),
    limits: z.object({
      pageMaxBytes: z.number().int(),
      timeoutMs: z.number().int(),
      maxRedirects: z.number().int(),
    }),
  })
  .openapi('SeoHealth');
