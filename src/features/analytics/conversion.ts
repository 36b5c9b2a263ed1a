import { z } from '@hono/zod-openapi';
import type { Logger } from 'pino';
import type { Db } from '../../db/database.ts';
import type { ClientOrigin } from '../../http/client-ip.ts';
import { isBotAgent } from './bots.ts';
import { AnalyticsRefusal } from './errors.ts';
import { backlogWhileFailing, foldPending } from './fold.ts';
import { type IngestDeps, ingestEvent } from './ingest.ts';
import { ANALYTICS_LIMITS as L } from './limits.ts';
import { appendToInbox } from './store.ts';
import type { TrackedEvent } from './tables.ts';
import { CONVERSION_TYPE, validateTrack } from './track.ts';
import { VisitorHasher } from './visitor-hash.ts';

const ContextObject = z.object({
  url: z.string().min(1).max(L.urlLength).openapi({
    description: 'The page the form was sent from (`location.href`; only its path and UTM tags are kept).',
    example: 'https://agency.example/contact?utm_campaign=spring',
  }),
  referrer: z.string().max(L.urlLength).nullish().openapi({
    description: 'The referrer the visit arrived with.',
    example: 'https://www.google.com/',
  }),
});

/**
 * The visit context a page with the tracker passes to its forms (`agencyAnalytics.context()`, or
 * the hidden field `analyticsContext` as JSON text). Nothing personal: a page and a referrer. A
 * malformed one (null, another type, a value too long) is read as none: the form is sent all the
 * same (a site passes null when a blocker kept the tracker away; a page's address can be long).
 */
const ContextInput = z.union([ContextObject, z.string().max(2 * L.urlLength + 64)]);
export const AnalyticsContext = z
  .preprocess((value) => (ContextInput.safeParse(value).success ? value : undefined), ContextInput.optional())
  .openapi({
    description:
      'Optional: the analytics visit context from the page (`agencyAnalytics.context()`, or the tracker’s hidden ' +
      'field `analyticsContext`, as an object or its JSON text). A genuine submission records a `lead` conversion on ' +
      'that visit; nothing from the form itself enters analytics. Any other value is accepted and ignored (no ' +
      'conversion): `null`, another type, a value over these limits.',
  });
export type AnalyticsContextInput = z.infer<typeof AnalyticsContext>;

function contextOf(input: AnalyticsContextInput): z.infer<typeof ContextObject> | null {
  if (input === undefined) return null;
  if (typeof input !== 'string') return input;
  try {
    const parsed = ContextObject.safeParse(JSON.parse(input));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Records the forms' conversions (built once by the module that owns the form). */
export interface ConversionRecorder {
  record(
    input: AnalyticsContextInput,
    client: { origin: ClientOrigin; userAgent: string },
    form: 'lead' | 'contact',
    logger: Logger,
  ): Promise<boolean>;
}

/**
 * Records a `lead` conversion for a form sent from a page carrying the tracker: an event of type
 * `lead` from the same client (IP and User-Agent give the same daily visitor hash), so it lands on
 * the visitor's open visit, or starts one from the context's page and referrer. A conversion is
 * rare, so it commits to the inbox in a transaction of its own rather than through the track route's
 * group commit, behind the page views already there, and a fold is started. Best effort:
 * the form has already succeeded, so a failure here is logged, never thrown. `record` answers
 * whether it was recorded.
 */
export function conversionRecorder(deps: IngestDeps & { db: Db }): ConversionRecorder {
  const hasher = new VisitorHasher(deps.db);
  const { maxInboxEvents } = deps.config.analytics;
  return {
    async record(input, client, form, logger) {
      const sink = {
        visitorHash: (day: string, ip: string | null, userAgent: string) => hasher.hash(day, ip, userAgent),
        record: async (event: TrackedEvent) => {
          await appendToInbox(deps.db, [event], 0);
          // Not awaited: the form's answer never waits for analytics (reads fold first anyway).
          void foldPending(deps.db, logger);
        },
      };
      const context = contextOf(input);
      if (context === null || isBotAgent(client.userAgent)) return false;
      // As the track route refuses events then (recorder.ts): the disk is the other features' too.
      if ((backlogWhileFailing(deps.db) ?? 0) >= maxInboxEvents) {
        logger.warn({ form }, 'analytics conversion not recorded: the inbox is full while folds fail');
        return false;
      }
      try {
        const event = validateTrack({ url: context.url, referrer: context.referrer ?? undefined });
        await ingestEvent(
          deps,
          sink,
          { ...event, type: CONVERSION_TYPE, properties: { form } },
          client.origin,
          client.userAgent,
          { conversion: true },
        );
        return true;
      } catch (error) {
        // A context whose page or referrer the track route would refuse (a `mailto:` page) is the
        // client's input, as a refused beacon is: not a warning.
        const level = error instanceof AnalyticsRefusal ? 'info' : 'warn';
        logger[level]({ err: error, form }, 'analytics conversion not recorded');
        return false;
      }
    },
  };
}
