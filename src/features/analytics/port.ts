/**
 * What other features may use of analytics (the only file of this folder they may import): the back
 * office reads its statistics, and refuses a bad date range as analytics does.
 */
export { AnalyticsRefusal } from './errors.ts';
export { Stats, StatsQuery } from './schemas.ts';
export { readAnalyticsStats, resolveRange } from './stats.ts';
