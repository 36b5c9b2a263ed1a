import { NO_STORE } from '../../http/paths.ts';
import type { FeatureModule } from '../contract.ts';
import { adminRoutes } from './routes.ts';
import { ADMIN_SECURITY_HEADERS } from './static.ts';

const SECURITY_HEADERS = Object.fromEntries(
  Object.entries(ADMIN_SECURITY_HEADERS).map(([name, value]) => [name.toLowerCase(), value]),
);

/** The back office: the dashboard and its API over every feature's records. */
export const adminModule: FeatureModule = {
  name: 'admin',
  // On every /admin answer, whichever feature's route gives it (the privacy tools, a ticket's file),
  // errors and the 401 before any route included; a route's own header of the same name wins.
  paths: [
    { path: '/admin', headers: SECURITY_HEADERS },
    { prefix: '/admin/', headers: SECURITY_HEADERS },
    { prefix: '/admin/api/', headers: { ...SECURITY_HEADERS, ...NO_STORE } },
  ],
  build: () => ({ routes: adminRoutes() }),
};
