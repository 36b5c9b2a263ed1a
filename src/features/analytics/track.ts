import { randomUUID } from 'node:crypto';
import { NUL_REPLACEMENT } from '../../db/database.ts';
import {
  maskContactDetails,
  maskContactDetailsIn,
  mayHoldContactDetails,
} from '../../text/contact-details.ts';
import { sliceWhole } from '../../text/slice-whole.ts';
import { describeZodError } from '../../text/validation-message.ts';
import { AnalyticsRefusal } from './errors.ts';
import { ANALYTICS_LIMITS as L } from './limits.ts';
import { parsePage, storedPath } from './page.ts';
import { fromPlausible } from './plausible.ts';
import {
  ENGAGEMENT_TIME_RULE,
  isPageAddress,
  longerThan,
  NO_CONTROL_CHARS,
  PAGE_ADDRESS_RULE,
  propertiesProblem,
  RESERVED_TYPE_RULE,
  TrackBody,
  type TrackInput,
} from './schemas.ts';
import { NO_UTM, sourceOf, type Utm, utmOf } from './sources.ts';
import type { AnalyticsEventRow, TrackedEvent } from './tables.ts';
import type { Client } from './user-agent.ts';

/** The event type of a conversion: recorded by the lead and contact-us forms, never by a beacon. */
export const CONVERSION_TYPE = 'lead';
/** Plausible's engagement event (and the service's script's): time on a page, not an event of its own. */
export const ENGAGEMENT_TYPE = 'engagement';
export const PAGE_VIEW_TYPE = 'page_view';

/** The whole body may nest a little deeper than `properties` (unknown fields are ignored). */
const MAX_BODY_DEPTH = L.properties.depth + 3;

function depthExceeds(value: unknown, max: number): boolean {
  const stack: { node: unknown; depth: number }[] = [{ node: value, depth: 1 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (depth > max) return true;
    for (const child of Object.values(node)) stack.push({ node: child, depth: depth + 1 });
  }
  return false;
}

/** At most `max` objects and arrays in the text: then nothing in it can nest deeper than that. */
function fewContainers(text: string, max: number): boolean {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if ((code === 123 || code === 91) && ++count > max) return false; // { [
  }
  return true;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new AnalyticsRefusal('invalid', 'The request body is not valid JSON.');
  }
}

function fromForm(fields: Iterable<[string, FormDataEntryValue]>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [key, value] of fields) {
    if (typeof value !== 'string') {
      throw new AnalyticsRefusal('invalid', `${key}: files are not accepted.`);
    }
    // A form carries properties as JSON text.
    body[key] = key === 'properties' && value !== '' ? parseJson(value) : value;
  }
  return body;
}

/**
 * Reads a track body as navigator.sendBeacon sends it: a string arrives as text/plain, a Blob with
 * its own type (application/json) or none, URLSearchParams as a form, FormData as multipart. All of
 * them carry the same fields; JSON text is accepted under text/plain, no type and application/json.
 */
export async function parseTrackBody(
  contentType: string | undefined,
  bytes: Uint8Array,
): Promise<TrackInput> {
  if (bytes.byteLength > L.trackBodyBytes) {
    throw new AnalyticsRefusal('too_large', `A track body is limited to ${L.trackBodyBytes} bytes.`);
  }
  const semicolon = contentType?.indexOf(';') ?? -1;
  const type = (semicolon >= 0 ? contentType!.slice(0, semicolon) : (contentType ?? '')).trim().toLowerCase();
  let raw: unknown;
  let text: string | null = null;
  if (type === '' || type === 'text/plain' || /^application\/([\w.+-]+\+)?json$/.test(type)) {
    text = utf8Text(bytes);
    if (text.trim() === '') throw new AnalyticsRefusal('invalid', 'The request body is empty.');
    raw = parseJson(text);
  } else if (type === 'application/x-www-form-urlencoded') {
    raw = fromForm(new URLSearchParams(new TextDecoder().decode(bytes)));
  } else if (type === 'multipart/form-data') {
    let form: FormData;
    try {
      form = await new Response(new Uint8Array(bytes), {
        headers: { 'content-type': contentType! },
      }).formData();
    } catch {
      throw new AnalyticsRefusal('invalid', 'The multipart body could not be read.');
    }
    raw = fromForm(form.entries());
  } else {
    throw new AnalyticsRefusal(
      'unsupported_type',
      'Send the event as application/json, text/plain (JSON text), application/x-www-form-urlencoded or multipart/form-data.',
    );
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new AnalyticsRefusal('invalid', 'The request body must be a JSON object.');
  }
  if (!(text !== null && fewContainers(text, MAX_BODY_DEPTH)) && depthExceeds(raw, MAX_BODY_DEPTH)) {
    throw new AnalyticsRefusal('invalid', `The request body is nested deeper than ${MAX_BODY_DEPTH} levels.`);
  }
  return validateTrack(fromPlausible(raw as Record<string, unknown>));
}

/** UTF-8 as TextDecoder reads it (invalid sequences → U+FFFD, a leading BOM dropped), without building one. */
function utf8Text(bytes: Uint8Array): string {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function invalid(message: string): never {
  throw new AnalyticsRefusal('invalid', message);
}

function optionalString(body: Record<string, unknown>, key: string, max: number): string | null {
  const value = body[key];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') invalid(`${key}: must be a string`);
  if (longerThan(value, max)) invalid(`${key}: must be at most ${max} characters`);
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
}

/**
 * The hot-path validator of a track body: the same rules as the TrackBody schema (which documents
 * them in /openapi.json; track.test.ts checks the two agree), without zod's allocations — this route
 * is the service's busiest.
 */
export function validateTrack(body: Record<string, unknown>): TrackInput {
  let type = 'page_view';
  if (body.type !== undefined) {
    if (typeof body.type !== 'string') invalid('type: must be a string');
    type = body.type.trim();
    if (type === '') invalid('type: must not be empty');
    if (longerThan(type, L.typeLength)) invalid(`type: must be at most ${L.typeLength} characters`);
    if (!NO_CONTROL_CHARS.test(type)) invalid('type: must not contain control characters');
    if (type === CONVERSION_TYPE) invalid(`type: ${RESERVED_TYPE_RULE}`);
  }
  const pageOf = (key: 'page' | 'url') => {
    const value = body[key];
    if (value === undefined) return undefined;
    if (typeof value !== 'string') invalid(`${key}: must be a string`);
    const trimmed = value.trim();
    if (trimmed === '') invalid(`${key}: must not be empty`);
    if (longerThan(trimmed, L.urlLength)) invalid(`${key}: must be at most ${L.urlLength} characters`);
    if (!isPageAddress(trimmed)) invalid(`${key}: ${PAGE_ADDRESS_RULE}`);
    return trimmed;
  };
  const page = pageOf('page');
  const url = pageOf('url');
  if (page === undefined && url === undefined) invalid('page: page (or url) is required');
  let properties: Record<string, unknown> | null = null;
  if (body.properties !== undefined && body.properties !== null) {
    const value = body.properties;
    if (typeof value !== 'object' || Array.isArray(value)) invalid('properties: must be an object');
    const problem = propertiesProblem(value as Record<string, unknown>);
    if (problem) invalid(`properties: properties ${problem}`);
    properties = value as Record<string, unknown>;
  }
  if (body.interactive !== undefined && typeof body.interactive !== 'boolean') {
    invalid('interactive: must be a boolean');
  }
  let engagementMs: number | undefined;
  if (body.engagementMs !== undefined) {
    const value = body.engagementMs;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      invalid('engagementMs: must be a number of milliseconds, at least 0');
    }
    engagementMs = value;
  } else if (type === ENGAGEMENT_TYPE) {
    invalid(`engagementMs: ${ENGAGEMENT_TIME_RULE}`);
  }
  return {
    type,
    page,
    url,
    interactive: body.interactive as boolean | undefined,
    engagementMs,
    referrer: optionalString(body, 'referrer', L.urlLength),
    title: optionalString(body, 'title', L.titleLength),
    properties,
    sessionId: optionalString(body, 'sessionId', L.sessionIdLength),
  };
}

/** The zod schema's verdict on a body (used by tests to check validateTrack agrees). */
export function validateTrackWithSchema(body: unknown): TrackInput {
  const parsed = TrackBody.safeParse(body);
  if (!parsed.success) throw new AnalyticsRefusal('invalid', describeZodError(parsed.error));
  return parsed.data;
}

/** A host as referrals are counted: without `www.`, and without the root's dot (`bing.com.` is `bing.com`). */
const bareHost = (host: string) => host.replace(/\.$/, '').replace(/^www\./, '');

/** `referrer` without query string, and its host unless the visit came from the site itself. */
export function referrerParts(
  referrer: string | null,
  pageValue: string,
  siteHosts: string[],
): { referrer: string | null; host: string | null } {
  return referrerOf(referrer, parsePage(pageValue).host, siteHosts);
}

function referrerOf(
  referrer: string | null,
  pageHost: string | null,
  siteHosts: string[],
): { referrer: string | null; host: string | null } {
  if (!referrer) return { referrer: null, host: null };
  let url: URL;
  try {
    url = new URL(referrer);
  } catch {
    return { referrer: null, host: null };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { referrer: null, host: null };
  // The parser neither bounds a host nor its labels: 2 000 distinct CJK characters become a 6 KB
  // punycode host, which as a rollup key failed the batch on PostgreSQL (index row too large).
  if (url.hostname.length > L.referrerHostLength) return { referrer: null, host: null };
  // `http://www../` names no host once bared: no referral.
  const host = bareHost(url.hostname.toLowerCase()) || null;
  const kept = `${url.origin}${url.pathname}`;
  if (host === null) return { referrer: kept, host: null };
  const internal =
    siteHosts.some((h) => bareHost(h) === host) || (pageHost !== null && bareHost(pageHost) === host);
  return { referrer: kept, host: internal ? null : host };
}

export interface TrackContext {
  now: number;
  country: string | null;
  visitorHash: string;
  siteHosts: string[];
  /** Device, browser and OS read from the User-Agent (which itself is not kept). */
  client: Client;
  /** True only for a conversion recorded by a form (never for a beacon). */
  conversion?: boolean;
}

/**
 * A UUIDv7 (RFC 9562): the 48-bit millisecond timestamp, the version, then the random bits of a
 * `randomUUID()` (whose variant bits are already v7's). Time-ordered ids put new rows at the end of
 * the primary-key index instead of anywhere in it: random ids cost ~15 % more CPU per tracked event
 * on SQLite as the table grew (measured). Not the `uuid` package's v7: it draws its 16 random bytes
 * from the system on every call, a tenth of a tracked event's CPU; Node's `randomUUID` draws them
 * from a buffer.
 */
export function uuidv7(now: number): string {
  const time = now.toString(16).padStart(12, '0');
  return `${time.slice(0, 8)}-${time.slice(8)}-7${randomUUID().slice(15)}`;
}

/**
 * U+0000 in the row's text as U+FFFD, on both engines: PostgreSQL cannot store it (every parameter
 * is mapped so, database.ts), and a rollup key must be the value as stored, or two values that differ
 * only there would be one row twice in an upsert (PostgreSQL refuses it) or mix on SQLite.
 */
function withoutNul(row: AnalyticsEventRow): void {
  const fields = row as unknown as Record<string, unknown>;
  for (const name in fields) {
    const value = fields[name];
    if (typeof value === 'string' && value.includes('\u0000'))
      fields[name] = value.replaceAll('\u0000', NUL_REPLACEMENT);
  }
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** The last day `utcDay` formatted: every event of a day asks for the same one. */
let lastDay = { start: 0, end: 0, day: '' };

/** The UTC day `YYYY-MM-DD` of an instant (epoch ms). */
export function utcDay(ms: number): string {
  if (ms >= lastDay.start && ms < lastDay.end) return lastDay.day;
  const start = Math.floor(ms / DAY_MS) * DAY_MS;
  lastDay = { start, end: start + DAY_MS, day: new Date(ms).toISOString().slice(0, 10) };
  return lastDay.day;
}

/** The properties as stored: JSON, every key and string value with its contact details masked. */
function propertiesText(properties: Record<string, unknown>): string {
  const text = JSON.stringify(properties);
  return mayHoldContactDetails(text) ? JSON.stringify(masked(properties)) : text;
}

function masked(value: unknown): unknown {
  if (typeof value === 'string') return maskContactDetails(value);
  if (Array.isArray(value)) return value.map(masked);
  if (value === null || typeof value !== 'object') return value;
  // Keys too: a site may name a property after a person ({"ana@example.com": "signed up"}).
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [maskContactDetails(key), masked(inner)]),
  );
}

/** UTM tags name nobody either: a newsletter tool may tag its links with the recipient's address. */
function maskedUtm(utm: Utm): Utm {
  return {
    source: maskContactDetailsIn(utm.source),
    medium: maskContactDetailsIn(utm.medium),
    campaign: maskContactDetailsIn(utm.campaign),
    ref: maskContactDetailsIn(utm.ref),
  };
}

/**
 * The stored event and what it does to its visit. Nothing in it names anybody: e-mail addresses and
 * phone numbers a site put in a page, title, referrer, event name or property are masked
 * (src/text/contact-details.ts), UTM tags included. UTM tags are read from the page URL's query
 * string before it is dropped; the source from them or the referrer (sources.ts). An engagement
 * event is no event of its own: it adds time on page to its visit.
 */
export function buildEventRow(input: TrackInput, ctx: TrackContext): TrackedEvent {
  const pageValue = (input.page ?? input.url)!;
  const page = parsePage(pageValue);
  const ref = referrerOf(input.referrer, page.host, ctx.siteHosts);
  const utm = page.search === '' ? NO_UTM : maskedUtm(utmOf(page.search));
  const row: AnalyticsEventRow = {
    id: uuidv7(ctx.now),
    type: maskContactDetails(input.type),
    page: storedPath(page.path),
    // Masked before it is cut, as the page (storedPath).
    referrer: ref.referrer === null ? null : sliceWhole(maskContactDetails(ref.referrer), L.referrerLength),
    referrer_host: ref.host,
    title: maskContactDetailsIn(input.title),
    properties: input.properties ? propertiesText(input.properties) : null,
    session_id: maskContactDetailsIn(input.sessionId),
    country: ctx.country,
    visitor_hash: ctx.visitorHash,
    day: utcDay(ctx.now),
    created_at: ctx.now,
    visit_id: null,
    source: sourceOf(utm.source ?? utm.ref, ref.host),
    utm_source: utm.source,
    utm_medium: utm.medium,
    utm_campaign: utm.campaign,
    device: ctx.client.device,
    browser: ctx.client.browser,
    os: ctx.client.os,
  };
  withoutNul(row);
  const engagement = input.type === ENGAGEMENT_TYPE;
  return {
    row,
    kind: engagement ? 'engagement' : input.type === PAGE_VIEW_TYPE ? 'pageview' : 'event',
    interactive: !engagement && input.interactive !== false,
    engagementMs: engagement ? Math.min(Math.round(input.engagementMs ?? 0), L.engagementMs) : 0,
    conversion: ctx.conversion === true,
  };
}
