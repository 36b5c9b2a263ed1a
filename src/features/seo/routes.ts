import { createRoute } from '@hono/zod-openapi';
import { requireJson } from '../../http/body.ts';
import { errorResponses, RATE_LIMIT_HEADERS } from '../../http/error-responses.ts';
import { ApiError, mapErrors } from '../../http/errors.ts';
import { createRouter } from '../../http/openapi.ts';
import { rateLimit } from '../../http/rate-limit.ts';
import { SAFE_FETCH_DEFAULTS } from '../../integrations/safe-fetch/safe-fetch.ts';
import { SeoFailure } from './errors.ts';
import { SEO_LIMITS } from './limits.ts';
import { SeoHealth, SeoRequest, SeoResponse } from './schemas.ts';

/** A refused URL is the visitor's mistake (400); a failed page, its site's (502). */
function toApiError(error: unknown): unknown {
  if (!(error instanceof SeoFailure)) return error;
  const code = error.reason === 'refused_url' ? 'VALIDATION_ERROR' : 'EXTERNAL_SERVICE_ERROR';
  return new ApiError(code, error.message, { cause: error.cause });
}

const analyzeRoute = createRoute({
  method: 'post',
  path: '/api/seo/analyze',
  operationId: 'analyzeSeo',
  tags: ['SEO'],
  security: [],
  summary: 'SEO checks of one page',
  description:
    'Fetches the page (and its robots.txt and sitemap) through the SSRF-safe fetcher: http/https only, ports ' +
    '80/443, public addresses only, every redirect re-checked (at most 5), ' +
    `${SEO_LIMITS.pageTimeoutMs / 1000} s and ${SEO_LIMITS.pageMaxBytes / 1024 / 1024} MB per page. Reports a 0–100 ` +
    'score and findings with a severity and a one-line fix. Cached one hour per normalised URL. A URL that is ' +
    'malformed, carries credentials, uses another scheme or port, or leads to a private address answers 400; a ' +
    'page that cannot be fetched (timeout, too large, connection refused) answers 502.',
  middleware: [
    requireJson,
    rateLimit({ name: 'seo', limit: SEO_LIMITS.ratePerHour, windowMs: 3_600_000 }),
  ] as const,
  request: { body: { required: true, content: { 'application/json': { schema: SeoRequest } } } },
  responses: {
    200: {
      description: 'The analysis',
      headers: RATE_LIMIT_HEADERS,
      content: { 'application/json': { schema: SeoResponse } },
    },
    ...errorResponses(400, 415, 429, 502),
  },
});

const healthRoute = createRoute({
  method: 'get',
  path: '/api/seo/health',
  operationId: 'getSeoHealth',
  // It never touches the database: no 503 for a database outage (openapi-document.ts).
  'x-database': false,
  tags: ['SEO'],
  security: [],
  summary: 'SEO analysis health',
  responses: { 200: { description: 'Ready', content: { 'application/json': { schema: SeoHealth } } } },
});

export function seoRoutes() {
  return createRouter()
    .openapi(analyzeRoute, async (c) => {
      const deps = c.env.deps;
      // The analysis (parse5 and the checks) is loaded on the first request, not at start-up.
      const { analyzeSeo } = await import('./analyze.ts');
      const analysis = await mapErrors(
        analyzeSeo({ safeFetch: deps.safeFetch, cache: deps.cache }, c.req.valid('json').url),
        toApiError,
      );
      return c.json({ success: true as const, ...analysis }, 200);
    })
    .openapi(healthRoute, (c) =>
      c.json(
        {
          status: 'ok' as const,
          service: 'seo' as const,
          cacheTtlSeconds: SEO_LIMITS.cacheTtlSeconds,
          limits: {
            pageMaxBytes: SEO_LIMITS.pageMaxBytes,
            timeoutMs: SEO_LIMITS.totalTimeoutMs,
            maxRedirects: SAFE_FETCH_DEFAULTS.maxRedirects,
          },
        },
        200,
      ),
    );
}
