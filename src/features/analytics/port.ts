/**
 * What other features may use of analytics (the only file of this folder they may import): the back
 * office reads its statistics (with filters, the inbox folded first), and refuses a bad date range as analytics does; the
 * lead and contact-us forms take the visit context and record their conversions.
 */
export {
  AnalyticsContext,
  type AnalyticsContextInput,
  type ConversionRecorder,
  conversionRecorder,
} from './conversion.ts';
export { AnalyticsRefusal } from './errors.ts';
export { type FilterName, filtersOf } from './filters.ts';
export { Stats, StatsQuery } from './schemas.ts';
export { foldAndResolveRange, readAnalyticsStats } from './stats.ts';
