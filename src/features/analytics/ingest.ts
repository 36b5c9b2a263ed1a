import type { Config } from '../../config.ts';
import type { ClientOrigin } from '../../http/client-ip.ts';
import type { GeoIp } from '../../integrations/geoip/geoip.ts';
import type { TrackInput } from './schemas.ts';
import type { TrackedEvent } from './tables.ts';
import { buildEventRow, utcDay } from './track.ts';
import { clientOf } from './user-agent.ts';

export interface IngestDeps {
  config: Config;
  geoip: GeoIp;
}

/** Where an event goes: the recorder (group commit), or a conversion's own transaction. */
export interface EventSink {
  visitorHash(day: string, ip: string | null, userAgent: string): Promise<string>;
  record(event: TrackedEvent): Promise<void>;
}

/**
 * Records one validated event of a (non-bot) client: its country (Cloudflare's header or the local
 * IP database), the visitor hash of the day, device, browser and OS from the User-Agent; resolves
 * once it is committed. Used by the track route and by the forms' conversions.
 */
export async function ingestEvent(
  deps: IngestDeps,
  sink: EventSink,
  input: TrackInput,
  origin: ClientOrigin,
  userAgent: string,
  options: { conversion?: boolean } = {},
): Promise<void> {
  const now = Date.now();
  const day = utcDay(now);
  const country = origin.country ?? (origin.ip ? deps.geoip.country(origin.ip) : null);
  const visitorHash = await sink.visitorHash(day, origin.ip, userAgent);
  const event = buildEventRow(input, {
    now,
    country,
    visitorHash,
    siteHosts: siteHosts(deps.config),
    client: clientOf(userAgent),
    conversion: options.conversion,
  });
  await sink.record(event);
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
