import type { Logger } from 'pino';
import type { Db } from '../../db/database.ts';
import { AnalyticsRefusal } from './errors.ts';
import { hasFilters, NONE, type StatsFilters } from './filters.ts';
import { foldBeforeRead } from './fold.ts';
import { ANALYTICS_LIMITS as L } from './limits.ts';
import { firstDay, readBotsDropped, readStats, type StatsRange } from './rollup-reads.ts';
import { rangeSize, readSampledReport, type SampleBudget, sampleThreshold } from './sampled-stats.ts';
import { sourceCategory } from './sources.ts';
import { utcDay } from './track.ts';
import {
  CONVERSION_BREAKDOWNS,
  readFilteredEvents,
  readFilteredVisits,
  readVisitRollups,
  VISIT_BREAKDOWNS,
  type VisitBreakdown,
  type VisitGroup,
} from './visit-stats.ts';
import { SAMPLE_KEYS, type VisitMetrics } from './visits.ts';

const DAY_MS = 86_400_000;
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;

/** `YYYY-MM-DD` (a real calendar day) or an ISO 8601 date-time, as its UTC day; else refused. */
export function parseDay(name: string, value: string): string {
  const trimmed = value.trim();
  const dateOnly = DATE_ONLY.exec(trimmed);
  if (dateOnly) {
    if (isCalendarDay(trimmed)) return trimmed;
  } else if (DATE_TIME.test(trimmed) && isCalendarDay(trimmed.slice(0, 10))) {
    // Date.parse rolls an impossible day over (2026-02-30T… → March 2nd): its date part is checked first.
    const ms = Date.parse(trimmed);
    // An offset can move the instant out of years 0000–9999 (`0000-01-01T00:00+01:00`): its UTC day
    // would print as `-000001-12-31`, which is no `YYYY-MM-DD` (and sliced, no day at all).
    const day = Number.isFinite(ms) ? utcDay(ms) : '';
    if (DATE_ONLY.test(day)) return day;
  }
  throw new AnalyticsRefusal('invalid', `${name}: must be a date (YYYY-MM-DD) or an ISO 8601 date-time.`);
}

/** `YYYY-MM-DD` names a day that exists (2026-02-30 does not), years 0001–9999 included. */
function isCalendarDay(text: string): boolean {
  const [year, month, day] = text.split('-').map(Number) as [number, number, number];
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day); // unlike Date.UTC, years 0–99 stay themselves
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(to) - Date.parse(from)) / DAY_MS);
}

/**
 * The asked range checked: each day parsed (a refusal when it is none), the start not after the end,
 * the span within the limit. `from` stays undefined when not asked (resolveRange picks it).
 */
export function checkedRange(
  from: string | undefined,
  to: string | undefined,
  now: number,
): { from: string | undefined; to: string } {
  const end = to === undefined ? utcDay(now) : parseDay('to', to);
  if (from === undefined) return { from: undefined, to: end };
  const start = parseDay('from', from);
  if (start > end) throw new AnalyticsRefusal('invalid', 'from: must not be after to.');
  if (daysBetween(start, end) >= L.stats.maxRangeDays) {
    throw new AnalyticsRefusal('invalid', `The range may span at most ${L.stats.maxRangeDays} days.`);
  }
  return { from: start, to: end };
}

/** The inclusive UTC day range of a stats request; defaults: first recorded day (within the span limit) .. today. */
export async function resolveRange(
  db: Db,
  from: string | undefined,
  to: string | undefined,
  now: number,
): Promise<StatsRange> {
  const asked = checkedRange(from, to, now);
  const end = asked.to;
  if (asked.from !== undefined) return { from: asked.from, to: end };
  // The default never breaks the span limit: data older than it (years of it, or a day written
  // under a wrong clock) would otherwise turn a request without parameters into a 400.
  const first = (await firstDay(db)) ?? end;
  if (first > end) return { from: end, to: end };
  if (daysBetween(first, end) < L.stats.maxRangeDays) return { from: first, to: end };
  return { from: utcDay(Date.parse(end) - (L.stats.maxRangeDays - 1) * DAY_MS), to: end };
}

/**
 * What a read of the statistics does first: refuses a bad range before anything is written, folds
 * the inbox (fold.ts foldBeforeRead: the answer then holds every event acknowledged before it was
 * asked), then resolves the range as resolveRange does.
 */
export async function foldAndResolveRange(
  db: Db,
  logger: Logger,
  from: string | undefined,
  to: string | undefined,
  now: number,
): Promise<StatsRange> {
  checkedRange(from, to, now);
  await foldBeforeRead(db, logger);
  return resolveRange(db, from, to, now);
}

/** A share in percent with one decimal (0 when there is nothing to share). */
const percent = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 1000) / 10 : 0);

/** The visit metrics of a report or a row, as Plausible shows them (bounce rate %, seconds). */
function visitView(m: VisitMetrics) {
  return {
    visitors: m.visitors,
    visits: m.visits,
    pageviews: m.pageviews,
    bounceRate: m.visits > 0 ? Math.round((m.bounces / m.visits) * 100) : 0,
    visitDuration: m.visits > 0 ? Math.round(m.duration_ms / m.visits / 1000) : 0,
    conversions: m.conversions,
    conversionRate: percent(m.converted, m.visits),
  };
}

/** Each breakdown's answer key for its value. */
const VALUE_KEYS: Record<VisitBreakdown, string> = {
  sources: 'source',
  utmSources: 'utmSource',
  utmMediums: 'utmMedium',
  utmCampaigns: 'utmCampaign',
  devices: 'device',
  browsers: 'browser',
  operatingSystems: 'os',
  entryPages: 'page',
  exitPages: 'page',
};

function groupView(breakdown: VisitBreakdown, group: VisitGroup) {
  const { visitors, visits, bounceRate, visitDuration, conversions, conversionRate } = visitView(group);
  return {
    [VALUE_KEYS[breakdown]]: group.value,
    ...(breakdown === 'sources' ? { category: sourceCategory(group.value) } : {}),
    visitors,
    visits,
    bounceRate,
    visitDuration,
    conversions,
    conversionRate,
  };
}

/**
 * The stats answer. Without filters everything comes from rollups maintained by the fold (monthly and
 * daily tiers). With filters, from the visits they select and those visits' events: every visit
 * (exact, visit-stats.ts) when the range holds no more than the sample budget, else a sample of the
 * visits, scaled (sampled-stats.ts): a request reads a bounded number of rows whatever its filters.
 */
export async function readAnalyticsStats(
  db: Db,
  range: StatsRange,
  top: number,
  filters: StatsFilters = {},
  options: { sampleBudget?: SampleBudget } = {},
) {
  const filtered = hasFilters(filters);
  const threshold = filtered
    ? sampleThreshold(await rangeSize(db, range), options.sampleBudget)
    : SAMPLE_KEYS;
  const sampled =
    threshold < SAMPLE_KEYS ? await readSampledReport(db, range, top, filters, threshold) : null;
  // A filtered report's two halves run one after the other (visit-stats.ts bounds its queries).
  const [rows, visits, botsDropped] = await Promise.all([
    filtered ? null : readStats(db, range, top),
    sampled
      ? sampled.visits
      : filtered
        ? readFilteredVisits(db, range, top, filters)
        : readVisitRollups(db, range, top),
    readBotsDropped(db),
  ]);
  const events = sampled
    ? sampled.events
    : filtered
      ? await readFilteredEvents(db, range, top, filters)
      : null;
  const byDay = new Map<string, { events: number; visitors: number }>();
  for (const r of rows?.daily ?? []) {
    const entry = byDay.get(r.day) ?? { events: 0, visitors: 0 };
    if (r.dimension === 'total') entry.events += r.count;
    else entry.visitors += r.count;
    byDay.set(r.day, entry);
  }
  const timeseries: { date: string; events: number; visitors: number; visits: number }[] = [];
  for (let ms = Date.parse(range.from), end = Date.parse(range.to); ms <= end; ms += DAY_MS) {
    const date = utcDay(ms);
    const day = visits.daily.get(date);
    const all = byDay.get(date) ?? { events: 0, visitors: 0 };
    timeseries.push(
      filtered
        ? { date, events: day?.events ?? 0, visitors: day?.visitors ?? 0, visits: day?.visits ?? 0 }
        : { date, ...all, visits: day?.visits ?? 0 },
    );
  }
  const breakdowns = Object.fromEntries(
    (Object.keys(VISIT_BREAKDOWNS) as VisitBreakdown[]).map((b) => [
      b,
      visits.breakdowns[b].map((g) => groupView(b, g)),
    ]),
  ) as Record<VisitBreakdown, ReturnType<typeof groupView>[]>;
  const conversionsBy = Object.fromEntries(
    (Object.entries(CONVERSION_BREAKDOWNS) as [keyof typeof CONVERSION_BREAKDOWNS, VisitBreakdown][]).map(
      ([name, b]) => [name, visits.conversions[name].map((g) => groupView(b, g))],
    ),
  ) as Record<keyof typeof CONVERSION_BREAKDOWNS, ReturnType<typeof groupView>[]>;
  const eventLists = events ?? rows!;
  const totals = visitView(visits.totals);
  return {
    success: true as const,
    range,
    sampling: sampled ? { rate: threshold / SAMPLE_KEYS, visitsRead: sampled.visitsRead } : null,
    filters: Object.fromEntries(Object.entries(filters).map(([k, v]) => [k, v ?? NONE])),
    totalEvents: rows?.totalEvents ?? visits.totals.events,
    uniquePages: eventLists.uniquePages,
    uniqueVisitors: rows?.uniqueVisitors ?? visits.exactVisitors ?? 0,
    visits: totals.visits,
    pageviews: totals.pageviews,
    bounceRate: totals.bounceRate,
    visitDuration: totals.visitDuration,
    timeOnPage:
      visits.totals.pageviews > 0
        ? Math.round(visits.totals.engagement_ms / visits.totals.pageviews / 1000)
        : 0,
    conversions: totals.conversions,
    conversionRate: totals.conversionRate,
    topPages: eventLists.pages.map((r) => ({ page: r.value, count: r.count })),
    // '' in the rollup means the country could not be told (private IP, unknown range).
    topCountries: eventLists.countries.map((r) => ({
      country: r.value === '' ? null : r.value,
      count: r.count,
    })),
    eventTypes: eventLists.types.map((r) => ({ type: r.value, count: r.count })),
    topReferrers: eventLists.referrers.map((r) => ({ referrer: r.value, count: r.count })),
    ...breakdowns,
    conversionsBy,
    timeseries,
    botsDropped,
  };
}
