import { Writable } from 'node:stream';
import type { Logger } from 'pino';
import { createApp } from '../../src/app.ts';
import { type Config, loadConfig } from '../../src/config.ts';
import type { Engine } from '../../src/db/database.ts';
import { createDependencies, type Dependencies, type DependencyOverrides } from '../../src/dependencies.ts';
import type { FeatureModule } from '../../src/features/contract.ts';
import type { EdgeHook } from '../../src/http/edge-hooks.ts';
import { createLogger } from '../../src/logger.ts';
import { type RunningServer, startServer } from '../../src/server.ts';
import { createTestDatabase, type TestDatabase } from './database.ts';

/** Log lines a test can read back (each line parsed from pino's JSON). */
export class LogCapture {
  readonly lines: Record<string, unknown>[] = [];
  readonly raw: string[] = [];
  readonly stream = new Writable({
    write: (chunk, _encoding, done) => {
      const text = chunk.toString();
      this.raw.push(text);
      for (const line of text.split('\n').filter(Boolean)) this.lines.push(JSON.parse(line));
      done();
    },
  });
}

export interface TestContext {
  deps: Dependencies;
  config: Config;
  app: ReturnType<typeof createApp>;
  logs: LogCapture;
  database: TestDatabase;
  close(): Promise<void>;
}

export interface TestAppOptions {
  engine?: Engine;
  env?: Record<string, string>;
  overrides?: Omit<DependencyOverrides, 'database'>;
  logLevel?: string;
  sqlitePath?: string;
  /** PostgreSQL: the `application_name` of the app's connections (see `createTestDatabase`). */
  applicationName?: string;
  /** Edge hooks instead of the service's own (`http/edge-hooks.ts`). */
  edgeHooks?: readonly EdgeHook[];
  /** Adds routes to the app (e.g. a test-only route) before it serves. */
  extend?: (app: ReturnType<typeof createApp>) => void;
  /** The features to build instead of `FEATURES` (e.g. with a test-only one added). */
  modules?: readonly FeatureModule[];
}

/** Test defaults: no outside service, workers started by the test itself (via `deps.worker.drain`). */
export const TEST_ENV: Record<string, string> = {
  NODE_ENV: 'test',
  PORT: '0',
  HOST: '127.0.0.1',
  WORKERS_ENABLED: 'false',
  SHUTDOWN_TIMEOUT_MS: '2000',
};

export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({ ...TEST_ENV, ...env });
}

/** Builds the whole app on a fresh database, for in-process `app.request()` tests. */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestContext> {
  const database = await createTestDatabase(options.engine ?? 'sqlite', {
    sqlitePath: options.sqlitePath,
    applicationName: options.applicationName,
  });
  const config = testConfig({ DATABASE_URL: database.url, ...options.env });
  const logs = new LogCapture();
  const logger: Logger = createLogger(options.logLevel ?? 'info', logs.stream, [], {
    instanceId: config.instanceId,
  });
  const deps = await createDependencies(
    config,
    logger,
    { ...options.overrides, database: database.handle },
    options.modules,
  );
  const app = createApp(deps, { edgeHooks: options.edgeHooks });
  options.extend?.(app);
  return {
    deps,
    config,
    app,
    logs,
    database,
    async close() {
      await deps.close();
      await database.dispose();
    },
  };
}

/** Serves the app on a free port over a real socket, for what only a server shows. */
export async function startTestServer(
  options: TestAppOptions = {},
): Promise<TestContext & { server: RunningServer; url: string }> {
  const database = await createTestDatabase(options.engine ?? 'sqlite', {
    sqlitePath: options.sqlitePath,
    applicationName: options.applicationName,
  });
  const config = testConfig({ DATABASE_URL: database.url, ...options.env });
  const logs = new LogCapture();
  const logger = createLogger(options.logLevel ?? 'info', logs.stream, [], { instanceId: config.instanceId });
  const deps = await createDependencies(
    config,
    logger,
    { ...options.overrides, database: database.handle },
    options.modules,
  );
  const app = createApp(deps, { edgeHooks: options.edgeHooks });
  options.extend?.(app);
  const server = await startServer(deps, app);
  return {
    deps,
    config,
    app,
    logs,
    database,
    server,
    url: server.url,
    async close() {
      await server.shutdown();
      await database.dispose();
    },
  };
}
