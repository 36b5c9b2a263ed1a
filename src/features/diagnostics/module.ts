import { LIGHTHOUSE_DEFAULTS } from '../../integrations/pagespeed/lighthouse-engine.ts';
import { PSI_DEFAULTS } from '../../integrations/pagespeed/psi-client.ts';
import type { FeatureModule } from '../contract.ts';
import { diagnosticsQueueDefinition } from './queue.ts';
import { diagnosticsRoutes } from './routes.ts';

/** Page-speed diagnostics: analyses run from a queue (one per URL and strategy), answers cached. */
export const diagnosticsModule: FeatureModule = {
  name: 'diagnostics',
  build(infra) {
    const engine = infra.pagespeed;
    return {
      routes: diagnosticsRoutes(),
      // Without an engine the routes answer 503 and nothing runs analyses.
      queues: engine
        ? [
            diagnosticsQueueDefinition({
              engine,
              cache: infra.cache,
              logger: infra.logger.child({ component: 'diagnostics' }),
              timeoutMs:
                engine.name === 'lighthouse' ? LIGHTHOUSE_DEFAULTS.timeoutMs : PSI_DEFAULTS.totalTimeoutMs,
            }),
          ]
        : [],
    };
  },
};
