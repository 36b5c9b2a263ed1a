import type { FeatureModule } from '../contract.ts';
import { postsRoutes } from './routes.ts';

/** The WordPress posts proxy with its shared cache. */
export const postsModule: FeatureModule = {
  name: 'posts',
  build: () => ({ routes: postsRoutes() }),
};
