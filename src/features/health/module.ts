import type { FeatureModule } from '../contract.ts';
import { healthRoutes } from './routes.ts';

/** The service's name and version (`/`) and its liveness (`/health`) and readiness (`/ready`) checks. */
export const healthModule: FeatureModule = {
  name: 'health',
  build: () => ({ routes: healthRoutes() }),
};
