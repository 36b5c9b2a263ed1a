import { createRoute } from '@hono/zod-openapi';
import type { Config } from '../../config.ts';
import { readCappedBody } from '../../http/capped-body.ts';
import { clientOrigin, limitKey } from '../../http/client-ip.ts';
import { RATE_LIMIT_HEADERS, RATE_LIMITED_HEADERS } from '../../http/error-responses.ts';
import { ApiError, type ErrorCode, mapErrors } from '../../http/errors.ts';
import { createRouter } from '../../http/openapi.ts';
import { rateLimitFields, refusalFields } from '../../http/rate-limit-fields.ts';
import { isBotAgent } from './bots.ts';
import { AnalyticsRefusal, type AnalyticsRefusalReason } from './errors.ts';
import { ANALYTICS_LIMITS as L } from './limits.ts';
import { type AnalyticsRecorder, RecorderBusyError } from './recorder.ts';
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
import { readAnalyticsStats, resolveRange } from './stats.ts';
import { listEvents } from './store.ts';
import { buildEventRow, parseTrackBody, utcDay } from './track.ts';

const errors = {
  400: { description: 'Invalid input (`VALIDATION_ERROR`)' },
};

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
  tags: ['Analytics'],
  summary: 'Record a page view or a named event',
  description:
    'Accepts the content types `navigator.sendBeacon` sends: `text/plain` (JSON text), `application/json`, ' +
    'no type, `application/x-www-form-urlencoded` and `multipart/form-data` (form fields; `properties` as JSON text). ' +
    `Bodies over ${L.trackBodyBytes} bytes → 413. Answers **202** once the event is committed, and 202 to bots too ` +
    '(dropped and counted, never stored). The client IP is never stored: the country comes from `CF-IPCountry` ' +
    '(TRUST_PROXY=cloudflare) or a local IP-to-country database, and the visitor is a hash of (daily salt, IP, user agent). ' +
    `Rate limit: ANALYTICS_TRACK_RATE_LIMIT per IP per minute (default ${L.trackPerIp.limit}).`,
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
    ...errors,
    413: { description: 'Body too large (`PAYLOAD_TOO_LARGE`)' },
    415: { description: 'Unsupported content type' },
    429: { description: 'Rate limited (`RATE_LIMITED`, with Retry-After)', headers: RATE_LIMITED_HEADERS },
  },
});

const statsRoute = createRoute({
  method: 'get',
  path: '/api/analytics/stats',
  tags: ['Analytics'],
  summary: 'Aggregates over a date range',
  description:
    'Total events, unique pages, unique visitors (summed per day), top pages, top countries, event types, ' +
    'top referrers (by host) and a daily series, for the inclusive UTC days `from`..`to` ' +
    `(default: from the first recorded day, at most ${L.stats.maxRangeDays} days back, to today). ` +
    'Read from rollups maintained on write.',
  request: { query: StatsQuery },
  responses: {
    200: { description: 'Statistics', content: { 'application/json': { schema: Stats } } },
    ...errors,
  },
});

const eventsRoute = createRoute({
  method: 'get',
  path: '/api/analytics/events',
  tags: ['Analytics'],
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
    const now = Date.now();
    const day = utcDay(now);
    const country = origin.country ?? (origin.ip ? deps.geoip.country(origin.ip) : null);
    const visitorHash = await recorder.visitorHash(day, origin.ip, userAgent);
    const row = buildEventRow(input, { now, country, visitorHash, siteHosts: siteHosts(deps.config) });
    try {
      await recorder.record(row);
    } catch (error) {
      if (error instanceof RecorderBusyError) {
        throw new ApiError('RATE_LIMITED', 'Analytics is busy; retry in a moment.', {
          headers: { 'Retry-After': '1' },
        });
      }
      throw error;
    }
    return c.json({ success: true as const }, 202);
  });

  return router
    .openapi(statsRoute, async (c) => {
      const query = c.req.valid('query');
      const range = await mapErrors(
        resolveRange(c.env.deps.db, query.from, query.to, Date.now()),
        analyticsApiError,
      );
      return c.json(await readAnalyticsStats(c.env.deps.db, range, query.limit), 200);
    })
    .openapi(eventsRoute, async (c) => {
      const { page, limit } = c.req.valid('query');
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

const siteHostsOf = new WeakMap<Config, string[]>();

/** The site's own host names (a referrer from them is internal navigation, not a source), once per config. */
function siteHosts(config: Config): string[] {
  let hosts = siteHostsOf.get(config);
  if (hosts === undefined) {
    hosts = [new URL(config.siteOrigin).hostname];
    if (config.wwwSiteOrigin) hosts.push(new URL(config.wwwSiteOrigin).hostname);
    siteHostsOf.set(config, hosts);
  }
  return hosts;
}
