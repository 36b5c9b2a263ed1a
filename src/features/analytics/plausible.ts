/**
 * Plausible's compact event, as `@plausible-analytics/tracker` and Plausible's script (with
 * `data-api` pointing at this service) send it: `{n, u, d, r, p, i, e, …}` as text/plain JSON. Read
 * as the service's own fields, so its events are recorded and counted like the service's: its page
 * views as page views, its outbound-link and file-download events under the service's names, its
 * engagement events as time on page (not page views).
 */
const EVENT_NAMES: Record<string, string> = {
  pageview: 'page_view',
  engagement: 'engagement',
  'Outbound Link: Click': 'outbound_link',
  'File Download': 'file_download',
};

/** Properties whose `url` is a link the visitor followed: kept without its query string, as pages are. */
const LINK_EVENTS = new Set(['outbound_link', 'file_download']);

function isPlausible(body: Record<string, unknown>): boolean {
  return (
    typeof body.n === 'string' &&
    typeof body.u === 'string' &&
    body.type === undefined &&
    body.page === undefined &&
    body.url === undefined
  );
}

/** `p` is an object (current tracker) or JSON text (older scripts, and `m` before it). */
function propertiesOf(body: Record<string, unknown>): unknown {
  const value = body.p ?? body.m;
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return value; // left for the validator to refuse as "not an object"
  }
}

function withoutQuery(link: string): string {
  const url = URL.parse(link);
  return url && (url.protocol === 'http:' || url.protocol === 'https:') ? `${url.origin}${url.pathname}` : '';
}

/** A Plausible body as a TrackEvent body; any other body unchanged. */
export function fromPlausible(body: Record<string, unknown>): Record<string, unknown> {
  if (!isPlausible(body)) return body;
  const name = body.n as string;
  const type = EVENT_NAMES[name] ?? name;
  let properties = propertiesOf(body);
  if (
    LINK_EVENTS.has(type) &&
    properties !== null &&
    typeof properties === 'object' &&
    typeof (properties as { url?: unknown }).url === 'string'
  ) {
    properties = { ...properties, url: withoutQuery((properties as { url: string }).url) };
  }
  return {
    type,
    url: body.u,
    referrer: body.r,
    properties,
    interactive: body.i === false ? false : undefined,
    // Time on page as sent: the track route refuses one that is missing or not a number ≥ 0, as it
    // refuses the service's own engagement events (a bad one must not stretch the visit).
    engagementMs: type === 'engagement' ? body.e : undefined,
  };
}
