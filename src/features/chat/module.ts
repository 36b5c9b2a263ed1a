import { NO_STORE } from '../../http/paths.ts';
import type { FeatureModule } from '../contract.ts';
import { chatPersonalData } from './personal-data.ts';
import { chatRoutes } from './routes.ts';

/** The chat: the sales agent's answers streamed over SSE, and the history. */
export const chatModule: FeatureModule = {
  name: 'chat',
  // A conversation is its visitor's: never kept by a cache.
  paths: [{ prefix: '/api/chat/', headers: NO_STORE }],
  build: (infra) => ({ routes: chatRoutes(), personalData: [chatPersonalData(infra.config)] }),
};
