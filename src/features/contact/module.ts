import { conversionRecorder } from '../analytics/port.ts';
import type { FeatureModule } from '../contract.ts';
import { contactPersonalData } from './personal-data.ts';
import { contactRoutes } from './routes.ts';

/** The contact form. */
export const contactModule: FeatureModule = {
  name: 'contact',
  build: (infra) => ({
    routes: contactRoutes(conversionRecorder(infra)),
    personalData: [contactPersonalData(infra.config)],
  }),
};
