import type { FeatureModule } from '../contract.ts';
import { adminRoutes } from './routes.ts';

/** The back office: the dashboard and its API over every feature's records. */
export const adminModule: FeatureModule = {
  name: 'admin',
  build: () => ({ routes: adminRoutes() }),
};
