import { z } from '@hono/zod-openapi';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { FilterQuery, hasFilters, type StatsFilters } from './filters.ts';
import { ANALYTICS_LIMITS as L } from './limits.ts';
import type { StatsRange } from './rollup-reads.ts';
import { readAnalyticsStats } from './stats.ts';
import type { AnalyticsEventRow } from './tables.ts';
import { visitCondition } from './visit-stats.ts';

/** What can be exported: the events, or one list of the stats answer. */
export const EXPORT_REPORTS = [
  'events',
  'pages',
  'countries',
  'eventTypes',
  'referrers',
  'sources',
  'utmSources',
  'utmMediums',
  'utmCampaigns',
  'devices',
  'browsers',
  'operatingSystems',
  'entryPages',
  'exitPages',
  'conversionsBySource',
  'conversionsByCampaign',
  'conversionsByEntryPage',
  'timeseries',
] as const;
export type ExportReport = (typeof EXPORT_REPORTS)[number];

const day = z
  .string()
  .optional()
  .openapi({ description: 'A UTC day `YYYY-MM-DD` (inclusive), as for the stats.' });

export const ExportQuery = z
  .object({
    format: z.enum(['csv']).openapi({ description: 'Only `csv` (RFC 4180, UTF-8, a header row).' }),
    report: z
      .enum(EXPORT_REPORTS)
      .default('events')
      .openapi({ description: 'The events (default), or one list of the stats answer (every row of it).' }),
    from: day,
    to: day,
  })
  .extend(FilterQuery.shape);

/** A CSV cell: quoted when needed; a leading `=`, `+`, `-`, `@`, tab or CR is defused for spreadsheets. */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = typeof value === 'string' ? value : String(value);
  if (/^[=+\-@\t\r]/.test(text) && typeof value === 'string') text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export const csvLine = (cells: readonly unknown[]) => `${cells.map(csvCell).join(',')}\r\n`;

/** Event columns exported: never the visitor hash. */
const EVENT_COLUMNS = [
  'id',
  'created_at',
  'day',
  'type',
  'page',
  'referrer',
  'title',
  'properties',
  'session_id',
  'country',
  'source',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'device',
  'browser',
  'os',
  'visit_id',
] as const satisfies readonly (keyof AnalyticsEventRow)[];

/**
 * The events of the range (and of the visits the filters select), oldest first, as CSV lines read a
 * page at a time (keyset on created_at, id), so a large export never sits in memory.
 */
export function eventsCsv(db: Db, range: StatsRange, filters: StatsFilters): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let after: { at: number; id: string } | null = null;
  let headerSent = false;
  const filtered = hasFilters(filters);
  return new ReadableStream({
    async pull(controller) {
      if (!headerSent) {
        headerSent = true;
        controller.enqueue(encoder.encode(csvLine(EVENT_COLUMNS)));
        return;
      }
      const columns = sql.join(EVENT_COLUMNS.map((c) => sql.ref(`e.${c}`)));
      const { rows } = await sql<AnalyticsEventRow>`
        select ${columns} from analytics_events e
        ${filtered ? sql`join analytics_visits v on v.id = e.visit_id` : sql``}
        where e.day >= ${range.from} and e.day <= ${range.to}
        ${filtered ? sql`and ${visitCondition(range, filters)}` : sql``}
        ${after ? sql`and (e.created_at > ${after.at} or (e.created_at = ${after.at} and e.id > ${after.id}))` : sql``}
        order by e.created_at, e.id limit ${L.export.pageSize}`.execute(db);
      if (rows.length === 0) {
        controller.close();
        return;
      }
      const last = rows[rows.length - 1]!;
      after = { at: Number(last.created_at), id: last.id };
      const text = rows
        .map((r) =>
          csvLine(
            EVENT_COLUMNS.map((c) =>
              c === 'created_at' ? new Date(Number(r.created_at)).toISOString() : r[c],
            ),
          ),
        )
        .join('');
      controller.enqueue(encoder.encode(text));
    },
  });
}

const VISIT_COLUMNS = ['visitors', 'visits', 'bounceRate', 'visitDuration', 'conversions', 'conversionRate'];
/** The header of each list's CSV (the keys of its rows in the stats answer). */
const REPORT_COLUMNS: Record<Exclude<ExportReport, 'events'>, string[]> = {
  pages: ['page', 'count'],
  countries: ['country', 'count'],
  eventTypes: ['type', 'count'],
  referrers: ['referrer', 'count'],
  sources: ['source', 'category', ...VISIT_COLUMNS],
  utmSources: ['utmSource', ...VISIT_COLUMNS],
  utmMediums: ['utmMedium', ...VISIT_COLUMNS],
  utmCampaigns: ['utmCampaign', ...VISIT_COLUMNS],
  devices: ['device', ...VISIT_COLUMNS],
  browsers: ['browser', ...VISIT_COLUMNS],
  operatingSystems: ['os', ...VISIT_COLUMNS],
  entryPages: ['page', ...VISIT_COLUMNS],
  exitPages: ['page', ...VISIT_COLUMNS],
  conversionsBySource: ['source', 'category', ...VISIT_COLUMNS],
  conversionsByCampaign: ['utmCampaign', ...VISIT_COLUMNS],
  conversionsByEntryPage: ['page', ...VISIT_COLUMNS],
  timeseries: ['date', 'events', 'visitors', 'visits'],
};

/** One list of the stats answer as CSV (every row, up to the export's limit). */
export async function reportCsv(
  db: Db,
  report: Exclude<ExportReport, 'events'>,
  range: StatsRange,
  filters: StatsFilters,
): Promise<string> {
  const stats = await readAnalyticsStats(db, range, L.export.maxBreakdownRows, filters);
  const lists: Record<Exclude<ExportReport, 'events'>, Record<string, unknown>[]> = {
    pages: stats.topPages,
    countries: stats.topCountries,
    eventTypes: stats.eventTypes,
    referrers: stats.topReferrers,
    sources: stats.sources,
    utmSources: stats.utmSources,
    utmMediums: stats.utmMediums,
    utmCampaigns: stats.utmCampaigns,
    devices: stats.devices,
    browsers: stats.browsers,
    operatingSystems: stats.operatingSystems,
    entryPages: stats.entryPages,
    exitPages: stats.exitPages,
    conversionsBySource: stats.conversionsBy.bySource,
    conversionsByCampaign: stats.conversionsBy.byCampaign,
    conversionsByEntryPage: stats.conversionsBy.byEntryPage,
    timeseries: stats.timeseries,
  };
  const rows = lists[report];
  const columns = REPORT_COLUMNS[report];
  return [csvLine(columns), ...rows.map((row) => csvLine(columns.map((c) => row[c])))].join('');
}
