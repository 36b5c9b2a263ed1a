import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { type App, createApp } from './app.ts';
import type { Dependencies } from './dependencies.ts';
import { answerClientError, ResponsesInFlight } from './http/client-error.ts';
import { EdgeServerResponse } from './http/edge-response.ts';

export const SERVER_TIMEOUTS = {
  /** Longest time a request's headers may take to arrive. */
  headersMs: 15_000,
  /** The whole request's bound is the upload bound plus this (and never under `minRequestMs`). */
  pastUploadMs: 5_000,
  minRequestMs: 60_000,
  checkIntervalMs: 2_000,
} as const;

/** Node's bound on the arrival of a whole request (headers and body), for every route. */
export function requestTimeoutMs(uploadTimeoutMs: number): number {
  return Math.max(SERVER_TIMEOUTS.minRequestMs, uploadTimeoutMs + SERVER_TIMEOUTS.pastUploadMs);
}

export interface RunningServer {
  server: Server;
  port: number;
  url: string;
  /** Stops accepting, lets in-flight requests and running jobs finish within the bound, closes the db. */
  shutdown(): Promise<void>;
}

/**
 * The app's HTTP server, not yet listening: Node's server with the edge's response class, the app
 * behind @hono/node-server's request listener, and the answer to requests that never arrive.
 */
export function createAppServer(
  deps: Pick<Dependencies, 'config' | 'logger' | 'paths'>,
  app: Pick<App, 'fetch'>,
  options: { checkIntervalMs?: number } = {},
): Server {
  const listener = getRequestListener(app.fetch, { hostname: deps.config.host });
  const inFlight = new ResponsesInFlight();
  const server = createServer(
    {
      // The class is generic over its request type; the server only ever builds it with IncomingMessage.
      ServerResponse: EdgeServerResponse as typeof ServerResponse,
      // How often Node checks requestTimeout and headersTimeout (its default, 30 s, makes them late).
      connectionsCheckingInterval: options.checkIntervalMs ?? SERVER_TIMEOUTS.checkIntervalMs,
    },
    (request, response) => {
      inFlight.track(request, response);
      return listener(request, response);
    },
  );
  // Slow-drip bodies are cut instead of holding a connection forever: the bound is past the ticket
  // upload's own (UPLOAD_TIMEOUT_MS), so that route answers first. Past it, the answer is still in
  // the envelope of the request's path (src/http/client-error.ts).
  server.requestTimeout = requestTimeoutMs(deps.config.uploadTimeoutMs);
  server.headersTimeout = SERVER_TIMEOUTS.headersMs;
  server.on('clientError', answerClientError(deps.logger, { paths: deps.paths, inFlight }));
  return server;
}

/** Serves the app on config.host:config.port (port 0 picks a free one) and starts the queue workers. */
export async function startServer(deps: Dependencies, app: App = createApp(deps)): Promise<RunningServer> {
  const server = createAppServer(deps, app);
  await new Promise<void>((resolve) => server.listen(deps.config.port, deps.config.host, resolve));
  if (deps.config.workersEnabled) {
    deps.worker.start();
    deps.housekeeping.start();
  }
  deps.readiness.serving();
  const port = (server.address() as AddressInfo).port;

  let closing: Promise<void> | null = null;
  const shutdown = () => {
    closing ??= (async () => {
      // One bound for everything: requests and running jobs finish side by side within it.
      const bound = deps.config.shutdownTimeoutMs;
      const deadline = Date.now() + bound;
      // 1. The shutdown signal: `GET /ready` answers 503 from here, open streams (SSE) end. Stop
      //    accepting; idle keep-alive sockets go now, and the others as soon as their request
      //    is answered (Node would keep each open for its keep-alive timeout, 5 s + 1 s, and the
      //    shutdown with it).
      deps.signalShutdown();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      server.keepAliveTimeout = 1;
      if ('keepAliveTimeoutBuffer' in server) server.keepAliveTimeoutBuffer = 0;
      // 2. Plain requests get the bound to finish, and the workers stop claiming jobs while the
      //    running ones get the same bound.
      const workersStopped = deps.worker.stop(bound);
      await Promise.race([closed, new Promise<void>((resolve) => setTimeout(resolve, bound).unref())]);
      server.closeAllConnections();
      await workersStopped;
      // 3. What is left of the bound for the hand-overs; jobs still running are re-run elsewhere
      //    after their lease. The database closes.
      await deps.close(Math.max(0, deadline - Date.now()));
    })();
    return closing;
  };
  return { server, port, url: `http://127.0.0.1:${port}`, shutdown };
}
