import type { FeatureModule } from '../contract.ts';
import { AI_PREFIX, AI_RESPONSE_HEADERS, aiErrorEnvelope, aiRoutes } from './routes.ts';

/** The AI routes of ai-api.md: plan recommendation, message refinement, the search test. */
export const aiModule: FeatureModule = {
  name: 'ai',
  // ai-api.md: its own error envelope, and no-store on every response under the prefix.
  paths: [{ prefix: AI_PREFIX, errorEnvelope: aiErrorEnvelope, headers: AI_RESPONSE_HEADERS }],
  build: () => ({ routes: aiRoutes() }),
};
