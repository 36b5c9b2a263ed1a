/**
 * What other features may use of analytics (the only file of this folder they may import): the back
 * office reads its statistics.
 */
export { Stats, StatsQuery } from './schemas.ts';
export { readAnalyticsStats, resolveRange } from './stats.ts';
