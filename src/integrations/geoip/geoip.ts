import { accessSync, constants, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import ipaddr from 'ipaddr.js';
import { type CountryResponse, Reader } from 'maxmind';
import { PRINTED_IPV4 } from '../../text/ipv4.ts';

/** IP address → ISO 3166-1 alpha-2 country code, answered locally (no network). */
export interface GeoIp {
  /** The country of a public IP, or null (private, reserved, unknown or malformed address). */
  country(ip: string): string | null;
  readonly source: string;
}

/**
 * The database shipped as an npm package: geo-whois-asn-country (CC0, IPv4 and IPv6, ~8 MB), from
 * the public WHOIS and ASN registries. Coarser than a commercial database, but offline and free.
 */
export function bundledMmdbPath(): string {
  return createRequire(import.meta.url).resolve(
    '@ip-location-db/geo-whois-asn-country-mmdb/geo-whois-asn-country.mmdb',
  );
}

/** Record shapes: ip-location-db writes `country_code`; MaxMind GeoLite2/GeoIP2 `country.iso_code`. */
type CountryRecord = CountryResponse & { country_code?: string };

const COUNTRY = /^[A-Z]{2}$/;

/** Reads a MaxMind-format (.mmdb) database into memory once; each lookup is a few microseconds. */
export class MmdbGeoIp implements GeoIp {
  readonly source: string;
  readonly #reader: Reader<CountryResponse>;

  constructor(path: string) {
    this.#reader = new Reader<CountryResponse>(readFileSync(path));
    this.source = `mmdb (${this.#reader.metadata.databaseType}, ${new Date(this.#reader.metadata.buildEpoch)
      .toISOString()
      .slice(0, 10)})`;
  }

  country(ip: string): string | null {
    // process() turns an IPv4-mapped IPv6 address into IPv4. Registry data also covers private and
    // reserved ranges (as the registrant's country): only a public unicast address locates a visitor.
    let address: ipaddr.IPv4 | ipaddr.IPv6;
    let printed = ip;
    if (PRINTED_IPV4.test(ip)) {
      // The usual case (normalizeIp's output): ipaddr's parser tries IPv6 and IPv4 notations first.
      address = new ipaddr.IPv4(ip.split('.').map(Number));
    } else {
      try {
        address = ipaddr.process(ip);
      } catch {
        return null;
      }
      printed = address.toString();
    }
    if (address.range() !== 'unicast') return null;
    let record: CountryRecord | null;
    try {
      record = this.#reader.get(printed) as CountryRecord | null;
    } catch {
      return null;
    }
    const code = (record?.country_code ?? record?.country?.iso_code)?.toUpperCase();
    return code && COUNTRY.test(code) ? code : null;
  }
}

/** The default when no database can be read: every country is unknown. */
export class NoGeoIp implements GeoIp {
  readonly source = 'none';
  country(): null {
    return null;
  }
}

/**
 * The configured database (or the bundled one), read on the first lookup: the 8 MB stay out of the
 * memory of an instance that never records an analytics event (one read of ~10 ms, once). The file
 * is checked at start-up, so a wrong GEOIP_DB_PATH is still reported then; if reading it fails later,
 * `onError` is told once and every country is unknown.
 */
export function openGeoIp(path: string | undefined, onError: (error: unknown) => void): GeoIp {
  const file = path ?? bundledMmdbPath();
  try {
    accessSync(file, constants.R_OK);
  } catch (error) {
    onError(error);
    return new NoGeoIp();
  }
  let opened: GeoIp | null = null;
  const open = (): GeoIp => {
    if (opened) return opened;
    try {
      opened = new MmdbGeoIp(file);
    } catch (error) {
      onError(error);
      opened = new NoGeoIp();
    }
    return opened;
  };
  return {
    country: (ip) => open().country(ip),
    get source() {
      return opened?.source ?? `mmdb (${file}, read on first lookup)`;
    },
  };
}
