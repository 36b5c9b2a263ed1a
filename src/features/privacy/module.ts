import { outboxPersonalData } from '../../integrations/mail/personal-data.ts';
import { jobPersonalData } from '../../queue/personal-data.ts';
import type { FeatureModule } from '../contract.ts';
import { crmErasureQueueDefinition } from './crm-erasure.ts';
import { sweepExpired, sweepOrphanBlobs } from './retention.ts';
import { privacyRoutes } from './routes.ts';

/**
 * Personal data (docs/privacy.md): export and erasure per person over every feature's
 * `personalData` parts, the retention sweep, the orphan-blob sweep, the CRM erasure queue. It
 * brings the parts of the shared tables (the mail outbox, the job queue) itself.
 */
export const privacyModule: FeatureModule = {
  name: 'privacy',
  build: (infra) => {
    // Read when they run: the registry is filled once every feature is built.
    const parts = () => infra.personalData.parts;
    return {
      routes: privacyRoutes(),
      queues: [crmErasureQueueDefinition(infra)],
      personalData: [outboxPersonalData(infra.config.privacy.retentionDays.mail), jobPersonalData],
      housekeeping: [
        { name: 'personal_data_retention', run: () => sweepExpired(infra.db, parts()) },
        { name: 'orphan_blobs', run: () => sweepOrphanBlobs(infra.db, parts()) },
      ],
    };
  },
};
