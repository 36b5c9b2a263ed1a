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
