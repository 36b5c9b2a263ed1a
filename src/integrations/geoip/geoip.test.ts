import { describe, expect, it } from 'vitest';
import { bundledMmdbPath, openGeoIp } from './geoip.ts';

describe('openGeoIp', () => {
  it('checks the file at start-up but reads it on the first lookup', () => {
    const errors: unknown[] = [];
    const geo = openGeoIp(undefined, (error) => errors.push(error));
    expect(geo.source).toContain('read on first lookup');
    expect(geo.country('8.8.8.8')).toBe('US');
    expect(geo.source).toMatch(/^mmdb \(/);
    expect(geo.country('10.0.0.1')).toBeNull();
    expect(errors).toEqual([]);
  });

  it('reports an unreadable GEOIP_DB_PATH at once and answers unknown countries', () => {
    const errors: unknown[] = [];
    const geo = openGeoIp('/nonexistent/geo.mmdb', (error) => errors.push(error));
    expect(errors).toHaveLength(1);
    expect(geo.country('8.8.8.8')).toBeNull();
  });

  it('reports a readable file that is not a database once, on the first lookup', () => {
    const errors: unknown[] = [];
    const geo = openGeoIp(new URL(import.meta.url).pathname, (error) => errors.push(error));
    expect(errors).toEqual([]);
    expect(geo.country('8.8.8.8')).toBeNull();
    expect(geo.country('1.1.1.1')).toBeNull();
    expect(errors).toHaveLength(1);
    expect(bundledMmdbPath()).toMatch(/\.mmdb$/);
  });
});

describe('MmdbGeoIp: the dotted-quad shortcut answers what the full parse answers', () => {
  it('agrees on public, private, reserved and IPv4-mapped addresses', () => {
    const geo = openGeoIp(undefined, () => {});
    const cases: [string, string | null][] = [
      ['8.8.8.8', 'US'],
      ['::ffff:8.8.8.8', 'US'],
      ['127.0.0.1', null],
      ['10.1.2.3', null],
      ['192.168.0.10', null],
      ['169.254.169.254', null],
      ['0.0.0.0', null],
      ['255.255.255.255', null],
      ['not an ip', null],
    ];
    for (const [ip, country] of cases) expect(geo.country(ip), ip).toBe(country);
    // Addresses taking the shortcut and their mapped forms (full parse) always agree.
    for (const ip of ['1.1.1.1', '81.2.69.142', '200.1.2.3', '100.64.0.1', '224.0.0.1', '41.0.0.1']) {
      expect(geo.country(ip), ip).toBe(geo.country(`::ffff:${ip}`));
    }
  });
});
