import type { FeatureModule } from '../contract.ts';
import { docsRoutes } from './routes.ts';

/** The OpenAPI document's viewer (`/docs`). */
export const docsModule: FeatureModule = {
  name: 'docs',
  build: () => ({ routes: docsRoutes() }),
};
