import { createRoute } from '@hono/zod-openapi';
import { readCappedBody } from '../../http/capped-body.ts';
import { clientOrigin, limitKey } from '../../http/client-ip.ts';
import { notModified } from '../../http/conditional.ts';
import { errorResponses, RATE_LIMIT_HEADERS } from '../../http/error-responses.ts';
import { ApiError, type ErrorCode, mapErrors } from '../../http/errors.ts';
import { createRouter } from '../../http/openapi.ts';
import { rateLimitFields, refusalFields } from '../../http/rate-limit-fields.ts';
import { requireHeaderSecret } from '../../http/secrets.ts';
import { isBotAgent } from './bots.ts';
import { AnalyticsRefusal, type AnalyticsRefusalReason } from './errors.ts';
import { ExportQuery, eventsCsv, reportCsv } from './export.ts';
import { filtersOf } from './filters.ts';
import { foldBeforeRead } from './fold.ts';
import { ingestEvent } from './ingest.ts';
import { ANALYTICS_LIMITS as L } from './limits.ts';
import { type AnalyticsRecorder, InboxFullError, RecorderBusyError } from './recorder.ts';
import { listEvents } from './rollup-reads.ts';
import {
  Accepted,
  EventList,
  EventsQuery,
  Stats,
  StatsQuery,
  TrackBody,
  TrackFormBody,
  type TrackInput,
} from './schemas.ts';
import { foldAndResolveRange, readAnalyticsStats } from './stats.ts';
import { parseTrackBody } from './track.ts';
import { SCRIPT_HEADERS, SCRIPT_PATH, trackerScript } from './tracker-script.ts';

const errors = errorResponses(400);

export const TRACK_PATH = '/api/analytics/track';

const REFUSAL_CODES: Record<AnalyticsRefusalReason, ErrorCode> = {
  invalid: 'VALIDATION_ERROR',
  too_large: 'PAYLOAD_TOO_LARGE',
  unsupported_type: 'UNSUPPORTED_MEDIA_TYPE',
};

/** A refused track body or stats range as the contract's error. */
function analyticsApiError(error: unknown): unknown {
  if (!(error instanceof AnalyticsRefusal)) return error;
  return new ApiError(REFUSAL_CODES[error.reason], error.message);
}

const TRACK_BODY_CAP = {
  maxBytes: L.trackBodyBytes,
  tooLargeMessage: `A track body is limited to ${L.trackBodyBytes} bytes.`,
};

/**
 * Added by the edge to every response of the track path, preflights included. `sendBeacon` sends with
 * credentials, so a typed JSON `Blob` from the site's (cross-origin) pages is preflighted in
 * credentials mode and the browser drops the beacon unless the answer allows credentials. Safe here:
 * the origin is still echoed only for the site's own origins, this API reads no cookie, and the
 * answer is `{"success":true}`. Every other route stays without credentials.
 */
export const TRACK_RESPONSE_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-credentials': 'true',
};

const trackRoute = createRoute({
  method: 'post',
  path: TRACK_PATH,
  operationId: 'trackAnalyticsEvent',
  tags: ['Analytics'],
  security: [],
  summary: 'Record a page view or a named event',
  description:
    'Accepts the content types `navigator.sendBeacon` sends: `text/plain` (JSON text), `application/json`, ' +
    'no type, `application/x-www-form-urlencoded` and `multipart/form-data` (form fields; `properties` as JSON text). ' +
    `Bodies over ${L.trackBodyBytes} bytes → 413. Answers **202** once the event is committed, and 202 to bots too ` +
    '(dropped and counted, never stored); the statistics include a committed event from then on. The client IP is never stored: the country comes from `CF-IPCountry` ' +
    '(TRUST_PROXY=cloudflare) or a local IP-to-country database, and the visitor is a hash of (daily salt, IP, user agent). ' +
    `Rate limit: ANALYTICS_TRACK_RATE_LIMIT per IP per minute (default ${L.trackPerIp.limit}). ` +
    `503 with \`Retry-After: ${L.inboxFullRetryAfterS}\` while folds of the inbox keep failing and it holds ` +
    'ANALYTICS_INBOX_MAX_EVENTS events (docs/analytics.md, "Write path").',
  request: {
    body: {
      required: true,
      content: {
        'application/json': { schema: TrackBody },
        'text/plain': { schema: TrackBody },
        // The form encodings carry the same fields; `properties` as JSON text.
        'application/x-www-form-urlencoded': { schema: TrackFormBody },
        'multipart/form-data': { schema: TrackFormBody },
      },
    },
  },
  responses: {
    202: {
      description:
        'Recorded (or dropped as a bot). `RateLimit-Policy` and `RateLimit` once half the per-IP limit is used.',
      headers: RATE_LIMIT_HEADERS,
      content: { 'application/json': { schema: Accepted } },
    },
    ...errorResponses(400, 413, { 415: 'UNSUPPORTED_MEDIA_TYPE: not one of the content types above' }, 429, {
      503:
        'NOT_CONFIGURED, with Retry-After: the database is briefly unavailable, or the inbox holds ' +
        'ANALYTICS_INBOX_MAX_EVENTS events while its folds keep failing',
    }),
  },
});

const statsRoute = createRoute({
  method: 'get',
  path: '/api/analytics/stats',
  operationId: 'getAnalyticsStats',
  tags: ['Analytics'],
  security: [],
  summary: 'Aggregates over a date range',
  description:
    'Total events, unique pages, unique visitors (summed per day), visits (a 30-minute gap ends one), page views, ' +
    'bounce rate, visit duration, time on page, conversions and conversion rate; top pages, countries, event types ' +
    'and referrers; the breakdowns by source, UTM source/medium/campaign, device, browser, OS, entry and exit page; ' +
    'the conversion table; and a daily series, for the inclusive UTC days `from`..`to` ' +
    `(default: from the first recorded day, at most ${L.stats.maxRangeDays} days back, to today). ` +
    'The filters select visits and the whole report is over them and their events. Without filters it is read ' +
    'from rollups (brought up to date before the answer); with filters, from the visits they select.',
  request: { query: StatsQuery },
  responses: {
    200: { description: 'Statistics', content: { 'application/json': { schema: Stats } } },
    ...errors,
  },
});

const scriptRoute = createRoute({
  method: 'get',
  path: SCRIPT_PATH,
  operationId: 'getAnalyticsScript',
  // It never touches the database: no 503 for a database outage (openapi-document.ts).
  'x-database': false,
  tags: ['Analytics'],
  security: [],
  summary: 'The first-party tracker script',
  description:
    'A small script (under 2 KB gzipped; no cookies, no storage) for `<script defer src=".../api/analytics/script.js">`: ' +
    'records a page view on load and on History API navigation, outbound-link clicks (`outbound_link`), time on page ' +
    '(`engagement`), and custom events through `window.agencyAnalytics(name, properties, {interactive})`. ' +
    '`agencyAnalytics.context()` gives the visit context for the lead and contact forms, and forms marked ' +
    '`data-analytics-context` get it as the hidden field `analyticsContext`. Sends with `sendBeacon`, else `fetch` ' +
    'with `keepalive`; `data-api` overrides the endpoint. Cached an hour, with a content-hash `ETag` (304 when unchanged); gzip-compressed when `Accept-Encoding` allows it.',
  responses: {
    200: { description: 'The script', content: { 'text/javascript': { schema: { type: 'string' } } } },
    304: { description: 'Not modified (If-None-Match matched the ETag)' },
  },
});

const exportRoute = createRoute({
  method: 'get',
  path: '/api/analytics/export',
  operationId: 'exportAnalytics',
  tags: ['Analytics'],
  summary: 'Export events or a breakdown as CSV (admin key)',
  description:
    'Requires `X-Admin-Api-Key`. `report=events` (default) streams every event of the range (and of the visits the ' +
    'filters select), oldest first, without the visitor hash; any other `report` is one list of the stats answer, ' +
    `every row of it (at most ${L.export.maxBreakdownRows}). Same \`from\`, \`to\` and filters as the stats.`,
  middleware: [requireHeaderSecret('X-Admin-Api-Key', (config) => config.secrets.admin)] as const,
  security: [{ AdminApiKey: [] }],
  request: { query: ExportQuery },
  responses: {
    200: {
      description: 'CSV (UTF-8, RFC 4180, a header row)',
      content: { 'text/csv': { schema: { type: 'string' } } },
    },
    ...errorResponses(400, { 401: 'UNAUTHORIZED: missing or wrong X-Admin-Api-Key' }),
  },
});

const eventsRoute = createRoute({
  method: 'get',
  path: '/api/analytics/events',
  operationId: 'listAnalyticsEvents',
  tags: ['Analytics'],
  security: [],
  summary: 'Recorded events, newest first',
  request: { query: EventsQuery },
  responses: {
    200: { description: 'A page of events', content: { 'application/json': { schema: EventList } } },
    ...errors,
  },
});

/** The analytics routes; events are written through `recorder` (group commit, per-IP limit). */
export function analyticsRoutes(recorder: AnalyticsRecorder) {
  const router = createRouter();
  // Documented through the registry, served by a plain handler: the body is parsed here (several
  // content types), not by the JSON validator that createRoute would install.
  router.openAPIRegistry.registerPath(trackRoute);
  router.post(trackRoute.path, async (c) => {
    const { deps } = c.env;
    const origin = clientOrigin(c, deps.config.trustProxy);
    if (recorder.limiter) {
      const key = limitKey(origin.ip) ?? 'unknown';
      const policy = { name: 'analytics-track', ...recorder.limiter.policy };
      const retryAfter = recorder.limiter.take(key);
      if (retryAfter) {
        throw new ApiError('RATE_LIMITED', 'Too many analytics events from this address; slow down.', {
          headers: refusalFields(policy, retryAfter),
        });
      }
      // The service's busiest route answers with plain-object headers while a client is far from its
      // limit; from half-way it says how much is left (the draft lets a server send the fields only
      // close to exhaustion, for performance).
      const standing = recorder.limiter.standing(key);
      if (standing.remaining <= policy.quota / 2) {
        const fields = rateLimitFields(policy, standing);
        for (const name in fields) c.header(name, fields[name]);
      }
    }
    const body = await readCappedBody(c, TRACK_BODY_CAP);
    let input: TrackInput;
    try {
      input = await parseTrackBody(c.req.header('content-type'), body);
    } catch (error) {
      throw analyticsApiError(error);
    }
    const userAgent = c.req.header('user-agent') ?? '';
    if (isBotAgent(userAgent)) {
      recorder.countBot();
      return c.json({ success: true as const }, 202);
    }
    try {
      await ingestEvent(deps, recorder, input, origin, userAgent);
    } catch (error) {
      if (error instanceof RecorderBusyError) {
        throw new ApiError('RATE_LIMITED', 'Analytics is busy; retry in a moment.', {
          headers: { 'Retry-After': '1' },
        });
      }
      if (error instanceof InboxFullError) {
        throw new ApiError('NOT_CONFIGURED', 'Analytics cannot store events right now; retry later.', {
          headers: { 'Retry-After': String(L.inboxFullRetryAfterS) },
        });
      }
      throw error;
    }
    return c.json({ success: true as const }, 202);
  });

  router.openAPIRegistry.registerPath(scriptRoute);
  router.get(SCRIPT_PATH, (c) => {
    const { body, encoding, etag } = trackerScript({ 'accept-encoding': c.req.header('accept-encoding') });
    const headers = { ...SCRIPT_HEADERS, ETag: etag };
    if (notModified(c.req.raw, etag)) return c.body(null, 304, headers);
    return c.body(body, 200, encoding ? { ...headers, 'Content-Encoding': encoding } : headers);
  });

  return router
    .openapi(statsRoute, async (c) => {
      const query = c.req.valid('query');
      const range = await mapErrors(
        foldAndResolveRange(c.env.deps.db, c.env.logger, query.from, query.to, Date.now()),
        analyticsApiError,
      );
      return c.json(await readAnalyticsStats(c.env.deps.db, range, query.limit, filtersOf(query)), 200);
    })
    .openapi(exportRoute, async (c) => {
      const query = c.req.valid('query');
      const db = c.env.deps.db;
      const range = await mapErrors(
        foldAndResolveRange(db, c.env.logger, query.from, query.to, Date.now()),
        analyticsApiError,
      );
      const filters = filtersOf(query);
      const headers = {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="analytics-${query.report}-${range.from}-${range.to}.csv"`,
        'Cache-Control': 'no-store',
      };
      if (query.report === 'events') return c.body(eventsCsv(db, range, filters), 200, headers);
      return c.body(await reportCsv(db, query.report, range, filters), 200, headers);
    })
    .openapi(eventsRoute, async (c) => {
      const { page, limit } = c.req.valid('query');
      await foldBeforeRead(c.env.deps.db, c.env.logger);
      const { rows, total } = await listEvents(c.env.deps.db, page, limit);
      return c.json(
        {
          success: true as const,
          events: rows.map((r) => ({
            id: r.id,
            type: r.type,
            page: r.page,
            referrer: r.referrer,
            title: r.title,
            properties: r.properties ? (JSON.parse(r.properties) as Record<string, unknown>) : null,
            sessionId: r.session_id,
            country: r.country,
            createdAt: new Date(Number(r.created_at)).toISOString(),
          })),
          pagination: { page, limit, total, totalPages: Math.ceil(total / limit) },
        },
        200,
      );
    });
}
