import type { Db } from '../../db/database.ts';
import { AnalyticsRefusal } from './errors.ts';
import { ANALYTICS_LIMITS as L } from './limits.ts';
import { firstDay, readStats, type StatsRange } from './store.ts';
import { utcDay } from './track.ts';

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

/** The inclusive UTC day range of a stats request; defaults: first recorded day (within the span limit) .. today. */
export async function resolveRange(
  db: Db,
  from: string | undefined,
  to: string | undefined,
  now: number,
): Promise<StatsRange> {
  const end = to === undefined ? utcDay(now) : parseDay('to', to);
  if (from === undefined) {
    // The default never breaks the span limit: data older than it (years of it, or a day written
    // under a wrong clock) would otherwise turn a request without parameters into a 400.
    const first = (await firstDay(db)) ?? end;
    if (first > end) return { from: end, to: end };
    if (daysBetween(first, end) < L.stats.maxRangeDays) return { from: first, to: end };
    return { from: utcDay(Date.parse(end) - (L.stats.maxRangeDays - 1) * DAY_MS), to: end };
  }
  const start = parseDay('from', from);
  if (start > end) throw new AnalyticsRefusal('invalid', 'from: must not be after to.');
  if (daysBetween(start, end) >= L.stats.maxRangeDays) {
    throw new AnalyticsRefusal('invalid', `The range may span at most ${L.stats.maxRangeDays} days.`);
  }
  return { from: start, to: end };
}

export async function readAnalyticsStats(db: Db, range: StatsRange, top: number) {
  const rows = await readStats(db, range, top);
  const byDay = new Map<string, { events: number; visitors: number }>();
  for (const r of rows.daily) {
    const entry = byDay.get(r.day) ?? { events: 0, visitors: 0 };
    if (r.dimension === 'total') entry.events += r.count;
    else entry.visitors += r.count;
    byDay.set(r.day, entry);
  }
  const timeseries: { date: string; events: number; visitors: number }[] = [];
  for (let ms = Date.parse(range.from), end = Date.parse(range.to); ms <= end; ms += DAY_MS) {
    const date = utcDay(ms);
    timeseries.push({ date, ...(byDay.get(date) ?? { events: 0, visitors: 0 }) });
  }
  return {
    success: true as const,
    range,
    totalEvents: rows.totalEvents,
    uniquePages: rows.uniquePages,
    uniqueVisitors: rows.uniqueVisitors,
    topPages: rows.pages.map((r) => ({ page: r.value, count: r.count })),
    // '' in the rollup means the country could not be told (private IP, unknown range).
    topCountries: rows.countries.map((r) => ({ country: r.value === '' ? null : r.value, count: r.count })),
    eventTypes: rows.types.map((r) => ({ type: r.value, count: r.count })),
    topReferrers: rows.referrers.map((r) => ({ referrer: r.value, count: r.count })),
    timeseries,
    botsDropped: rows.botsDropped,
  };
}
