import { NO_STORE } from '../../http/paths.ts';
import { conversionRecorder } from '../analytics/port.ts';
import type { FeatureModule } from '../contract.ts';
import { prototypePorts } from '../prototypes/port.ts';
import { LEAD_CRM_SOURCE, leadCrmSource } from './crm-sync.ts';
import { leadPersonalData } from './personal-data.ts';
import { prototypeQuota } from './port.ts';
import { leadRoutes } from './routes.ts';

/** Leads from the wizard and the chat: stored, classified, confirmed by e-mail, synced to the CRM. */
export const leadsModule: FeatureModule = {
  name: 'leads',
  // A lead's answers hold its person's data: never kept by a cache.
  paths: [
    { path: '/api/leads', headers: NO_STORE },
    { prefix: '/api/leads/', headers: NO_STORE },
  ],
  build: (infra) => ({
    routes: leadRoutes({
      quota: prototypeQuota(infra),
      prototypes: prototypePorts(infra),
      conversions: conversionRecorder(infra),
    }),
    crmRecords: { [LEAD_CRM_SOURCE]: leadCrmSource },
    personalData: [leadPersonalData(infra.config)],
  }),
};
