import { afterEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase, testEngines } from '../../../test/support/database.ts';
import { type DatabaseHandle, openDatabase } from '../../db/database.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { monthKey, nextMonthStart, PrototypeQuota } from './quota.ts';

const engines = await testEngines();

describe('month arithmetic', () => {
  it('uses UTC months and the first day of the next one', () => {
    const lastSecond = Date.UTC(2026, 11, 31, 23, 59, 59);
    expect(monthKey(lastSecond)).toBe('2026-12');
    expect(new Date(nextMonthStart(lastSecond)).toISOString()).toBe('2027-01-01T00:00:00.000Z');
  });
});

describe.each(engines)('prototype quota on %s', (engine) => {
  let database: TestDatabase;
  const extra: DatabaseHandle[] = [];
  let now = Date.UTC(2026, 10, 21, 12, 0, 0);
  const clock = () => now;

  async function fresh(limit = 2) {
    now = Date.UTC(2026, 10, 21, 12, 0, 0);
    database = await createTestDatabase(engine);
    await migrateToLatest(database.handle.db);
    return new PrototypeQuota(database.handle.db, limit, clock);
  }
  afterEach(async () => {
    for (const handle of extra.splice(0)) await handle.close();
    await database?.dispose();
  });

  const visitor = { ip: '203.0.113.7', email: 'Ana@Example.com' };

  it('counts an IPv6 visitor by its /64: another address of it is the same bucket', async () => {
    const quota = await fresh(1);
    expect(
      (await quota.reserve('landing', { ip: '2001:db8:1:2::1', email: 'a@example.com' }, 'l1')).allowed,
    ).toBe(true);
    const sameNetwork = { ip: '2001:db8:1:2:ffff:ee:dd:cc', email: 'b@example.com' };
    expect((await quota.reserve('landing', sameNetwork, 'l2')).allowed).toBe(false);
    const otherNetwork = { ip: '2001:db8:1:3::1', email: 'c@example.com' };
    expect((await quota.reserve('landing', otherNetwork, 'l3')).allowed).toBe(true);
    expect(await quota.hashIp('2001:db8:1:2::1')).toBe(await quota.hashIp('2001:db8:1:2:abcd::5'));
  });

  it('reports zero usage, the limit and the reset date of a new visitor', async () => {
    const quota = await fresh();
    expect(await quota.usage(visitor)).toEqual({
      landing: { used: 0, limit: 2, remaining: 2 },
      application: { used: 0, limit: 2, remaining: 2 },
      inProgress: false,
      inProgressType: null,
      resetDate: '2026-12-01',
    });
  });

  it('counts per kind and per bucket, and refuses once either bucket is full', async () => {
    const quota = await fresh();
    expect((await quota.reserve('landing', visitor, 'lead-1')).allowed).toBe(true);
    expect((await quota.reserve('landing', visitor, 'lead-2')).allowed).toBe(true);
    const refused = await quota.reserve('landing', visitor, 'lead-3');
    expect(refused).toMatchObject({ allowed: false, resetDate: '2026-12-01' });
    expect(refused.retryAfterSeconds).toBe((Date.UTC(2026, 11, 1) - now) / 1000);
    // Same e-mail from another IP: the e-mail bucket is full.
    expect(
      (await quota.reserve('landing', { ip: '198.51.100.1', email: 'ana@example.com' }, 'lead-4')).allowed,
    ).toBe(false);
    // Same IP with another e-mail: the IP bucket is full.
    expect(
      (await quota.reserve('landing', { ip: visitor.ip, email: 'bo@example.com' }, 'lead-5')).allowed,
    ).toBe(false);
    // The other kind is separate.
    expect((await quota.reserve('application', visitor, 'lead-6')).allowed).toBe(true);
    const usage = await quota.usage(visitor);
    expect(usage.landing).toEqual({ used: 2, limit: 2, remaining: 0 });
    expect(usage.application).toEqual({ used: 1, limit: 2, remaining: 1 });
    // A refused reservation took nothing from any bucket (all or none).
    expect((await quota.usage({ ip: '198.51.100.1', email: 'someone@example.com' })).landing.used).toBe(0);
    expect((await quota.usage({ ip: null, email: 'bo@example.com' })).landing.used).toBe(0);
  });

  it('is idempotent per lead and gives the slot back on release', async () => {
    const quota = await fresh(1);
    expect((await quota.reserve('landing', visitor, 'lead-1')).allowed).toBe(true);
    expect((await quota.reserve('landing', visitor, 'lead-1')).allowed).toBe(true);
    expect((await quota.usage(visitor)).landing.used).toBe(1);
    expect((await quota.reserve('landing', visitor, 'lead-2')).allowed).toBe(false);
    await quota.release('lead-1');
    await quota.release('lead-1');
    expect((await quota.usage(visitor)).landing.used).toBe(0);
    expect((await quota.reserve('landing', visitor, 'lead-2')).allowed).toBe(true);
  });

  it('tracks in-progress generation; complete keeps the slot used', async () => {
    const quota = await fresh();
    await quota.reserve('application', visitor, 'lead-1');
    await quota.markInProgress('lead-1');
    expect(await quota.usage({ ip: null, email: ' ANA@example.com ' })).toMatchObject({
      inProgress: true,
      inProgressType: 'application',
    });
    await quota.complete('lead-1');
    const usage = await quota.usage(visitor);
    expect(usage).toMatchObject({ inProgress: false, inProgressType: null });
    expect(usage.application.used).toBe(1);
  });

  it('starts over in a new UTC month', async () => {
    const quota = await fresh(1);
    await quota.reserve('landing', visitor, 'lead-1');
    now = Date.UTC(2026, 11, 1, 0, 0, 1);
    expect((await quota.usage(visitor)).landing.used).toBe(0);
    expect((await quota.reserve('landing', visitor, 'lead-2')).allowed).toBe(true);
    expect((await quota.usage(visitor)).resetDate).toBe('2027-01-01');
  });

  it('stores bucket keys hashed, never the raw IP or e-mail', async () => {
    const quota = await fresh();
    await quota.reserve('landing', visitor, 'lead-1');
    const rows = await database.handle.db.selectFrom('prototype_quota_holds').select('bucket').execute();
    const counters = await database.handle.db
      .selectFrom('prototype_quota_counters')
      .select('bucket')
      .execute();
    for (const { bucket } of [...rows, ...counters]) {
      expect(bucket).not.toContain('203.0.113.7');
      expect(bucket.toLowerCase()).not.toContain('ana@example.com');
    }
    const hash = await quota.hashIp(visitor.ip);
    expect(hash).toMatch(/^iph_[0-9a-f]{40}$/);
    // A stored hash is accepted as the IP bucket (the prototypes feature passes lead.clientIpHash).
    expect(await quota.hashIp(hash)).toBe(hash);
    expect((await quota.usage({ ip: hash, email: 'other@example.com' })).landing.used).toBe(1);
  });

  it('lets exactly one of many parallel reservations take the last slot, across instances', async () => {
    const quota = await fresh(2);
    await quota.reserve('landing', visitor, 'lead-0');
    // A second "instance": its own connection pool on PostgreSQL (SQLite: the same file handle).
    let other = quota;
    if (engine === 'postgres') {
      const handle = openDatabase(database.url, { poolSize: 5 });
      extra.push(handle);
      other = new PrototypeQuota(handle.db, 2, clock);
    }
    const attempts = Array.from({ length: 12 }, (_, i) =>
      (i % 2 === 0 ? quota : other).reserve(
        'landing',
        { ip: `198.51.100.${i}`, email: visitor.email },
        `lead-${i + 1}`,
      ),
    );
    const results = await Promise.all(attempts);
    expect(results.filter((r) => r.allowed)).toHaveLength(1);
    expect((await quota.usage(visitor)).landing).toEqual({ used: 2, limit: 2, remaining: 0 });
    // The losers took nothing from their IP buckets.
    const ipUsed = await Promise.all(
      Array.from({ length: 12 }, (_, i) => quota.usage({ ip: `198.51.100.${i}`, email: 'x@example.com' })),
    );
    expect(ipUsed.reduce((sum, u) => sum + u.landing.used, 0)).toBe(1);
  });

  it('a limit of 0 refuses every reservation', async () => {
    const quota = await fresh(0);
    expect((await quota.reserve('landing', visitor, 'lead-1')).allowed).toBe(false);
    expect((await quota.usage(visitor)).landing).toEqual({ used: 0, limit: 0, remaining: 0 });
  });
});
