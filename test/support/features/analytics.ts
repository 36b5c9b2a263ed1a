import type { TrackInput } from '../../../src/features/analytics/schemas.ts';
import type { TrackedEvent } from '../../../src/features/analytics/tables.ts';
import { buildEventRow, utcDay } from '../../../src/features/analytics/track.ts';

/**
 * An event of `visitor` on `page`, `minutes` after the start of today, as the track route builds it
 * (a desktop Chrome on Linux; a page view unless `fields` say otherwise).
 */
export function trackedEvent(
  visitor: string,
  page: string,
  minutes = 0,
  fields: Partial<TrackInput> = {},
): TrackedEvent {
  return buildEventRow(
    {
      type: 'page_view',
      page,
      url: undefined,
      referrer: null,
      title: null,
      properties: null,
      sessionId: null,
      ...fields,
    },
    {
      now: Date.parse(`${utcDay(Date.now())}T00:00:00Z`) + minutes * 60_000,
      country: null,
      visitorHash: visitor,
      siteHosts: ['agency.example'],
      client: { device: 'desktop', browser: 'Chrome', os: 'Linux' },
    },
  );
}
