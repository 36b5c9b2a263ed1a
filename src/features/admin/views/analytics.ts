import { createRoute } from '@hono/zod-openapi';
import { ApiError, mapErrors } from '../../../http/errors.ts';
import { createRouter } from '../../../http/openapi.ts';
import { AnalyticsRefusal, Stats, StatsQuery } from '../../analytics/port.ts';
import { analyticsStats } from '../analytics.ts';
import { apiErrors, json, security, tags } from './common.ts';

const analyticsRoute = createRoute({
  method: 'get',
  path: '/admin/api/analytics',
  operationId: 'getAdminAnalytics',
  tags,
  security,
  summary: 'Analytics statistics for the charts (the shape of GET /api/analytics/stats)',
  request: { query: StatsQuery },
  responses: { ...json(Stats, 'The statistics'), ...apiErrors({ 400: 'VALIDATION_ERROR' }) },
});

/** The charts' stats refuse a bad date range as GET /api/analytics/stats does: 400. */
function toApiError(error: unknown): unknown {
  return error instanceof AnalyticsRefusal ? new ApiError('VALIDATION_ERROR', error.message) : error;
}

/** The analytics view: the charts' statistics. */
export function analyticsViews() {
  return createRouter().openapi(analyticsRoute, async (c) => {
    const stats = await mapErrors(
      analyticsStats(c.env.deps.db, c.env.logger, c.req.valid('query')),
      toApiError,
    );
    return c.json(stats, 200);
  });
}
