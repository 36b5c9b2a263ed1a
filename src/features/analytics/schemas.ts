import { z } from '@hono/zod-openapi';
import { LIMITS } from '../../http/limits.ts';
import { wholeNumberParam } from '../../http/schemas.ts';
import { FilterQuery } from './filters.ts';
import { ANALYTICS_LIMITS as L } from './limits.ts';
import { PAGE_BASE } from './page.ts';

const P = L.properties;
/** Event type names are printable: no control characters (C0 U+0000–U+001F, DEL and C1 U+007F–U+009F). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to refuse them
export const NO_CONTROL_CHARS = /^[^\u0000-\u001f\u007f-\u009f]*$/;

/**
 * Whether `value` has more than `max` characters, counted as code points (a surrogate pair is one
 * character), as zod's `.max()` and JSON Schema's `maxLength` count them. Only a string longer than
 * `max` UTF-16 units needs counting.
 */
export function longerThan(value: string, max: number): boolean {
  if (value.length <= max) return false;
  let count = 0;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < value.length) {
      const next = value.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    if (++count > max) return true;
  }
  return false;
}

/** Why a `properties` value breaks the documented bounds, or null when it fits. */
export function propertiesProblem(value: Record<string, unknown>): string | null {
  let keys = 0;
  // Iterative walk: a hostile body cannot blow the stack, and the walk stops at the first problem.
  const stack: { node: unknown; depth: number }[] = [{ node: value, depth: 1 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    if (depth > P.depth) return `is nested deeper than ${P.depth} levels`;
    const entries = Array.isArray(node)
      ? node.map((v, i) => [String(i), v] as const)
      : Object.entries(node as object);
    for (const [key, child] of entries) {
      keys++;
      if (keys > P.keys) return `has more than ${P.keys} keys`;
      if (longerThan(key, P.keyLength)) return `has a key longer than ${P.keyLength} characters`;
      if (typeof child === 'string' && longerThan(child, P.stringLength))
        return `has a string longer than ${P.stringLength} characters`;
      if (typeof child === 'number' && !Number.isFinite(child)) return 'has a number that is not finite';
      if (child !== null && typeof child === 'object') stack.push({ node: child, depth: depth + 1 });
    }
  }
  if (Buffer.byteLength(JSON.stringify(value)) > P.bytes) return `is larger than ${P.bytes} bytes as JSON`;
  return null;
}

const optionalText = (max: number, description: string, example: string) =>
  z
    .string()
    .max(max)
    .nullish()
    .transform((v) => (v === undefined || v === null || v.trim() === '' ? null : v.trim()))
    .openapi({ description, example });

export const PAGE_ADDRESS_RULE = 'must be a path or an http(s) URL';
export const RESERVED_TYPE_RULE =
  '`lead` is reserved for conversions, recorded by POST /api/leads, POST /api/contact and POST /api/support/send';
export const ENGAGEMENT_TIME_RULE =
  'is required with type `engagement` (the milliseconds the page was visible)';

/**
 * A page is a path or an http(s) URL: `mailto:alice@example.com`, `tel:…` or `javascript:…` would
 * store what follows the scheme (an address, a number) as the page, and a URL the parser refuses
 * would be stored whole (host, credentials, query). The URL parser decides, as it does when the path
 * is taken: it drops leading control characters and spaces and every tab and newline first, so
 * `\u0001mailto:…` and `mail\tto:…` are mailto: too.
 */
export function isPageAddress(value: string): boolean {
  const url = URL.parse(value, PAGE_BASE);
  return url !== null && (url.protocol === 'http:' || url.protocol === 'https:');
}

const pageAddress = (description: string, example: string) =>
  z
    .string()
    .trim()
    .min(1)
    .max(L.urlLength)
    .refine(isPageAddress, PAGE_ADDRESS_RULE)
    .optional()
    .openapi({ description, example });

export const TrackBody = z
  .object({
    type: z
      .string()
      .trim()
      .min(1)
      .max(L.typeLength)
      .regex(NO_CONTROL_CHARS, 'must not contain control characters')
      .refine((type) => type !== 'lead', RESERVED_TYPE_RULE)
      .default('page_view')
      .openapi({
        description:
          `Event type, e.g. \`page_view\` or a named event such as \`signup\` (at most ${L.typeLength} characters; default \`page_view\`). ` +
          '`engagement` adds time on page (`engagementMs`) to the visit and is no event of its own; `lead` is reserved for conversions.',
        example: 'page_view',
      }),
    page: pageAddress(
      `The page: a path (\`/pricing\`) or an http(s) URL, at most ${L.urlLength} characters. Only the path is kept (cut to ${L.pageLength} characters); the query string (read for UTM tags) and fragment are dropped (they often carry personal data).`,
      '/pricing',
    ),
    url: pageAddress(
      'Alias of `page` (used when `page` is absent).',
      'https://agency.example/pricing?utm_source=x',
    ),
    referrer: optionalText(
      L.urlLength,
      `document.referrer; kept without query string (origin and path, cut to ${L.referrerLength} characters); counted by host in top referrers (internal referrers are not counted). Ignored unless an http(s) URL whose host has at most ${L.referrerHostLength} characters.`,
      'https://www.google.com/',
    ),
    title: optionalText(L.titleLength, 'Page title.', 'Pricing — Agency'),
    properties: z
      .record(z.string(), z.unknown())
      .nullish()
      .superRefine((value, ctx) => {
        const problem = value ? propertiesProblem(value) : null;
        if (problem) ctx.addIssue({ code: 'custom', message: `properties ${problem}` });
      })
      .openapi({
        description: `Custom properties: at most ${P.keys} keys (nested ones included), keys of at most ${P.keyLength} characters, strings of at most ${P.stringLength}, nesting depth ${P.depth}, ${P.bytes} bytes as JSON.`,
        example: { plan: 'pro', variant: 'b' },
      }),
    sessionId: optionalText(
      L.sessionIdLength,
      'A session id chosen by the page script (optional).',
      's-4f2a',
    ),
    interactive: z.boolean().optional().openapi({
      description:
        'false: the event does not count as an interaction for the bounce rate (as Plausible’s `interactive: false`). Default true.',
      example: true,
    }),
    engagementMs: z
      .number()
      .finite()
      .min(0)
      .optional()
      .openapi({
        description: `With \`type: engagement\` (and required there): the time the page was visible, in milliseconds (at most ${L.engagementMs} counted).`,
        example: 12_500,
      }),
  })
  .refine((body) => body.page !== undefined || body.url !== undefined, {
    message: 'page (or url) is required',
    path: ['page'],
  })
  .refine((body) => body.type !== 'engagement' || body.engagementMs !== undefined, {
    message: ENGAGEMENT_TIME_RULE,
    path: ['engagementMs'],
  })
  .openapi('TrackEvent');

/** The same event as form fields (URLSearchParams or FormData from sendBeacon): `properties` is JSON text. */
export const TrackFormBody = z
  .object({
    type: z.string().optional(),
    page: z.string().optional(),
    url: z.string().optional(),
    referrer: z.string().optional(),
    title: z.string().optional(),
    properties: z.string().optional().openapi({ description: 'The properties object as JSON text.' }),
    sessionId: z.string().optional(),
  })
  .openapi('TrackEventForm', { description: 'The fields of TrackEvent, with the same limits.' });

export type TrackInput = z.output<typeof TrackBody>;

/**
 * What Plausible's tracker sends (`@plausible-analytics/tracker`, or its script with `data-api`
 * pointing here): read as a TrackEvent (plausible.ts).
 */
export const PlausibleTrackBody = z
  .object({
    n: z.string().openapi({
      description:
        'Event name: `pageview` → `page_view`, `engagement` → time on page, `Outbound Link: Click` → `outbound_link`, `File Download` → `file_download`, others as named.',
    }),
    u: z.string().openapi({ description: 'The page URL (only its path and UTM tags are kept).' }),
    d: z
      .string()
      .optional()
      .openapi({ description: 'Site domain (not used: this service serves one site).' }),
    r: z.string().nullish().openapi({ description: 'Referrer.' }),
    p: z
      .union([z.record(z.string(), z.unknown()), z.string()])
      .optional()
      .openapi({ description: 'Custom properties (an object, or JSON text as older scripts send them).' }),
    m: z.string().optional().openapi({ description: 'Legacy custom properties as JSON text.' }),
    i: z.boolean().optional().openapi({ description: 'false: not an interaction (bounce rate).' }),
    e: z.number().optional().openapi({ description: 'Engagement time in milliseconds (engagement events).' }),
  })
  .openapi('PlausibleEvent', {
    description: 'Plausible’s compact event; unknown fields (`v`, `sd`, `h`, `w`, `$`) are ignored.',
  });

export const Accepted = z.object({ success: z.literal(true) }).openapi('TrackAccepted');

const day = z
  .string()
  .optional()
  .openapi({
    description:
      'A UTC day `YYYY-MM-DD` (an ISO 8601 date-time with its offset, `Z`, `±hh:mm` or `±hhmm`, is accepted and reduced to ' +
      'its UTC day). Inclusive.',
    example: '2026-11-01',
  });

export const StatsQuery = z
  .object({
    from: day,
    to: day,
    limit: wholeNumberParam({
      min: 1,
      max: L.stats.maxTop,
      fallback: L.stats.defaultTop,
      description: `Entries in each top list (1–${L.stats.maxTop}).`,
    }),
  })
  .extend(FilterQuery.shape);

const Ranked = (key: string, example: string) =>
  z.array(z.object({ [key]: z.string().nullable(), count: z.number().int() })).openapi({
    example: [{ [key]: example, count: 42 }],
  });

/** A visit breakdown: its value under `key` (null: direct, unknown, no tag) and the visit metrics. */
const VisitRows = (key: string, example: string, withCategory = false) =>
  z
    .array(
      z.object({
        [key]: z.string().nullable(),
        ...(withCategory
          ? {
              category: z
                .enum(['search', 'social', 'ai', 'email', 'referral', 'campaign', 'direct'])
                .openapi({ description: 'The kind of source (direct: no referrer).' }),
            }
          : {}),
        visitors: z.number().int().openapi({
          description:
            'Visitors counted by their first visit of the day (the rows add up to the day’s unique visitors).',
        }),
        visits: z.number().int(),
        bounceRate: z.number().int(),
        visitDuration: z.number().int(),
        conversions: z.number().int(),
        conversionRate: z.number(),
      }),
    )
    .openapi({
      example: [
        {
          [key]: example,
          ...(withCategory ? { category: 'search' } : {}),
          visitors: 40,
          visits: 52,
          bounceRate: 45,
          visitDuration: 73,
          conversions: 3,
          conversionRate: 5.8,
        },
      ],
    });

export const Stats = z
  .object({
    success: z.literal(true),
    range: z.object({ from: z.string(), to: z.string() }),
    sampling: z
      .object({
        rate: z.number().openapi({
          description: 'The share of the range’s visits read (0 < rate < 1), e.g. 0.0056.',
          example: 0.0056,
        }),
        visitsRead: z.number().int().openapi({ description: 'Sampled visits that matched the filters.' }),
      })
      .nullable()
      .openapi({
        description:
          'null: every figure is exact. An object: the report is filtered and its range holds more than ' +
          `${L.sampleBudget.visits} visits or ${L.sampleBudget.events} events, so it was computed from a ` +
          'sample of the visits (each visit is in or out by a fixed key) and counts, sums and the timeseries are ' +
          'estimates scaled by 1/rate; rates and averages are the sample’s; `uniquePages` counts the pages seen in ' +
          'the sample. Unfiltered reports are always exact (rollups). docs/analytics.md, "Reading at scale".',
      }),
    totalEvents: z.number().int(),
    uniquePages: z.number().int(),
    uniqueVisitors: z
      .number()
      .int()
      .openapi({ description: 'Sum of daily unique visitors (the visitor hash rotates daily).' }),
    topPages: Ranked('page', '/pricing'),
    topCountries: Ranked('country', 'DE'),
    eventTypes: Ranked('type', 'page_view'),
    topReferrers: Ranked('referrer', 'google.com'),
    visits: z.number().int().openapi({
      description:
        'Visits: a visitor’s runs of events without a 30-minute gap (a visit also ends at UTC midnight).',
    }),
    pageviews: z.number().int(),
    bounceRate: z.number().int().openapi({
      description:
        'Percent of visits with at most one interaction (page views and interactive custom events; engagement does not count).',
    }),
    visitDuration: z
      .number()
      .int()
      .openapi({ description: 'Average seconds from the first to the last event of a visit.' }),
    timeOnPage: z
      .number()
      .int()
      .openapi({ description: 'Average seconds a page was visible (engagement events) per page view.' }),
    conversions: z
      .number()
      .int()
      .openapi({ description: '`lead` conversions (leads and contact-us messages).' }),
    conversionRate: z.number().openapi({ description: 'Percent of visits with a conversion (one decimal).' }),
    filters: z
      .record(z.string(), z.string())
      .openapi({ description: 'The filters applied (`(none)` for none).' }),
    sources: VisitRows('source', 'Google', true),
    utmSources: VisitRows('utmSource', 'newsletter'),
    utmMediums: VisitRows('utmMedium', 'email'),
    utmCampaigns: VisitRows('utmCampaign', 'spring-launch'),
    devices: VisitRows('device', 'desktop'),
    browsers: VisitRows('browser', 'Chrome'),
    operatingSystems: VisitRows('os', 'Windows'),
    entryPages: VisitRows('page', '/pricing'),
    exitPages: VisitRows('page', '/contact'),
    conversionsBy: z
      .object({
        bySource: VisitRows('source', 'Google', true),
        byCampaign: VisitRows('utmCampaign', 'spring-launch'),
        byEntryPage: VisitRows('page', '/pricing'),
      })
      .openapi({
        description: 'The conversion table: visits with a conversion, by source, campaign and entry page.',
      }),
    timeseries: z.array(
      z.object({
        date: z.string(),
        events: z.number().int(),
        visitors: z.number().int(),
        visits: z.number().int(),
      }),
    ),
    botsDropped: z
      .number()
      .int()
      .openapi({ description: 'Bot requests dropped since the start (all time).' }),
  })
  .openapi('AnalyticsStats');

export const EventsQuery = z.object({
  page: wholeNumberParam({ min: 1, max: LIMITS.pagination.maxPage, fallback: 1 }),
  limit: wholeNumberParam({
    min: 1,
    max: L.events.maxLimit,
    fallback: L.events.defaultLimit,
    description: `Events per page (1–${L.events.maxLimit}).`,
  }),
});

export const AnalyticsEvent = z
  .object({
    id: z.string(),
    type: z.string(),
    page: z.string(),
    referrer: z.string().nullable(),
    title: z.string().nullable(),
    properties: z.record(z.string(), z.unknown()).nullable(),
    sessionId: z.string().nullable(),
    country: z.string().nullable(),
    createdAt: z.string(),
  })
  .openapi('AnalyticsEvent');

export const EventList = z
  .object({
    success: z.literal(true),
    events: z.array(AnalyticsEvent),
    pagination: z.object({
      page: z.number().int(),
      limit: z.number().int(),
      total: z.number().int(),
      totalPages: z.number().int(),
    }),
  })
  .openapi('AnalyticsEventList');
