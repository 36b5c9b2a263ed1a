import { ANALYTICS_LIMITS as L } from './limits.ts';
import { RollupSums } from './rollup-sums.ts';
import type { TrackedEvent, VisitRow } from './tables.ts';
import { uuidv7 } from './track.ts';

/** The per-visit metrics kept in analytics_visit_daily, per dimension value and day. */
export const VISIT_METRICS = [
  'visits',
  'visitors',
  'bounces',
  'duration_ms',
  'pageviews',
  'events',
  'converted',
  'conversions',
  'engagement_ms',
] as const;
export type VisitMetric = (typeof VISIT_METRICS)[number];
export type VisitMetrics = Record<VisitMetric, number>;

/**
 * Dimensions of analytics_visit_daily and how a visit names its value in each; `all` is the whole
 * day. A null value (no UTM tag) is not counted in that dimension; '' stands for unknown/direct.
 */
export const VISIT_DIMENSIONS = {
  all: () => '',
  source: (v: VisitRow) => v.source ?? '',
  utm_source: (v: VisitRow) => v.utm_source,
  utm_medium: (v: VisitRow) => v.utm_medium,
  utm_campaign: (v: VisitRow) => v.utm_campaign,
  device: (v: VisitRow) => v.device ?? '',
  browser: (v: VisitRow) => v.browser ?? '',
  os: (v: VisitRow) => v.os ?? '',
  entry: (v: VisitRow) => v.entry_page,
  exit: (v: VisitRow) => v.exit_page,
} satisfies Record<string, (v: VisitRow) => string | null>;
export type VisitDimension = keyof typeof VISIT_DIMENSIONS;

/** Plausible's bounce: a visit with at most one interaction (engagement and non-interactive events do not count). */
export const isBounce = (v: VisitRow) => v.interactions <= 1;

export function visitMetrics(v: VisitRow): VisitMetrics {
  return {
    visits: 1,
    visitors: v.new_visitor,
    bounces: isBounce(v) ? 1 : 0,
    duration_ms: v.last_at - v.started_at,
    pageviews: v.pageviews,
    events: v.events,
    converted: v.conversions > 0 ? 1 : 0,
    conversions: v.conversions,
    engagement_ms: v.engagement_ms,
  };
}

export const visitKey = (day: string, visitorHash: string) => `${day}\u0000${visitorHash}`;

export interface VisitChange {
  /** The visit as stored before this batch (null: started in this batch). */
  before: VisitRow | null;
  after: VisitRow;
}

/** Values of a visit's sample key: 0–9999 (a sampled report reads the keys below a threshold). */
export const SAMPLE_KEYS = 10_000;

/**
 * A visit's sample key from its id: the last 32 bits of a UUIDv7 are random, so keys are uniform
 * and independent of everything the visit says (page, source, device…). Deterministic: the same
 * visit is in or out of a sample on every read.
 */
export function sampleKey(visitId: string): number {
  return Number.parseInt(visitId.slice(-8), 16) % SAMPLE_KEYS;
}

function startVisit(event: TrackedEvent, newVisitor: boolean): VisitRow {
  const e = event.row;
  const id = uuidv7(e.created_at);
  return {
    id,
    day: e.day,
    visitor_hash: e.visitor_hash,
    started_at: e.created_at,
    last_at: e.created_at,
    new_visitor: newVisitor ? 1 : 0,
    entry_page: e.page,
    exit_page: e.page,
    pageviews: 0,
    events: 0,
    interactions: 0,
    engagement_ms: 0,
    conversions: 0,
    source: e.source,
    referrer_host: e.referrer_host,
    utm_source: e.utm_source,
    utm_medium: e.utm_medium,
    utm_campaign: e.utm_campaign,
    country: e.country,
    device: e.device,
    browser: e.browser,
    os: e.os,
    sample: sampleKey(id),
  };
}

/**
 * Applies a batch of events to the visits they belong to. `open` holds each visitor's latest stored
 * visit of the day; `newVisitors` the (day, hash) keys first seen in this batch. A visit goes on
 * while its events come less than 30 minutes apart; the day's hash ends it at midnight. An
 * engagement event only adds time to a visit still open (it reports leaving a page, it starts
 * nothing). Sets each stored event's visit_id; returns every visit changed, before and after.
 *
 * An event that goes on a visit with the referrer host the visit arrived with is no new arrival:
 * its `referrer_host` is cleared, so top referrers count the visit's referral once. Plausible's
 * tracker sends the landing page's referrer with every event (its SPA page views, custom events,
 * outbound clicks); a visitor back from the same site within the visit is the same arrival too.
 * Only the arrival's host is known to the visit: another site's, sent again, counts each time.
 */
export function applyToVisits(
  events: TrackedEvent[],
  open: Map<string, VisitRow>,
  newVisitors: Set<string>,
): VisitChange[] {
  const changes = new Map<string, VisitChange>();
  const current = new Map<string, VisitRow>();
  for (const event of events) {
    const e = event.row;
    const key = visitKey(e.day, e.visitor_hash);
    let visit = current.get(key);
    if (visit === undefined) {
      const stored = open.get(key);
      if (stored) {
        visit = { ...stored };
        changes.set(visit.id, { before: stored, after: visit });
        current.set(key, visit);
      }
    }
    const ended = visit !== undefined && e.created_at - visit.last_at > L.visitGapMs;
    if (event.kind === 'engagement') {
      if (visit === undefined || ended) continue;
    } else if (visit === undefined || ended) {
      visit = startVisit(event, newVisitors.delete(key));
      changes.set(visit.id, { before: null, after: visit });
      current.set(key, visit);
    } else if (
      e.referrer_host !== null &&
      e.referrer_host === visit.referrer_host &&
      // A visit a conversion started counted no referral (its form's is not one): the first
      // other event with that referrer is the arrival.
      visit.events > visit.conversions
    ) {
      e.referrer_host = null;
    }
    // A late event (another instance's clock, a queued beacon) keeps the visit's end where it is.
    if (e.created_at > visit.last_at) visit.last_at = e.created_at;
    if (event.kind === 'engagement') {
      visit.engagement_ms += event.engagementMs;
      continue;
    }
    e.visit_id = visit.id;
    visit.events++;
    if (event.kind === 'pageview') {
      visit.pageviews++;
      visit.exit_page = e.page;
    }
    if (event.interactive) visit.interactions++;
    if (event.conversion) visit.conversions++;
  }
  return [...changes.values()];
}

/**
 * What the changes move in analytics_visit_daily: for each dimension value, the visit's metrics
 * after minus before (a visit that stops bouncing takes one bounce back; an exit page that moves
 * takes its visit from the old page to the new one). Values are keyed as the database stores them:
 * both engines write a lone surrogate as U+FFFD, and two keys that differ only there would be one
 * row twice in a multi-row upsert (PostgreSQL refuses that, failing the whole fold).
 */
export function visitRollupDeltas(changes: VisitChange[]): RollupSums<VisitMetrics> {
  const deltas = new RollupSums<VisitMetrics>();
  const add = (dimension: string, day: string, value: string, metrics: VisitMetrics, sign: 1 | -1) => {
    const stored = value.toWellFormed();
    const sum = deltas.get(dimension, day, stored);
    if (sum === undefined) {
      const fresh = { ...metrics };
      // 0 − x rather than −x: no −0 among the sums.
      if (sign < 0) for (const metric of VISIT_METRICS) fresh[metric] = 0 - fresh[metric];
      deltas.set(dimension, day, stored, fresh);
    } else {
      for (const metric of VISIT_METRICS) sum[metric] += sign * metrics[metric];
    }
  };
  for (const { before, after } of changes) {
    const afterMetrics = visitMetrics(after);
    const beforeMetrics = before && visitMetrics(before);
    // A visit keeps its day, and all but its exit page: where a value stays, one entry of the
    // difference does what taking the old metrics away and adding the new ones would.
    const sameDay = before !== null && before.day === after.day;
    const difference = sameDay ? minus(afterMetrics, beforeMetrics!) : null;
    for (const [dimension, nameOf] of DIMENSION_ENTRIES) {
      const value = nameOf(after);
      if (before) {
        const old = nameOf(before);
        if (sameDay && old === value) {
          if (value !== null) add(dimension, after.day, value, difference!, 1);
          continue;
        }
        if (old !== null) add(dimension, before.day, old, beforeMetrics!, -1);
      }
      if (value !== null) add(dimension, after.day, value, afterMetrics, 1);
    }
  }
  return deltas;
}

function minus(a: VisitMetrics, b: VisitMetrics): VisitMetrics {
  const difference = { ...a };
  for (const metric of VISIT_METRICS) difference[metric] -= b[metric];
  return difference;
}

const DIMENSION_ENTRIES = Object.entries(VISIT_DIMENSIONS) as [string, (v: VisitRow) => string | null][];
