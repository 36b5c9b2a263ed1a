import type { FeatureModule } from '../contract.ts';
import { contactRoutes } from './routes.ts';

/** The contact form. */
export const contactModule: FeatureModule = {
  name: 'contact',
  build: () => ({ routes: contactRoutes() }),
};
