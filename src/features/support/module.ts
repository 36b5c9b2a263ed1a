import { conversionRecorder } from '../analytics/port.ts';
import type { FeatureModule } from '../contract.ts';
import { supportPersonalData } from './personal-data.ts';
import { supportRoutes, TICKETS_PATH } from './routes.ts';
import { SUPPORT_CRM_SOURCE, supportCrmSource } from './send.ts';
import { ticketFileRoutes } from './ticket-files.ts';

/** Support: contact requests (synced to the CRM) and tickets with attachments. */
export const supportModule: FeatureModule = {
  name: 'support',
  // The ticket upload reads its own multipart body, with its own limits.
  paths: [{ path: TICKETS_PATH, readsOwnBody: true }],
  build: (infra) => ({
    routes: supportRoutes(conversionRecorder(infra)).route('/', ticketFileRoutes()),
    crmRecords: { [SUPPORT_CRM_SOURCE]: supportCrmSource },
    personalData: [supportPersonalData(infra.config)],
  }),
};
