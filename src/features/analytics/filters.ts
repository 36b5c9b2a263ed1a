import { z } from '@hono/zod-openapi';
import { ANALYTICS_LIMITS as L } from './limits.ts';
import { storedPage } from './page.ts';

/**
 * Query parameters that filter the whole stats report, and the visit column each one reads. A
 * filter selects visits; the report is then over those visits and their events. `page` selects
 * the visits that had an event on that page.
 */
export const FILTER_COLUMNS = {
  page: null,
  entry_page: 'entry_page',
  exit_page: 'exit_page',
  source: 'source',
  utm_source: 'utm_source',
  utm_medium: 'utm_medium',
  utm_campaign: 'utm_campaign',
  country: 'country',
  device: 'device',
  browser: 'browser',
  os: 'os',
} as const;
export type FilterName = keyof typeof FILTER_COLUMNS;
export const FILTER_NAMES = Object.keys(FILTER_COLUMNS) as FilterName[];

/** The filter value that selects "none": direct visits (`source`), no tag, an unknown country or device. */
export const NONE = '(none)';

/** Applied filters: a value, or null for `(none)`. */
export type StatsFilters = Partial<Record<FilterName, string | null>>;

const DESCRIPTIONS: Record<FilterName, string> = {
  page: 'Visits that had an event on this page (a path).',
  entry_page: 'Visits that started on this page.',
  exit_page: 'Visits whose last page view was this page.',
  source: 'Visits from this source (as `sources` names it: `Google`, `LinkedIn`, a host name, a UTM source).',
  utm_source: 'Visits tagged with this `utm_source`.',
  utm_medium: 'Visits tagged with this `utm_medium`.',
  utm_campaign: 'Visits tagged with this `utm_campaign`.',
  country: 'Visits from this country (ISO 3166 alpha-2).',
  device: 'Visits from this device type: `desktop`, `mobile`, `tablet`, `tv`.',
  browser: 'Visits from this browser (`Chrome`, `Safari`, `Firefox`, …).',
  os: 'Visits from this operating system (`Windows`, `macOS`, `iOS`, `Android`, …).',
};

export const FilterQuery = z.object(
  Object.fromEntries(
    FILTER_NAMES.map((name) => [
      name,
      z
        .string()
        .max(L.filterLength)
        .optional()
        .openapi({
          description: `${DESCRIPTIONS[name]} \`${NONE}\` selects visits without one. Filters combine (all must hold).`,
        }),
    ]),
  ) as Record<FilterName, z.ZodOptional<z.ZodString>>,
);

/** The filters given in a query (empty values ignored). */
export function filtersOf(query: Partial<Record<FilterName, string | undefined>>): StatsFilters {
  const filters: StatsFilters = {};
  for (const name of FILTER_NAMES) {
    const value = query[name]?.trim();
    if (value) filters[name] = value === NONE ? null : name === 'country' ? value.toUpperCase() : value;
  }
  return filters;
}

/**
 * The values a page filter (`page`, `entry_page`, `exit_page`) matches: the value as given (what the
 * report shows, and the dashboard sends back), and, for a path or an http(s) URL, the value read as a
 * tracked page is stored (storedPage: `/diseño` is stored `/dise%C3%B1o`, a URL is its path). A
 * value starting `//` is only itself: parsed, it would be a host (`//blog` would become `/`).
 */
export function pageFilterValues(value: string): string[] {
  if (!/^(\/(?!\/)|https?:\/\/)/i.test(value)) return [value];
  const stored = storedPage(value);
  return stored === value ? [value] : [value, stored];
}

export const hasFilters = (filters: StatsFilters) => Object.keys(filters).length > 0;
