import { afterEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase, testEngines } from '../../../test/support/database.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { bundledMmdbPath, MmdbGeoIp } from '../../integrations/geoip/geoip.ts';
import { ANALYTICS_LIMITS as L } from './limits.ts';
import { listEvents } from './rollup-reads.ts';
import { readAnalyticsStats, resolveRange } from './stats.ts';
import { daySalt, pruneAnalyticsDays, writeBatch } from './store.ts';
import { type AnalyticsEventRow, trackedRow } from './tables.ts';

const engines = await testEngines();

const writeRows = (db: Parameters<typeof writeBatch>[0], rows: AnalyticsEventRow[], bots: number) =>
  writeBatch(db, rows.map(trackedRow), bots);

let seq = 0;
function event(day: string, fields: Partial<AnalyticsEventRow> = {}): AnalyticsEventRow {
  return {
    id: `evt-${++seq}`,
    type: 'page_view',
    page: '/',
    referrer: null,
    referrer_host: null,
    title: null,
    properties: null,
    session_id: null,
    country: null,
    visitor_hash: 'v1',
    day,
    created_at: Date.parse(`${day}T12:00:00Z`),
    visit_id: null,
    source: null,
    utm_source: null,
    utm_medium: null,
    utm_campaign: null,
    device: null,
    browser: null,
    os: null,
    ...fields,
  };
}

describe.each(engines)('analytics storage on %s', (engine) => {
  let database: TestDatabase;
  async function fresh() {
    database = await createTestDatabase(engine);
    await migrateToLatest(database.handle.db);
    return database.handle.db;
  }
  afterEach(() => database?.dispose());

  it('stores every column of every event of a batch as given', async () => {
    const db = await fresh();
    const full = event('2026-03-03', {
      type: 'signup',
      page: '/pricing',
      referrer: 'https://news.example/a',
      referrer_host: 'news.example',
      title: 'Pricing — «plans»',
      properties: '{"plan":"pro"}',
      session_id: 's-1',
      country: 'CO',
      visitor_hash: 'hash-1',
    });
    const batch = [
      full,
      ...Array.from({ length: 7 }, (_, i) =>
        event('2026-03-03', { page: `/p${i}`, created_at: full.created_at + i + 1 }),
      ),
    ];
    await writeRows(db, batch, 0);
    const { rows } = await listEvents(db, 1, 50);
    expect(rows).toHaveLength(batch.length);
    const stored = rows.find((r) => r.id === full.id);
    expect({ ...stored, created_at: Number(stored?.created_at) }).toEqual(full);
  });

  it('rollups match the events across days, and the range selects days inclusively', async () => {
    const db = await fresh();
    await writeRows(
      db,
      [
        event('2026-03-01', { page: '/a', country: 'DE', visitor_hash: 'x' }),
        event('2026-03-01', { page: '/a', country: 'DE', visitor_hash: 'x' }),
        event('2026-03-01', { page: '/b', type: 'signup', visitor_hash: 'y', referrer_host: 'google.com' }),
        event('2026-03-02', { page: '/a', visitor_hash: 'x' }),
      ],
      0,
    );
    // A second batch for the same day adds to the same rollup rows and knows visitor x already.
    await writeRows(
      db,
      [event('2026-03-02', { page: '/c', visitor_hash: 'x', referrer_host: 'google.com' })],
      2,
    );
    await writeRows(db, [event('2026-03-04', { page: '/a', visitor_hash: 'z', country: 'FR' })], 0);

    const all = await readAnalyticsStats(db, await resolveRange(db, undefined, '2026-03-04', Date.now()), 10);
    expect(all.range).toEqual({ from: '2026-03-01', to: '2026-03-04' });
    expect(all.totalEvents).toBe(6);
    expect(all.uniquePages).toBe(3);
    // Daily uniques: 03-01 {x, y}, 03-02 {x}, 03-04 {z}.
    expect(all.uniqueVisitors).toBe(4);
    expect(all.topPages).toEqual([
      { page: '/a', count: 4 },
      { page: '/b', count: 1 },
      { page: '/c', count: 1 },
    ]);
    expect(all.topCountries).toEqual([
      { country: null, count: 3 },
      { country: 'DE', count: 2 },
      { country: 'FR', count: 1 },
    ]);
    expect(all.eventTypes).toEqual([
      { type: 'page_view', count: 5 },
      { type: 'signup', count: 1 },
    ]);
    expect(all.topReferrers).toEqual([{ referrer: 'google.com', count: 2 }]);
    expect(all.timeseries).toEqual([
      { date: '2026-03-01', events: 3, visitors: 2, visits: 2 },
      { date: '2026-03-02', events: 2, visitors: 1, visits: 1 },
      { date: '2026-03-03', events: 0, visitors: 0, visits: 0 },
      { date: '2026-03-04', events: 1, visitors: 1, visits: 1 },
    ]);
    expect(all.botsDropped).toBe(2);

    const second = await readAnalyticsStats(db, { from: '2026-03-02', to: '2026-03-03' }, 1);
    expect(second.totalEvents).toBe(2);
    expect(second.uniquePages).toBe(2);
    expect(second.topPages).toEqual([{ page: '/a', count: 1 }]);
  });

  it('a failing batch stores nothing at all', async () => {
    const db = await fresh();
    await writeRows(db, [event('2026-03-01', { id: 'dup' })], 0);
    await expect(
      writeRows(db, [event('2026-03-01', { id: 'new' }), event('2026-03-01', { id: 'dup' })], 5),
    ).rejects.toThrow();
    const stats = await readAnalyticsStats(db, { from: '2026-03-01', to: '2026-03-01' }, 10);
    expect(stats.totalEvents).toBe(1);
    expect(stats.botsDropped).toBe(0);
    const rows = await db.selectFrom('analytics_events').select('id').execute();
    expect(rows.map((r) => r.id)).toEqual(['dup']);
  });

  it('one salt per day for every instance; the next day deletes old salts, the day after the visitor rows', async () => {
    const db = await fresh();
    const a = await daySalt(db, '2026-03-01', 'salt-a', 1);
    const b = await daySalt(db, '2026-03-01', 'salt-b', 2);
    expect(a).toBe('salt-a');
    expect(b).toBe('salt-a');
    await writeRows(db, [event('2026-03-01', { visitor_hash: 'x' })], 0);
    expect(await daySalt(db, '2026-03-02', 'salt-c', 3)).toBe('salt-c');
    expect(await db.selectFrom('analytics_salts').select('day').execute()).toEqual([{ day: '2026-03-02' }]);
    // An instance a little behind records yesterday's visitor again: still one visitor that day.
    await writeRows(db, [event('2026-03-01', { visitor_hash: 'x' })], 0);
    const range = await resolveRange(db, '2026-03-01', '2026-03-01', Date.parse('2026-03-02'));
    expect((await readAnalyticsStats(db, range, 10)).uniqueVisitors).toBe(1);
    expect(await pruneAnalyticsDays(db, '2026-03-03')).toBe(2);
    expect(await db.selectFrom('analytics_visitors').selectAll().execute()).toEqual([]);
    expect(await db.selectFrom('analytics_salts').selectAll().execute()).toEqual([]);
  });

  it('types with lone surrogates (stored as U+FFFD by both engines) go into one rollup row, not a failed batch', async () => {
    const db = await fresh();
    // JSON can carry "\ud800"; with another visitor's event in the same batch, PostgreSQL refused the
    // upsert of two rollup rows that only the database sees as one, losing every event of the batch.
    await writeRows(
      db,
      ['\ud800', '\udbff', '\ufffd', 'page_view'].map((type) => event('2026-03-01', { type })),
      0,
    );
    const range = await resolveRange(db, '2026-03-01', '2026-03-01', Date.parse('2026-03-02'));
    const stats = await readAnalyticsStats(db, range, 10);
    expect(stats.totalEvents).toBe(4);
    expect(stats.eventTypes).toEqual([
      { type: '\ufffd', count: 3 },
      { type: 'page_view', count: 1 },
    ]);
  });

  it('the default range starts at the first day with data, but never spans more than the limit', async () => {
    const db = await fresh();
    const now = Date.parse('2026-03-10T12:00:00Z');
    expect(await resolveRange(db, undefined, undefined, now)).toEqual({
      from: '2026-03-10',
      to: '2026-03-10',
    });
    await writeRows(db, [event('2026-03-01')], 0);
    expect(await resolveRange(db, undefined, undefined, now)).toEqual({
      from: '2026-03-01',
      to: '2026-03-10',
    });
    expect(await resolveRange(db, undefined, '2026-02-01', now)).toEqual({
      from: '2026-02-01',
      to: '2026-02-01',
    });
    // Data older than the limit (years of it, or a day written under a wrong clock): a request
    // without parameters answered 400 "The range may span at most 3660 days".
    await writeRows(db, [event('1970-01-01')], 0);
    const range = await resolveRange(db, undefined, undefined, now);
    expect(range.to).toBe('2026-03-10');
    expect((Date.parse(range.to) - Date.parse(range.from)) / 86_400_000 + 1).toBe(L.stats.maxRangeDays);
    const stats = await readAnalyticsStats(db, range, 10);
    expect(stats.timeseries).toHaveLength(L.stats.maxRangeDays);
    expect(stats.totalEvents).toBe(1);
    // An explicit range past the limit is still the caller's error.
    await expect(resolveRange(db, '1970-01-01', undefined, now)).rejects.toThrow(/at most/);
  });

  it('ties in the top lists sort by code point on both engines', async () => {
    const db = await fresh();
    await writeRows(
      db,
      ['/b', '/Pricing', '/a', '/é'].map((page) => event('2026-03-01', { page })),
      0,
    );
    const range = await resolveRange(db, '2026-03-01', '2026-03-01', Date.parse('2026-03-02'));
    const stats = await readAnalyticsStats(db, range, 10);
    expect(stats.topPages.map((p) => p.page)).toEqual(['/Pricing', '/a', '/b', '/é']);
  });
});

describe('offline GeoIP', () => {
  const geo = new MmdbGeoIp(bundledMmdbPath());
  it('answers countries for public IPv4/IPv6 and null for private, reserved or malformed', () => {
    expect(geo.country('8.8.8.8')).toBe('US');
    expect(geo.country('81.2.69.142')).toBe('GB');
    expect(geo.country('::ffff:8.8.8.8')).toBe('US');
    expect(geo.country('2a00:1450:4001::1')).toMatch(/^[A-Z]{2}$/);
    for (const ip of ['10.1.2.3', '192.168.0.1', '127.0.0.1', '::1', '100.64.0.1', 'nope', '']) {
      expect(geo.country(ip)).toBeNull();
    }
  });
});
