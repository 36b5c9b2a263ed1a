import type { FeatureModule } from '../contract.ts';
import { contactPersonalData } from './personal-data.ts';
import { contactRoutes } from './routes.ts';

/** The contact form. */
export const contactModule: FeatureModule = {
  name: 'contact',
  build: (infra) => ({ routes: contactRoutes(), personalData: [contactPersonalData(infra.config)] }),
};
