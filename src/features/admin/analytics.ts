import type { Logger } from 'pino';
import type { Db } from '../../db/database.ts';
import { type FilterName, filtersOf, foldAndResolveRange, readAnalyticsStats } from '../analytics/port.ts';

/**
 * The analytics statistics the dashboard charts: the analytics feature's own stats functions (the
 * same answer as GET /api/analytics/stats), so the two never disagree. Bad dates are refused there
 * (AnalyticsRefusal).
 */
export async function analyticsStats(
  db: Db,
  logger: Logger,
  query: { from?: string; to?: string; limit: number } & Partial<Record<FilterName, string>>,
) {
  const range = await foldAndResolveRange(db, logger, query.from, query.to, Date.now());
  return readAnalyticsStats(db, range, query.limit, filtersOf(query));
}
