import { createRoute, z } from '@hono/zod-openapi';
import { errorResponses } from '../../http/error-responses.ts';
import { ApiError } from '../../http/errors.ts';
import { createRouter } from '../../http/openapi.ts';
import { secretMatches } from '../../http/secrets.ts';

const metricsRoute = createRoute({
  method: 'get',
  path: '/metrics',
  operationId: 'getMetrics',
  tags: ['Operations'],
  summary: 'Prometheus metrics of this instance',
  description:
    'Request counts and latency histograms per route, queue depths per state, outside-service errors and ' +
    'the Node.js process metrics, in the Prometheus text format. Requires `Authorization: Bearer ' +
    '<METRICS_API_SECRET>` or the admin key in `X-Admin-Api-Key`; with neither secret configured it answers 401.',
  // Either one: the bearer secret, or the admin key (scheme registered by the admin routes).
  security: [{ MetricsBearer: [] }, { AdminApiKey: [] }],
  responses: {
    200: { description: 'Metrics', content: { 'text/plain': { schema: z.string() } } },
    ...errorResponses({ 401: 'UNAUTHORIZED: missing or wrong secret' }),
  },
});

export function metricsRoutes() {
  const router = createRouter();
  router.openAPIRegistry.registerComponent('securitySchemes', 'MetricsBearer', {
    type: 'http',
    scheme: 'bearer',
    description: 'METRICS_API_SECRET',
  });
  return router.openapi(metricsRoute, async (c) => {
    const { config, metrics } = c.env.deps;
    // The scheme's name is case-insensitive (RFC 9110 11.1).
    const bearer = /^Bearer +(.+)$/i.exec(c.req.header('authorization') ?? '')?.[1];
    const allowed =
      secretMatches(bearer, config.secrets.metrics) ||
      secretMatches(c.req.header('x-admin-api-key'), config.secrets.admin);
    if (!allowed) throw new ApiError('UNAUTHORIZED', 'A valid metrics or admin secret is required.');
    return c.body(await metrics.registry.metrics(), 200, { 'Content-Type': metrics.registry.contentType });
  });
}
