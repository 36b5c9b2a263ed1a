import type { FeatureModule } from '../contract.ts';
import { chatRoutes } from './routes.ts';

/** The chat: the sales agent's answers streamed over SSE, and the history. */
export const chatModule: FeatureModule = {
  name: 'chat',
  build: () => ({ routes: chatRoutes() }),
};
