import { NO_STORE } from '../../http/paths.ts';
import { conversionRecorder } from '../analytics/port.ts';
import type { FeatureModule } from '../contract.ts';
import { contactPersonalData } from './personal-data.ts';
import { contactRoutes } from './routes.ts';

/** The contact form. */
export const contactModule: FeatureModule = {
  name: 'contact',
  // The list holds people's messages: never kept by a cache.
  paths: [{ path: '/api/contact', headers: NO_STORE }],
  build: (infra) => ({
    routes: contactRoutes(conversionRecorder(infra)),
    personalData: [contactPersonalData(infra.config)],
  }),
};
