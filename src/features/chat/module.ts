import type { FeatureModule } from '../contract.ts';
import { chatPersonalData } from './personal-data.ts';
import { chatRoutes } from './routes.ts';

/** The chat: the sales agent's answers streamed over SSE, and the history. */
export const chatModule: FeatureModule = {
  name: 'chat',
  build: (infra) => ({ routes: chatRoutes(), personalData: [chatPersonalData(infra.config)] }),
};
