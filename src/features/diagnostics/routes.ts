import { createRoute } from '@hono/zod-openapi';
import { requireJson } from '../../http/body.ts';
import { errorResponses, RATE_LIMIT_HEADERS } from '../../http/error-responses.ts';
import { ApiError, type ErrorCode, mapErrors } from '../../http/errors.ts';
import { createRouter } from '../../http/openapi.ts';
import { rateLimit } from '../../http/rate-limit.ts';
import { findChrome } from '../../integrations/pagespeed/lighthouse-engine.ts';
import { requestDiagnostic } from './analyze.ts';
import { DiagnosticFailure, type DiagnosticFailureReason } from './errors.ts';
import { DIAGNOSTIC_LIMITS } from './limits.ts';
import { diagnosticsQueue } from './queue.ts';
import { DiagnosticHealth, DiagnosticRequest, DiagnosticResponse } from './schemas.ts';

const FAILURE_CODES: Record<DiagnosticFailureReason, ErrorCode> = {
  refused_url: 'VALIDATION_ERROR',
  not_configured: 'NOT_CONFIGURED',
  failed: 'EXTERNAL_SERVICE_ERROR',
};

function toApiError(error: unknown): unknown {
  if (!(error instanceof DiagnosticFailure)) return error;
  return new ApiError(FAILURE_CODES[error.reason], error.message);
}

const analyzeRoute = createRoute({
  method: 'post',
  path: '/api/diagnostic/analyze',
  tags: ['Diagnostics'],
  summary: 'Page-speed analysis of a URL',
  description:
    'Runs PageSpeed Insights v5 when PAGESPEED_API_KEY is set, otherwise local Lighthouse on Chromium (one run ' +
    'at a time per instance, through the durable queue). The URL is normalised and checked against the SSRF ' +
    'rules before anything runs (400 when refused); with local Lighthouse, a name that resolves to a non-public ' +
    'address, or a redirect to one, is refused with the same 400. Results are cached 24 hours per normalised URL and strategy; ' +
    'identical requests, on any instance, share one run. A request waits at most ' +
    `${DIAGNOSTIC_LIMITS.waitTimeoutMs / 1000} s; a failed or overlong run answers 502, no engine 503.`,
  middleware: [
    requireJson,
    rateLimit({ name: 'diagnostics', limit: DIAGNOSTIC_LIMITS.ratePerHour, windowMs: 3_600_000 }),
  ] as const,
  request: { body: { required: true, content: { 'application/json': { schema: DiagnosticRequest } } } },
  responses: {
    200: {
      description: 'The analysis',
      headers: RATE_LIMIT_HEADERS,
      content: { 'application/json': { schema: DiagnosticResponse } },
    },
    ...errorResponses(400, 415, 429, 502, 503),
  },
});

const healthRoute = createRoute({
  method: 'get',
  path: '/api/diagnostic/health',
  tags: ['Diagnostics'],
  summary: 'Which analysis engine is available',
  description:
    'Reports the engine, whether a PageSpeed key is configured (never the key) and the queue depth.',
  responses: {
    200: { description: 'Engine status', content: { 'application/json': { schema: DiagnosticHealth } } },
  },
});

export function diagnosticsRoutes() {
  return createRouter()
    .openapi(analyzeRoute, async (c) => {
      const deps = c.env.deps;
      const { url, strategy } = c.req.valid('json');
      const context = {
        engine: deps.pagespeed,
        safeFetch: deps.safeFetch,
        cache: deps.cache,
        jobs: deps.jobs,
        worker: deps.worker,
        db: deps.db,
      };
      const result = await mapErrors(requestDiagnostic(context, url, strategy, c.req.raw.signal), toApiError);
      const { report, analyzedAt, cached } = result;
      return c.json({ success: true as const, url: result.url, analyzedAt, cached, ...report }, 200);
    })
    .openapi(healthRoute, async (c) => {
      const deps = c.env.deps;
      const status = await diagnosticsQueue(deps.jobs).status();
      return c.json(
        {
          status: deps.pagespeed ? ('ok' as const) : ('unavailable' as const),
          engine: deps.pagespeed?.name ?? null,
          pagespeedApiKeyConfigured: Boolean(deps.config.pagespeed.apiKey),
          lighthouse: { chromiumFound: findChrome(deps.config.pagespeed.chromePath) !== null },
          cacheTtlSeconds: DIAGNOSTIC_LIMITS.cacheTtlSeconds,
          queue: { pending: status.counts.pending, running: status.counts.running },
        },
        200,
      );
    });
}
