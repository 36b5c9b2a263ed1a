import { adminModule } from './admin/module.ts';
import { aiModule } from './ai/module.ts';
import { analyticsModule } from './analytics/module.ts';
import { chatModule } from './chat/module.ts';
import { contactModule } from './contact/module.ts';
import type { FeatureModule } from './contract.ts';
import { diagnosticsModule } from './diagnostics/module.ts';
import { docsModule } from './docs/module.ts';
import { healthModule } from './health/module.ts';
import { leadsModule } from './leads/module.ts';
import { metricsModule } from './metrics/module.ts';
import { postsModule } from './posts/module.ts';
import { privacyModule } from './privacy/module.ts';
import { prototypesModule } from './prototypes/module.ts';
import { seoModule } from './seo/module.ts';
import { supportModule } from './support/module.ts';

/**
 * Every feature of the service, in the order their routes are mounted. Adding a feature is one line
 * here (and its folder with a `module.ts`); see docs/architecture.md.
 */
export const FEATURES: readonly FeatureModule[] = [
  healthModule,
  docsModule,
  chatModule,
  leadsModule,
  prototypesModule,
  metricsModule,
  postsModule,
  seoModule,
  diagnosticsModule,
  contactModule,
  analyticsModule,
  aiModule,
  supportModule,
  privacyModule,
  adminModule,
];
