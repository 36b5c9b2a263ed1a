import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase, testEngines } from '../../../test/support/database.ts';
import type { Db } from '../../db/database.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { filtersOf } from './filters.ts';
import type { TrackInput } from './schemas.ts';
import { readAnalyticsStats } from './stats.ts';
import { writeBatch } from './store.ts';
import type { TrackedEvent, VisitRow } from './tables.ts';
import { buildEventRow } from './track.ts';
import {
  VISIT_DIMENSIONS,
  VISIT_METRICS,
  type VisitMetrics,
  visitMetrics,
  visitRollupDeltas,
} from './visits.ts';

const engines = await testEngines();

const DESKTOP = { device: 'desktop', browser: 'Chrome', os: 'Linux' };
const MOBILE = { device: 'mobile', browser: 'Safari', os: 'iOS' };

interface EventSpec extends Partial<TrackInput> {
  at: string;
  visitor?: string;
  client?: typeof DESKTOP;
  country?: string | null;
  conversion?: boolean;
}

/** An event as the track route builds it, at a chosen instant. */
function tracked(spec: EventSpec): TrackedEvent {
  const { at, visitor = 'v1', client = DESKTOP, country = 'DE', conversion, ...input } = spec;
  return buildEventRow(
    {
      type: 'page_view',
      page: input.url === undefined ? '/' : undefined,
      url: undefined,
      referrer: null,
      title: null,
      properties: null,
      sessionId: null,
      ...input,
    },
    {
      now: Date.parse(at),
      country,
      visitorHash: visitor,
      siteHosts: ['agency.example'],
      client,
      conversion,
    },
  );
}

describe.each(engines)('visits on %s', (engine) => {
  let database: TestDatabase;
  let db: Db;
  async function fresh() {
    database = await createTestDatabase(engine);
    await migrateToLatest(database.handle.db);
    db = database.handle.db;
  }
  afterEach(() => database?.dispose());

  const day = { from: '2026-03-01', to: '2026-03-03' };
  const visitRows = () => db.selectFrom('analytics_visits').selectAll().orderBy('started_at').execute();

  it('a visit goes on while events come less than 30 minutes apart; a longer gap starts another', async () => {
    await fresh();
    await writeBatch(
      db,
      [
        tracked({ at: '2026-03-01T10:00:00Z', page: '/a' }),
        tracked({ at: '2026-03-01T10:20:00Z', page: '/b' }),
        // exactly 30 minutes after the last event: still the same visit
        tracked({ at: '2026-03-01T10:50:00Z', page: '/c' }),
      ],
      0,
    );
    // A later batch finds the stored visit; 30 minutes and one millisecond later is a new visit.
    await writeBatch(db, [tracked({ at: '2026-03-01T11:20:00.001Z', page: '/d' })], 0);
    const visits = await visitRows();
    expect(visits.map((v) => [v.entry_page, v.exit_page, Number(v.pageviews)])).toEqual([
      ['/a', '/c', 3],
      ['/d', '/d', 1],
    ]);
    expect(Number(visits[0]!.last_at) - Number(visits[0]!.started_at)).toBe(50 * 60_000);
    const events = await db
      .selectFrom('analytics_events')
      .select(['page', 'visit_id'])
      .orderBy('created_at')
      .execute();
    expect(events.map((e) => e.visit_id)).toEqual([
      visits[0]!.id,
      visits[0]!.id,
      visits[0]!.id,
      visits[1]!.id,
    ]);

    const stats = await readAnalyticsStats(db, day, 10);
    expect(stats).toMatchObject({ visits: 2, uniqueVisitors: 1, pageviews: 4, bounceRate: 50 });
    expect(stats.visitDuration).toBe(Math.round((50 * 60) / 2));
    expect(stats.entryPages).toMatchObject([
      { page: '/a', visits: 1 },
      { page: '/d', visits: 1 },
    ]);
    expect(stats.exitPages).toMatchObject([
      { page: '/c', visits: 1 },
      { page: '/d', visits: 1 },
    ]);
  });

  it('an event repeating the referrer its visit arrived with is no second referral; another site, or a new visit, is', async () => {
    await fresh();
    const hn = 'https://news.ycombinator.com/item?id=1';
    await writeBatch(
      db,
      [
        tracked({ at: '2026-03-01T10:00:00Z', page: '/a', referrer: hn }),
        tracked({ at: '2026-03-01T10:01:00Z', page: '/b', referrer: hn }),
        tracked({ at: '2026-03-01T10:02:00Z', type: 'signup', page: '/b', referrer: hn }),
        tracked({ at: '2026-03-01T10:03:00Z', page: '/c', referrer: 'https://lobste.rs/' }),
      ],
      0,
    );
    // A later batch finds the stored visit; after a 30-minute gap the same referrer is a new arrival.
    await writeBatch(db, [tracked({ at: '2026-03-01T10:04:00Z', page: '/d', referrer: hn })], 0);
    await writeBatch(db, [tracked({ at: '2026-03-01T11:00:00Z', page: '/e', referrer: hn })], 0);
    const events = await db
      .selectFrom('analytics_events')
      .select(['page', 'referrer', 'referrer_host'])
      .orderBy('created_at')
      .execute();
    expect(events.map((e) => [e.page, e.referrer_host])).toEqual([
      ['/a', 'news.ycombinator.com'],
      ['/b', null],
      ['/b', null],
      ['/c', 'lobste.rs'],
      ['/d', null],
      ['/e', 'news.ycombinator.com'],
    ]);
    // The referrer itself is kept: only its counting as an arrival goes.
    expect(events[1]!.referrer).toBe('https://news.ycombinator.com/item');
    const stats = await readAnalyticsStats(db, day, 10);
    expect(stats.topReferrers).toEqual([
      { referrer: 'news.ycombinator.com', count: 2 },
      { referrer: 'lobste.rs', count: 1 },
    ]);
    expect(stats.visits).toBe(2);
  });

  it('a visit a conversion started counted no referral: its first other event with that referrer is the arrival', async () => {
    await fresh();
    const google = 'https://www.google.com/';
    await writeBatch(
      db,
      [
        tracked({
          at: '2026-03-01T10:00:00Z',
          type: 'lead',
          page: '/contact',
          referrer: google,
          conversion: true,
        }),
        tracked({ at: '2026-03-01T10:01:00Z', page: '/thanks', referrer: google }),
        tracked({ at: '2026-03-01T10:02:00Z', page: '/more', referrer: google }),
      ],
      0,
    );
    const stats = await readAnalyticsStats(db, day, 10);
    expect(stats.topReferrers).toEqual([{ referrer: 'google.com', count: 1 }]);
    expect(stats.visits).toBe(1);
  });

  it('a visit ends at UTC midnight: the daily hash cannot carry it into the next day', async () => {
    await fresh();
    await writeBatch(
      db,
      [
        tracked({ at: '2026-03-01T23:50:00Z', page: '/late' }),
        tracked({ at: '2026-03-02T00:05:00Z', page: '/early' }),
      ],
      0,
    );
    const visits = await visitRows();
    expect(visits.map((v) => [v.day, v.entry_page])).toEqual([
      ['2026-03-01', '/late'],
      ['2026-03-02', '/early'],
    ]);
    const stats = await readAnalyticsStats(db, day, 10);
    expect(stats.visits).toBe(2);
    expect(stats.timeseries.slice(0, 2)).toMatchObject([
      { date: '2026-03-01', visits: 1 },
      { date: '2026-03-02', visits: 1 },
    ]);
  });

  it('bounces as Plausible counts them: one interaction; engagement adds time on page, not a page view', async () => {
    await fresh();
    await writeBatch(
      db,
      [
        // A: one page view, then engagement (2 minutes on the page): still a bounce, 2 minutes long.
        tracked({ at: '2026-03-01T10:00:00Z', visitor: 'a', page: '/a' }),
        tracked({
          at: '2026-03-01T10:02:00Z',
          visitor: 'a',
          page: '/a',
          type: 'engagement',
          engagementMs: 120_000,
        }),
        // B: a page view and a custom event: not a bounce.
        tracked({ at: '2026-03-01T10:00:00Z', visitor: 'b', page: '/b' }),
        tracked({ at: '2026-03-01T10:01:00Z', visitor: 'b', page: '/b', type: 'signup' }),
        // C: a page view and a non-interactive event: a bounce.
        tracked({ at: '2026-03-01T10:00:00Z', visitor: 'c', page: '/c' }),
        tracked({
          at: '2026-03-01T10:01:00Z',
          visitor: 'c',
          page: '/c',
          type: 'autoplay',
          interactive: false,
        }),
        // D: two page views: not a bounce.
        tracked({ at: '2026-03-01T10:00:00Z', visitor: 'd', page: '/d' }),
        tracked({ at: '2026-03-01T10:03:00Z', visitor: 'd', page: '/e' }),
        // An engagement with no open visit starts nothing.
        tracked({
          at: '2026-03-01T12:00:00Z',
          visitor: 'e',
          page: '/x',
          type: 'engagement',
          engagementMs: 5000,
        }),
      ],
      0,
    );
    const stats = await readAnalyticsStats(db, day, 10);
    expect(stats).toMatchObject({
      visits: 4,
      uniqueVisitors: 4,
      pageviews: 5,
      totalEvents: 7,
      bounceRate: 50,
    });
    // 120 s of engagement over 5 page views.
    expect(stats.timeOnPage).toBe(24);
    expect(stats.visitDuration).toBe(Math.round((120 + 60 + 60 + 180) / 4));
    expect(stats.eventTypes.map((t) => t.type)).not.toContain('engagement');
    expect(stats.topPages.map((p) => p.page)).not.toContain('/x');
  });

  it('breakdowns by source, UTM tags, device, browser and OS, from the first event of each visit', async () => {
    await fresh();
    await writeBatch(
      db,
      [
        tracked({
          at: '2026-03-01T10:00:00Z',
          visitor: 'g',
          url: 'https://agency.example/',
          referrer: 'https://www.google.de/search',
        }),
        // the visit's second event from elsewhere does not change its source
        tracked({
          at: '2026-03-01T10:01:00Z',
          visitor: 'g',
          url: 'https://agency.example/x',
          referrer: 'https://t.co/abc',
        }),
        tracked({
          at: '2026-03-01T10:00:00Z',
          visitor: 'n',
          url: 'https://agency.example/pricing?utm_source=newsletter&utm_medium=email&utm_campaign=spring',
          client: MOBILE,
        }),
        tracked({ at: '2026-03-01T10:00:00Z', visitor: 'd', url: 'https://agency.example/', client: MOBILE }),
        tracked({
          at: '2026-03-01T10:00:00Z',
          visitor: 'l',
          url: '/?utm_source=fb',
          referrer: 'https://lnkd.in/x',
        }),
      ],
      0,
    );
    const stats = await readAnalyticsStats(db, day, 10);
    expect(stats.sources).toMatchObject([
      { source: null, category: 'direct', visits: 1 },
      { source: 'Facebook', category: 'social', visits: 1 },
      { source: 'Google', category: 'search', visits: 1, bounceRate: 0 },
      { source: 'Newsletter', category: 'email', visits: 1 },
    ]);
    expect(stats.utmSources).toMatchObject([{ utmSource: 'fb' }, { utmSource: 'newsletter' }]);
    expect(stats.utmMediums).toMatchObject([{ utmMedium: 'email', visits: 1 }]);
    expect(stats.utmCampaigns).toMatchObject([{ utmCampaign: 'spring', visits: 1 }]);
    expect(stats.devices).toMatchObject([
      { device: 'desktop', visits: 2 },
      { device: 'mobile', visits: 2 },
    ]);
    expect(stats.browsers).toMatchObject([
      { browser: 'Chrome', visits: 2 },
      { browser: 'Safari', visits: 2 },
    ]);
    expect(stats.operatingSystems).toMatchObject([
      { os: 'Linux', visits: 2 },
      { os: 'iOS', visits: 2 },
    ]);
    // The query string itself is never stored.
    const pages = await db.selectFrom('analytics_events').select('page').execute();
    expect(pages.every((p) => !p.page.includes('?'))).toBe(true);
  });

  it('filters select visits; the report is over them and their events, on rollups and visits alike', async () => {
    await fresh();
    await writeBatch(
      db,
      [
        tracked({ at: '2026-03-01T10:00:00Z', visitor: 'a', url: '/?utm_campaign=spring', country: 'CO' }),
        tracked({
          at: '2026-03-01T10:01:00Z',
          visitor: 'a',
          page: '/pricing',
          type: 'signup',
          country: 'CO',
        }),
        tracked({ at: '2026-03-01T10:00:00Z', visitor: 'b', page: '/pricing', client: MOBILE }),
        tracked({ at: '2026-03-01T10:00:00Z', visitor: 'c', page: '/blog', country: null }),
        tracked({ at: '2026-03-02T10:00:00Z', visitor: 'a', page: '/blog', client: MOBILE }),
      ],
      0,
    );
    const report = (query: Record<string, string>) => readAnalyticsStats(db, day, 10, filtersOf(query));
    const spring = await report({ utm_campaign: 'spring' });
    expect(spring).toMatchObject({
      visits: 1,
      uniqueVisitors: 1,
      totalEvents: 2,
      bounceRate: 0,
      filters: { utm_campaign: 'spring' },
    });
    expect(spring.eventTypes).toEqual([
      { type: 'page_view', count: 1 },
      { type: 'signup', count: 1 },
    ]);
    expect(spring.topCountries).toEqual([{ country: 'CO', count: 2 }]);
    expect((await report({ device: 'mobile' })).visits).toBe(2);
    expect((await report({ device: 'mobile', country: 'DE' })).visits).toBe(2);
    expect((await report({ device: 'mobile', country: 'de' })).visits).toBe(2);
    expect((await report({ country: '(none)' })).entryPages).toMatchObject([{ page: '/blog', visits: 1 }]);
    expect((await report({ page: '/pricing' })).visits).toBe(2);
    expect((await report({ page: '/pricing' })).topPages).toEqual([
      { page: '/pricing', count: 2 },
      { page: '/', count: 1 },
    ]);
    expect((await report({ entry_page: '/blog' })).uniqueVisitors).toBe(2);
    expect((await report({ source: '(none)' })).visits).toBe(4);
    expect((await report({ utm_source: '(none)', browser: 'Chrome' })).visits).toBe(2);
    expect((await report({ os: 'Windows' })).visits).toBe(0);

    expect((await report({ exit_page: '(none)' })).visits).toBe(0);
    const all = await readAnalyticsStats(db, day, 10);
    const [desktop, mobile] = [await report({ device: 'desktop' }), await report({ device: 'mobile' })];
    expect(desktop.visits + mobile.visits).toBe(all.visits);
  });

  it('the filtered path and the rollups give the same report when the filter holds for every visit', async () => {
    await fresh();
    const events: TrackedEvent[] = [];
    for (let v = 0; v < 12; v++) {
      const at = Date.parse('2026-03-01T08:00:00Z') + v * 7 * 60_000;
      const url = `https://agency.example/p${v % 3}${v % 4 === 0 ? '?utm_source=news&utm_campaign=c1' : ''}`;
      const referrer = v % 3 === 0 ? 'https://www.bing.com/' : null;
      events.push(tracked({ at: new Date(at).toISOString(), visitor: `v${v}`, url, referrer }));
      if (v % 2 === 0) {
        events.push(
          tracked({ at: new Date(at + 60_000).toISOString(), visitor: `v${v}`, page: `/q${v % 2}` }),
        );
      }
      if (v % 5 === 0) {
        events.push(
          tracked({
            at: new Date(at + 90_000).toISOString(),
            visitor: `v${v}`,
            page: '/contact',
            type: 'lead',
            conversion: true,
          }),
        );
      }
    }
    await writeBatch(db, events.slice(0, 9), 0);
    await writeBatch(db, events.slice(9), 0);
    const rollups = await readAnalyticsStats(db, day, 10);
    const visits = await readAnalyticsStats(db, day, 10, filtersOf({ os: 'Linux' }));
    const { filters: _a, ...fromRollups } = rollups;
    const { filters: _b, ...fromVisits } = visits;
    expect(fromVisits).toEqual(fromRollups);
    expect(rollups.conversions).toBe(3);
    expect(rollups.conversionsBy.byCampaign).toMatchObject([{ utmCampaign: 'c1', conversions: 1 }]);
  });

  it('concurrent batches extending one visit (two instances) lose no update, and rollups stay equal to the visits', async () => {
    await fresh();
    await writeBatch(db, [tracked({ at: '2026-03-01T10:00:00Z', page: '/start' })], 0);
    const at = (i: number) => new Date(Date.parse('2026-03-01T10:00:01Z') + i * 1000).toISOString();
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        writeBatch(
          db,
          [tracked({ at: at(i), page: `/p${i % 3}` }), tracked({ at: at(i), page: '/x', type: 'click' })],
          0,
        ),
      ),
    );
    const visits = await visitRows();
    expect(visits).toHaveLength(1);
    expect(visits[0]).toMatchObject({ pageviews: 13, events: 25 });
    const rollups = await readAnalyticsStats(db, day, 10);
    const fromVisits = await readAnalyticsStats(db, day, 10, filtersOf({ browser: 'Chrome' }));
    expect(rollups).toMatchObject({ visits: 1, pageviews: 13, totalEvents: 25, bounceRate: 0 });
    expect(fromVisits.entryPages).toEqual(rollups.entryPages);
    expect(fromVisits.exitPages).toEqual(rollups.exitPages);
    expect(fromVisits.visitDuration).toBe(rollups.visitDuration);
  });
});

const text = fc.constantFrom('/', '/a', '/b', 'x', '', '\ud800');
const orNull = fc.option(text, { nil: null });
const visit = fc.record<VisitRow>({
  id: fc.constant('v'),
  day: fc.constantFrom('2026-11-27', '2026-11-28'),
  visitor_hash: fc.constant('h'),
  started_at: fc.integer({ min: 0, max: 1000 }),
  last_at: fc.integer({ min: 1000, max: 5000 }),
  new_visitor: fc.integer({ min: 0, max: 1 }),
  entry_page: text,
  exit_page: text,
  pageviews: fc.nat(5),
  events: fc.nat(9),
  interactions: fc.nat(5),
  engagement_ms: fc.nat(9000),
  conversions: fc.nat(2),
  source: orNull,
  referrer_host: orNull,
  utm_source: orNull,
  utm_medium: orNull,
  utm_campaign: orNull,
  country: orNull,
  device: orNull,
  browser: orNull,
  os: orNull,
  sample: fc.nat(9999),
});

/** What a batch's changes move, written the plain way: every old visit taken away, every new one added. */
function plainDeltas(changes: { before: VisitRow | null; after: VisitRow }[]): Map<string, VisitMetrics> {
  const sums = new Map<string, VisitMetrics>();
  const add = (v: VisitRow, sign: number) => {
    for (const [dimension, nameOf] of Object.entries(VISIT_DIMENSIONS)) {
      const value = (nameOf as (v: VisitRow) => string | null)(v);
      if (value === null) continue;
      const key = `${dimension}\u0000${v.day}\u0000${value.toWellFormed()}`;
      const sum = sums.get(key) ?? (Object.fromEntries(VISIT_METRICS.map((m) => [m, 0])) as VisitMetrics);
      for (const metric of VISIT_METRICS) sum[metric] += sign * visitMetrics(v)[metric];
      sums.set(key, sum);
    }
  };
  for (const { before, after } of changes) {
    if (before) add(before, -1);
    add(after, 1);
  }
  return sums;
}

describe('visit rollup deltas', () => {
  it('move each dimension value as taking every visit before away and adding it after would', () => {
    // A stored visit extended (its exit page and metrics move, its entry page, source and device stay),
    // a new one, or any two rows.
    const change = fc.oneof(
      fc.tuple(visit, visit).map(([before, later]) => ({
        before,
        after: { ...later, entry_page: before.entry_page, source: before.source, device: before.device },
      })),
      visit.map((after) => ({ before: null, after })),
      fc.record({ before: visit, after: visit }),
    );
    fc.assert(
      fc.property(fc.array(change, { maxLength: 6 }), (changes) => {
        const computed = new Map(
          visitRollupDeltas(changes)
            .sorted()
            .map((r) => [`${r.dimension}\u0000${r.period}\u0000${r.value}`, r.sum]),
        );
        const plain = plainDeltas(changes);
        expect([...computed.keys()].sort()).toEqual([...plain.keys()].sort());
        for (const [key, sum] of plain) expect(computed.get(key)).toEqual(sum);
      }),
    );
  });
});
