import type { FeatureModule } from '../contract.ts';
import { metricsRoutes } from './routes.ts';

/** Prometheus metrics (`/metrics`). */
export const metricsModule: FeatureModule = {
  name: 'metrics',
  build: () => ({ routes: metricsRoutes() }),
};
