import type { Dependencies } from '../../dependencies.ts';

/**
 * The analytics statistics the dashboard charts, read through the analytics feature's own stats
 * function once that feature is part of the service; null while it is not.
 */
export async function analyticsStats(
  _deps: Dependencies,
  _query: { from?: string; to?: string; limit: number },
): Promise<Record<string, unknown> | null> {
  return null;
}
