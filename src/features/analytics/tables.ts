import { bigint, integer, type RowOf, table, text } from '../../db/table-spec.ts';

/* The analytics tables, declared once (test/schema.test.ts checks them against the migrations). */

/** The `analytics_events` table (migrations 0006 and 0012). */
export const analyticsEventsTable = table({
  id: text(),
  type: text(),
  page: text(),
  referrer: text().orNull(),
  /** Host of an external referrer (without `www.`), null for direct or internal traffic. */
  referrer_host: text().orNull(),
  title: text().orNull(),
  properties: text().orNull(),
  session_id: text().orNull(),
  country: text().orNull(),
  visitor_hash: text(),
  /** UTC day `YYYY-MM-DD` of created_at: the rollup key and the visitor-hash salt's day. */
  day: text(),
  created_at: bigint(),
  /** The visit (analytics_visits) the event belongs to; set when its batch is written. */
  visit_id: text().orNull(),
  /** Where the event's page was reached from (sources.ts); null: direct or internal. */
  source: text().orNull(),
  utm_source: text().orNull(),
  utm_medium: text().orNull(),
  utm_campaign: text().orNull(),
  device: text().orNull(),
  browser: text().orNull(),
  os: text().orNull(),
});

export type AnalyticsEventRow = RowOf<typeof analyticsEventsTable>;

/** The `analytics_daily` table (migration 0006). */
export const analyticsDailyTable = table({
  dimension: text(),
  day: text(),
  value: text(),
  count: bigint(),
});

/** The `analytics_visitors` table (migration 0006). */
export const analyticsVisitorsTable = table({
  day: text(),
  visitor_hash: text(),
});

/** The `analytics_salts` table (migration 0006). */
export const analyticsSaltsTable = table({
  day: text(),
  salt: text(),
  created_at: bigint(),
});

/** The `analytics_visits` table (migration 0012): one visit, a visitor's run of events without a
 * 30-minute gap, within one UTC day (its hash's). */
export const analyticsVisitsTable = table({
  id: text(),
  day: text(),
  visitor_hash: text(),
  started_at: bigint(),
  last_at: bigint(),
  /** 1 when this is the visitor's first visit of the day (breakdowns count visitors by it). */
  new_visitor: integer(),
  entry_page: text(),
  exit_page: text(),
  pageviews: integer(),
  events: integer(),
  /** Interactive events: page views and custom events not sent with `interactive: false`. */
  interactions: integer(),
  engagement_ms: bigint(),
  conversions: integer(),
  source: text().orNull(),
  referrer_host: text().orNull(),
  utm_source: text().orNull(),
  utm_medium: text().orNull(),
  utm_campaign: text().orNull(),
  country: text().orNull(),
  device: text().orNull(),
  browser: text().orNull(),
  os: text().orNull(),
  /** The visit's sample key, 0–9999 (migration 0016): a sampled report reads the visits below a threshold. */
  sample: integer(),
});

export type VisitRow = RowOf<typeof analyticsVisitsTable>;

/** The `analytics_visit_daily` table (migration 0012): visit metrics per day, dimension and value. */
export const analyticsVisitDailyTable = table({
  dimension: text(),
  day: text(),
  value: text(),
  visits: bigint(),
  visitors: bigint(),
  bounces: bigint(),
  duration_ms: bigint(),
  pageviews: bigint(),
  events: bigint(),
  converted: bigint(),
  conversions: bigint(),
  engagement_ms: bigint(),
});

/** The `analytics_monthly` table (migration 0016): analytics_daily's counters per month `YYYY-MM`. */
export const analyticsMonthlyTable = table({
  dimension: text(),
  month: text(),
  value: text(),
  count: bigint(),
});

/** The `analytics_visit_monthly` table (migration 0016): analytics_visit_daily's metrics per month. */
export const analyticsVisitMonthlyTable = table({
  dimension: text(),
  month: text(),
  value: text(),
  visits: bigint(),
  visitors: bigint(),
  bounces: bigint(),
  duration_ms: bigint(),
  pageviews: bigint(),
  events: bigint(),
  converted: bigint(),
  conversions: bigint(),
  engagement_ms: bigint(),
});

/**
 * The `analytics_inbox` table (migration 0017): tracked events committed and acknowledged, not yet
 * folded into the events, visits and rollups (store.ts). `id` orders them as they arrived.
 */
export const analyticsInboxTable = table({
  id: text(),
  /** The TrackedEvent as JSON. */
  event: text(),
});

declare module '../../db/schema.ts' {
  interface Database {
    analytics_events: AnalyticsEventRow;
    analytics_daily: RowOf<typeof analyticsDailyTable>;
    analytics_visitors: RowOf<typeof analyticsVisitorsTable>;
    analytics_salts: RowOf<typeof analyticsSaltsTable>;
    analytics_visits: RowOf<typeof analyticsVisitsTable>;
    analytics_visit_daily: RowOf<typeof analyticsVisitDailyTable>;
    analytics_monthly: RowOf<typeof analyticsMonthlyTable>;
    analytics_visit_monthly: RowOf<typeof analyticsVisitMonthlyTable>;
    analytics_inbox: RowOf<typeof analyticsInboxTable>;
  }
}

/** An event on its way to the database, with what it does to its visit. */
export interface TrackedEvent {
  row: AnalyticsEventRow;
  /** An engagement is stored as time on page of its visit, not as an event row. */
  kind: 'pageview' | 'event' | 'engagement';
  interactive: boolean;
  engagementMs: number;
  conversion: boolean;
}

/** A stored-event row as what it is to its visit (tests and the benchmark write rows directly). */
export function trackedRow(row: AnalyticsEventRow): TrackedEvent {
  return {
    row,
    kind: row.type === 'page_view' ? 'pageview' : 'event',
    interactive: true,
    engagementMs: 0,
    conversion: false,
  };
}
