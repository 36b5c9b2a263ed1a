import type { Logger } from 'pino';
import type { Dependencies } from '../dependencies.ts';

/** The typed Hono environment every sub-app shares: handlers read dependencies from `c.var`. */
export interface AppEnv {
  Variables: {
    requestId: string;
    deps: Dependencies;
    logger: Logger;
  };
}
