import type { FeatureModule } from '../contract.ts';
import { seoRoutes } from './routes.ts';

/** The SEO check of a visitor's page. */
export const seoModule: FeatureModule = {
  name: 'seo',
  build: () => ({ routes: seoRoutes() }),
};
