import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { Infrastructure } from '../infrastructure.ts';

/**
 * What every handler reads from `c.env`: the shared infrastructure and the request's id and logger,
 * put there by the edge (`http/edge.ts`) before Hono sees the request; on the real server also Node's
 * request and response (the adapter's documented bindings, used for the socket address and streamed
 * bodies).
 */
export interface RequestEnv {
  readonly deps: Infrastructure;
  readonly requestId: string;
  /** The request's path, worked out once by the edge (Hono's router reads it too, see app.ts). */
  readonly path: string;
  /** A child of the service logger carrying `requestId`, made on first use. */
  readonly logger: Logger;
  readonly incoming?: IncomingMessage;
  readonly outgoing?: ServerResponse;
}

/** The typed Hono environment every sub-app shares. */
export interface AppEnv {
  Bindings: RequestEnv;
}
