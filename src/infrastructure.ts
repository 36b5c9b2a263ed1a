import type { Logger } from 'pino';
import packageJson from '../package.json' with { type: 'json' };
import type { Config } from './config.ts';
import { CacheStore } from './db/cache-store.ts';
import { type DatabaseHandle, type Db, type Engine, openDatabase } from './db/database.ts';
import { latestMigrationName, migrateToLatest } from './db/migrate.ts';
import { PersonalDataRegistry } from './db/personal-data.ts';
import { RateLimiter } from './db/rate-limiter.ts';
import { Readiness } from './db/readiness.ts';
import { type CaptchaVerifier, createCaptchaVerifier } from './integrations/captcha/captcha.ts';
import type { CrmClient } from './integrations/crm/crm.ts';
import { createCrmClient } from './integrations/crm/pipedrive.ts';
import {
  countingAgentFailures,
  countingLlmFailures,
  countingPageSpeedFailures,
  type OutboundFailures,
} from './integrations/failure-counting.ts';
import { type GeoIp, openGeoIp } from './integrations/geoip/geoip.ts';
import type { LlmClient } from './integrations/llm/llm-client.ts';
import { createMailTransport, type MailTransport } from './integrations/mail/transport.ts';
import { findChrome, LocalLighthouseEngine } from './integrations/pagespeed/lighthouse-engine.ts';
import { PageSpeedInsightsEngine } from './integrations/pagespeed/psi-client.ts';
import type { PageSpeedEngine } from './integrations/pagespeed/report.ts';
import {
  createPrototypeGenerator,
  type PrototypeGenerator,
} from './integrations/prototype-generator/index.ts';
import { SafeFetcher } from './integrations/safe-fetch/safe-fetch.ts';
import { BuiltinSalesAgent } from './integrations/sales-agent/builtin-agent.ts';
import type { SalesAgent } from './integrations/sales-agent/sales-agent.ts';
import { HttpWordPressClient, type WordPressClient } from './integrations/wordpress/wordpress-client.ts';
import { Metrics } from './metrics.ts';
import { BackgroundTasks } from './queue/background-tasks.ts';
import { JobQueue } from './queue/job-queue.ts';
import { QueueWorker } from './queue/worker.ts';
import type { SearchIndex } from './search/search-index.ts';
import { SqlSearchIndex } from './search/sql-search-index.ts';
import { createTracer } from './tracing/create-tracer.ts';
import type { Tracer } from './tracing/tracer.ts';

/**
 * What the service shares with every feature, built once from config: the database and what lives on
 * it (queue, cache, rate limits, search), the logger and metrics, and one client per outside service
 * (each a real client or its offline default). It names no feature: each feature builds its own
 * narrow ports from it (its `module.ts`), and handlers read it from `c.env.deps`.
 */
export interface Infrastructure {
  config: Config;
  logger: Logger;
  db: Db;
  engine: Engine;
  cache: CacheStore;
  rateLimiter: RateLimiter;
  jobs: JobQueue;
  worker: QueueWorker;
  metrics: Metrics;
  /** Work this process runs after its request returned: shutdown (and tests) wait for it. */
  background: BackgroundTasks;
  /** The language model (AI_BASE_URL), or null: each feature then uses the built-in offline engine. */
  llm: LlmClient | null;
  /** CAPTCHA siteverify, or not enforced when CAPTCHA_SECRET is unset. */
  captcha: CaptchaVerifier;
  /** Pipedrive, or skipped when PIPEDRIVE_API_TOKEN is unset. */
  crm: CrmClient;
  /** SMTP, or the stored outbox when SMTP_URL is unset; send through `enqueueEmail`. */
  mail: MailTransport;
  /** The prototype generator chosen from config (v0, the language model, or the built-in one). */
  prototypeGenerator: PrototypeGenerator;
  /** The only way to fetch a visitor-given URL (SSRF rules; FETCH_ALLOW_HOSTS). */
  safeFetch: SafeFetcher;
  /** The posts upstream; null when WORDPRESS_API_URL is unset (posts routes answer 503). */
  wordpress: WordPressClient | null;
  /** Page-speed analysis: PSI with a key, else local Lighthouse when Chromium exists, else null (503). */
  pagespeed: PageSpeedEngine | null;
  /** IP → country, offline (a MaxMind-format database read once at start-up). */
  geoip: GeoIp;
  /** The full-text search index, filled only by `npm run ingest`. */
  search: SearchIndex;
  /** The chat's sales agent: the WebSocket relay (SALES_AGENT_WS_URL) or the built-in agent. */
  salesAgent: SalesAgent;
  /** Aborted when the process starts shutting down: long-lived streams (SSE) end on it. */
  shutdownSignal: AbortSignal;
  /** Whether to send this instance traffic (`GET /ready`); the server marks it serving. */
  readiness: Readiness;
  /** Makes the spans of requests, jobs and outbound calls (ids only, or OpenTelemetry: tracing/). */
  tracer: Tracer;
  /** Every feature's personal-data part (find, export, erase, retention), registered once built. */
  personalData: PersonalDataRegistry;
}

export interface InfrastructureOverrides {
  database?: DatabaseHandle;
  backoffBaseMs?: number;
  /** The job queue's clock (due times, backoff), so a test can step through hours of retries. */
  queueClock?: () => number;
  /** A generator built for the test (e.g. pointed at a stand-in with short polling). */
  prototypeGenerator?: PrototypeGenerator;
  /** How long `GET /ready` waits for the database (READINESS_TIMEOUT_MS). */
  readinessTimeoutMs?: number;
}

/** The infrastructure with what only its owner (the composition root) may do: end it. */
export interface OwnedInfrastructure {
  infrastructure: Infrastructure;
  /** Aborts `shutdownSignal`. */
  signalShutdown(): void;
  /** Closes the database (after the workers stopped) and exports the spans still buffered. */
  closeDatabase(): Promise<void>;
}

/** Opens the database, applies migrations, and builds every shared service and client once. */
export async function createInfrastructure(
  config: Config,
  logger: Logger,
  overrides: InfrastructureOverrides = {},
): Promise<OwnedInfrastructure> {
  const database = overrides.database ?? (await openServingDatabase(config, logger));
  if (overrides.database) await migrateToLatest(database.db);
  const shutdown = new AbortController();
  const jobs = new JobQueue(database.db, {
    backoffBaseMs: overrides.backoffBaseMs,
    now: overrides.queueClock,
  });
  const tracer = await createTracer({
    otlpEndpoint: config.otlpEndpoint,
    serviceName: packageJson.name,
    serviceVersion: packageJson.version,
    instanceId: config.instanceId,
  });
  const worker = new QueueWorker(jobs, logger.child({ component: 'queue' }), {
    leaseMs: config.queueLeaseMs,
    tracer,
  });
  // The AI SDK is loaded only when a model is configured (it is ~7 MB of resident memory).
  const metrics = new Metrics({ jobs, queueNames: () => worker.queueNames() });
  const llm: LlmClient | null = config.ai
    ? countingLlmFailures(
        new (await import('./integrations/llm/openai-compatible-client.ts')).OpenAiCompatibleClient(
          config.ai,
        ),
        metrics,
      )
    : null;
  const safeFetch = new SafeFetcher({ allowHosts: config.fetchAllowHosts });
  const geoip = openGeoIp(config.analytics.geoipDbPath, (error) =>
    logger.warn({ err: error }, 'IP-to-country database unreadable: countries will be unknown'),
  );
  // The WebSocket client (`ws`) is loaded only when an agent backend is configured.
  const salesAgent: SalesAgent = config.salesAgentWsUrl
    ? countingAgentFailures(
        new (await import('./integrations/sales-agent/websocket-agent.ts')).WebSocketSalesAgent({
          url: config.salesAgentWsUrl,
          ...config.salesAgentTimeouts,
          logger: logger.child({ component: 'sales-agent' }),
        }),
        metrics,
      )
    : new BuiltinSalesAgent({
        // Read at each question, so the agent sees the index and model however they are wired.
        sources: {
          get search() {
            return infrastructure.search;
          },
          get llm() {
            return infrastructure.llm;
          },
        },
        wizardUrl: config.wizardUrl,
        maxDurationMs: config.salesAgentTimeouts.maxDurationMs,
        logger: logger.child({ component: 'sales-agent' }),
      });

  const infrastructure: Infrastructure = {
    config,
    logger,
    db: database.db,
    engine: database.engine,
    cache: new CacheStore(database.db),
    rateLimiter: new RateLimiter(database.db),
    jobs,
    worker,
    metrics,
    background: new BackgroundTasks(),
    llm,
    captcha: createCaptchaVerifier(config.captcha),
    crm: createCrmClient(config.pipedrive),
    mail: createMailTransport({ smtpUrl: config.mail.smtpUrl, from: config.mail.from }),
    prototypeGenerator: overrides.prototypeGenerator ?? (await createPrototypeGenerator(config, llm, logger)),
    safeFetch,
    wordpress: config.wordpressApiUrl ? new HttpWordPressClient(config.wordpressApiUrl) : null,
    pagespeed: choosePageSpeedEngine(config, safeFetch, metrics),
    geoip,
    search: new SqlSearchIndex(database.db),
    salesAgent,
    shutdownSignal: shutdown.signal,
    readiness: new Readiness({
      db: database.db,
      latestMigration: latestMigrationName(),
      shutdownSignal: shutdown.signal,
      logger: logger.child({ component: 'readiness' }),
      timeoutMs: overrides.readinessTimeoutMs,
    }),
    tracer,
    personalData: new PersonalDataRegistry(),
  };
  return {
    infrastructure,
    signalShutdown: () => shutdown.abort(),
    closeDatabase: async () => {
      await database.close();
      await tracer.shutdown();
    },
  };
}

/**
 * The database the instance serves from, migrated. On PostgreSQL its pool has the statement timeout
 * (DATABASE_STATEMENT_TIMEOUT_MS), and the migrations run before on a connection of their own without
 * it: building an index on a big table may take longer than a request's statement may.
 */
async function openServingDatabase(config: Config, logger: Logger): Promise<DatabaseHandle> {
  const statementTimeoutMs = config.databaseStatementTimeoutMs ?? undefined;
  const migrateApart = statementTimeoutMs !== undefined && !config.databaseUrl.startsWith('sqlite:');
  if (migrateApart) {
    const migrating = openDatabase(config.databaseUrl, { poolSize: 1 });
    try {
      await migrateToLatest(migrating.db);
    } finally {
      await migrating.close();
    }
  }
  const database = openDatabase(config.databaseUrl, {
    statementTimeoutMs,
    onConnectionError: (error) =>
      logger.warn({ err: error }, 'a database connection broke; the pool opens another when needed'),
  });
  if (!migrateApart) await migrateToLatest(database.db);
  return database;
}

function choosePageSpeedEngine(
  config: Config,
  safeFetch: SafeFetcher,
  failures: OutboundFailures,
): PageSpeedEngine | null {
  if (config.pagespeed.apiKey) {
    return countingPageSpeedFailures(
      new PageSpeedInsightsEngine({ apiUrl: config.pagespeed.apiUrl, apiKey: config.pagespeed.apiKey }),
      failures,
    );
  }
  const chromePath = findChrome(config.pagespeed.chromePath);
  if (!chromePath) return null;
  return new LocalLighthouseEngine({ chromePath, safeFetch, allowHosts: config.fetchAllowHosts });
}
