import { type RawBuilder, sql } from 'kysely';

/** An inclusive range of UTC days `YYYY-MM-DD` (rollup-reads.ts's StatsRange). */
interface StatsRange {
  from: string;
  to: string;
}

/**
 * How a day range is read from the two rollup tiers: whole months from the monthly tables, plus the
 * days of a partial month from the daily ones — or, when the range covers most of a partial month,
 * that month's row minus the days outside the range (the current month up to today is its row minus
 * the days still to come, which hold nothing). At most ~15 days per end are read from the daily
 * tables, whatever the range; a range of N months costs N monthly rows per value.
 */
export interface TierPlan {
  /** Whole months read from the monthly tier (`YYYY-MM`, inclusive), or null. */
  months: { from: string; to: string } | null;
  /** Day ranges added from the daily tier. */
  plus: StatsRange[];
  /** Day ranges taken away (days of a month read whole that are outside the range). */
  minus: StatsRange[];
}

const DAY_MS = 86_400_000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const shift = (day: string, days: number) => dayOf(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS);
const span = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / DAY_MS) + 1;

/** The first and last day of the month `YYYY-MM`. */
function monthBounds(month: string): { first: string; last: string } {
  const [year, m] = month.split('-').map(Number) as [number, number];
  const first = `${month}-01`;
  const next = new Date(0);
  next.setUTCFullYear(year, m, 1); // month m (0-based) is the next one
  return { first, last: dayOf(next.getTime() - DAY_MS) };
}

export function tierPlan(range: StatsRange): TierPlan {
  const plus: StatsRange[] = [];
  const minus: StatsRange[] = [];
  const whole: string[] = [];
  // Months counted as numbers (year × 12 + month): the month after 9999-12 has no `YYYY-MM` name.
  const monthIndex = (day: string) => Number(day.slice(0, 4)) * 12 + Number(day.slice(5, 7)) - 1;
  for (let index = monthIndex(range.from); index <= monthIndex(range.to); index++) {
    const month = `${String(Math.floor(index / 12)).padStart(4, '0')}-${String((index % 12) + 1).padStart(2, '0')}`;
    const { first, last } = monthBounds(month);
    // Days as text (YYYY-MM-DD order is day order); Math.max/min would make numbers of them.
    // biome-ignore lint/complexity/useMathMinMax: strings
    const from = range.from > first ? range.from : first;
    // biome-ignore lint/complexity/useMathMinMax: strings
    const to = range.to < last ? range.to : last;
    const inside = span(from, to);
    const outside = span(first, last) - inside;
    if (outside === 0) whole.push(month);
    else if (inside <= outside) plus.push({ from, to });
    else {
      whole.push(month);
      if (from > first) minus.push({ from: first, to: shift(from, -1) });
      if (to < last) minus.push({ from: shift(to, 1), to: last });
    }
  }
  // The months read whole are contiguous: every month but the first and the last is whole.
  const months = whole.length > 0 ? { from: whole[0]!, to: whole[whole.length - 1]! } : null;
  return { months, plus, minus };
}

/**
 * The rows of one dimension over a plan, as an SQL subquery of `value` and the given metric
 * columns (signed: the `minus` days negated), to be summed by value. `events` reads
 * analytics_daily/analytics_monthly, `visits` analytics_visit_daily/analytics_visit_monthly.
 */
export function tierRows(
  kind: 'events' | 'visits',
  dimension: string,
  plan: TierPlan,
  metrics: readonly string[],
): RawBuilder<unknown> {
  const [daily, monthly] =
    kind === 'events'
      ? ['analytics_daily', 'analytics_monthly']
      : ['analytics_visit_daily', 'analytics_visit_monthly'];
  const columns = (sign: 1 | -1) =>
    sql.join(
      metrics.map((m) =>
        sign > 0 ? sql`${sql.ref(m)} as ${sql.ref(m)}` : sql`-${sql.ref(m)} as ${sql.ref(m)}`,
      ),
    );
  const parts: RawBuilder<unknown>[] = [];
  if (plan.months) {
    parts.push(sql`select value, ${columns(1)} from ${sql.table(monthly)}
      where dimension = ${dimension} and month >= ${plan.months.from} and month <= ${plan.months.to}`);
  }
  for (const [ranges, sign] of [
    [plan.plus, 1],
    [plan.minus, -1],
  ] as const) {
    for (const r of ranges) {
      parts.push(sql`select value, ${columns(sign)} from ${sql.table(daily)}
        where dimension = ${dimension} and day >= ${r.from} and day <= ${r.to}`);
    }
  }
  // An empty plan cannot happen (a range has at least one day), but keep the SQL valid.
  if (parts.length === 0) parts.push(sql`select value, ${columns(1)} from ${sql.table(daily)} where 1 = 0`);
  return sql`(${sql.join(parts, sql` union all `)})`;
}
