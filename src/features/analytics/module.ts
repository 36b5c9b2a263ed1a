import type { FeatureModule } from '../contract.ts';
import { registerInboxGauges } from './inbox-metrics.ts';
import { AnalyticsRecorder } from './recorder.ts';
import { analyticsRoutes, TRACK_PATH, TRACK_RESPONSE_HEADERS } from './routes.ts';
import { pruneAnalyticsDays } from './store.ts';
import { utcDay } from './track.ts';

/** First-party analytics: the beacon endpoint (group-committed), the events and their statistics. */
export const analyticsModule: FeatureModule = {
  name: 'analytics',
  paths: [
    // The beacon reads its own body (several content types, its own size limit) and allows credentials.
    { path: TRACK_PATH, readsOwnBody: true, headers: TRACK_RESPONSE_HEADERS },
  ],
  build(infra) {
    registerInboxGauges(infra.metrics.registry, infra.db);
    const recorder = new AnalyticsRecorder(infra.db, infra.logger.child({ component: 'analytics' }), {
      rateLimiter: infra.rateLimiter,
      perMinute: infra.config.analytics.trackRateLimitPerMinute,
      maxInboxEvents: infra.config.analytics.maxInboxEvents,
    });
    return {
      routes: analyticsRoutes(recorder),
      housekeeping: [
        { name: 'analytics_salts', run: () => pruneAnalyticsDays(infra.db, utcDay(Date.now())) },
        // Events an instance committed to the inbox and did not live to fold (each fold takes all).
        { name: 'analytics_inbox', run: () => recorder.fold() },
      ],
      flush: () => recorder.flush(),
    };
  },
};
