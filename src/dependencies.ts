import type { Logger } from 'pino';
import type { Config } from './config.ts';
import { CacheStore } from './db/cache-store.ts';
import { type DatabaseHandle, type Db, type Engine, openDatabase } from './db/database.ts';
import { HOUSEKEEPING, Housekeeping } from './db/housekeeping.ts';
import { migrateToLatest } from './db/migrate.ts';
import { RateLimiter } from './db/rate-limiter.ts';
import { AnalyticsRecorder } from './features/analytics/recorder.ts';
import { pruneAnalyticsDays } from './features/analytics/store.ts';
import { utcDay } from './features/analytics/track.ts';
import { registerDiagnosticsQueue } from './features/diagnostics/queue.ts';
import { LEAD_CRM_SOURCE, leadCrmSource } from './features/leads/crm-sync.ts';
import { PrototypeQuota } from './features/leads/quota.ts';
import { BackgroundTasks } from './features/prototypes/background.ts';
import { prototypeContext } from './features/prototypes/context.ts';
import type { PrototypeJob } from './features/prototypes/generation.ts';
import type { PrototypeLeads } from './features/prototypes/lead-port.ts';
import { leadsForPrototypes } from './features/prototypes/leads-adapter.ts';
import { prototypeQueue, prototypeQueueDefinition } from './features/prototypes/queue.ts';
import { SUPPORT_CRM_SOURCE, supportCrmSource } from './features/support/send.ts';
import { Metrics } from './http/metrics.ts';
import { type CaptchaVerifier, createCaptchaVerifier } from './integrations/captcha/captcha.ts';
import type { CrmClient } from './integrations/crm/crm.ts';
import { createCrmClient } from './integrations/crm/pipedrive.ts';
import { crmQueueDefinition } from './integrations/crm/sync.ts';
import { type GeoIp, openGeoIp } from './integrations/geoip/geoip.ts';
import type { LlmClient } from './integrations/llm/llm-client.ts';
import { emailQueueDefinition } from './integrations/mail/queue.ts';
import { createMailTransport, type MailTransport } from './integrations/mail/transport.ts';
import {
  findChrome,
  LIGHTHOUSE_DEFAULTS,
  LocalLighthouseEngine,
} from './integrations/pagespeed/lighthouse-engine.ts';
import { PageSpeedInsightsEngine, PSI_DEFAULTS } from './integrations/pagespeed/psi-client.ts';
import type { PageSpeedEngine } from './integrations/pagespeed/report.ts';
import {
  createPrototypeGenerator,
  type PrototypeGenerator,
} from './integrations/prototype-generator/index.ts';
import { SafeFetcher } from './integrations/safe-fetch/safe-fetch.ts';
import { BuiltinSalesAgent } from './integrations/sales-agent/builtin-agent.ts';
import type { SalesAgent } from './integrations/sales-agent/sales-agent.ts';
import { WebSocketSalesAgent } from './integrations/sales-agent/websocket-agent.ts';
import { HttpWordPressClient, type WordPressClient } from './integrations/wordpress/wordpress-client.ts';
import { JobQueue } from './queue/job-queue.ts';
import { type NamedQueue, QueueWorker } from './queue/worker.ts';
import type { SearchIndex } from './search/search-index.ts';
import { SqlSearchIndex } from './search/sql-search-index.ts';

/** Everything a handler or a job may need, built once from config (see createDependencies). */
export interface Dependencies {
  config: Config;
  logger: Logger;
  db: Db;
  engine: Engine;
  cache: CacheStore;
  rateLimiter: RateLimiter;
  jobs: JobQueue;
  worker: QueueWorker;
  /** The language model (AI_BASE_URL), or null: each feature then uses the built-in offline engine. */
  llm: LlmClient | null;
  /** CAPTCHA siteverify, or not enforced when CAPTCHA_SECRET is unset. */
  captcha: CaptchaVerifier;
  /** Pipedrive, or skipped when PIPEDRIVE_API_TOKEN is unset. */
  crm: CrmClient;
  /** SMTP, or the stored outbox when SMTP_URL is unset; send through `enqueueEmail`. */
  mail: MailTransport;
  /** The monthly prototype quota (PROTOTYPE_MONTHLY_LIMIT per kind, per IP and e-mail bucket). */
  quota: PrototypeQuota;
  metrics: Metrics;
  /** Prototype generation: the generator chosen from config, the leads it reads, PrototypeQueue. */
  prototypes: {
    generator: PrototypeGenerator;
    leads: PrototypeLeads;
    queue: NamedQueue<PrototypeJob>;
    /** Generations running in this process after their request returned. */
    tasks: BackgroundTasks;
  };
  /** Aborted when the process starts shutting down: long-lived streams (SSE) end on it. */
  /** The only way to fetch a visitor-given URL (SSRF rules; FETCH_ALLOW_HOSTS). */
  safeFetch: SafeFetcher;
  /** The posts upstream; null when WORDPRESS_API_URL is unset (posts routes answer 503). */
  wordpress: WordPressClient | null;
  /** Page-speed analysis: PSI with a key, else local Lighthouse when Chromium exists, else null (503). */
  pagespeed: PageSpeedEngine | null;
  /** IP → country, offline (a MaxMind-format database read once at start-up). */
  geoip: GeoIp;
  /** Analytics writes, group-committed; flushed before the database closes. */
  analytics: AnalyticsRecorder;
  /** The full-text search index, filled only by `npm run ingest`. */
  search: SearchIndex;
  /** The chat's sales agent: the WebSocket relay (SALES_AGENT_WS_URL) or the built-in agent. */
  salesAgent: SalesAgent;
  shutdownSignal: AbortSignal;
  /** Aborts `shutdownSignal`. */
  signalShutdown(): void;
  /** Deletes expired rate-limit windows, cache entries, old completed jobs and past analytics salts (started with the workers). */
  housekeeping: Housekeeping;
  /**
   * Stops the queue workers (letting running jobs finish within `boundMs`, default
   * SHUTDOWN_TIMEOUT_MS) and closes the database.
   */
  close(boundMs?: number): Promise<void>;
}

export interface DependencyOverrides {
  database?: DatabaseHandle;
  backoffBaseMs?: number;
  /** The job queue's clock (due times, backoff), so a test can step through hours of retries. */
  queueClock?: () => number;
  /** A generator built for the test (e.g. pointed at a stand-in with short polling). */
  prototypeGenerator?: PrototypeGenerator;
}

/** The composition root: opens the database, applies migrations, and builds every service once. */
export async function createDependencies(
  config: Config,
  logger: Logger,
  overrides: DependencyOverrides = {},
): Promise<Dependencies> {
  const database =
    overrides.database ??
    openDatabase(config.databaseUrl, {
      onConnectionError: (error) =>
        logger.warn({ err: error }, 'a database connection broke; the pool opens another when needed'),
    });
  await migrateToLatest(database.db);
  const jobs = new JobQueue(database.db, {
    backoffBaseMs: overrides.backoffBaseMs,
    now: overrides.queueClock,
  });
  const worker = new QueueWorker(jobs, logger.child({ component: 'queue' }), {
    leaseMs: config.queueLeaseMs,
  });
  const shutdown = new AbortController();
  const prototypeTasks = new BackgroundTasks();
  // The AI SDK is loaded only when a model is configured (it is ~7 MB of resident memory).
  const llm: LlmClient | null = config.ai
    ? new (await import('./integrations/llm/openai-compatible-client.ts')).OpenAiCompatibleClient(config.ai)
    : null;
  const quota = new PrototypeQuota(database.db, config.prototypes.monthlyLimit);
  const safeFetch = new SafeFetcher({ allowHosts: config.fetchAllowHosts });
  const pagespeed = choosePageSpeedEngine(config, safeFetch);
  const cache = new CacheStore(database.db);
  if (pagespeed) {
    registerDiagnosticsQueue(worker, {
      engine: pagespeed,
      cache,
      logger: logger.child({ component: 'diagnostics' }),
      timeoutMs:
        pagespeed.name === 'lighthouse' ? LIGHTHOUSE_DEFAULTS.timeoutMs : PSI_DEFAULTS.totalTimeoutMs,
    });
  }
  const geoip = openGeoIp(config.analytics.geoipDbPath, (error) =>
    logger.warn({ err: error }, 'IP-to-country database unreadable: countries will be unknown'),
  );
  const rateLimiter = new RateLimiter(database.db);
  const analytics = new AnalyticsRecorder(database.db, logger.child({ component: 'analytics' }), {
    rateLimiter,
    perMinute: config.analytics.trackRateLimitPerMinute,
  });
  const salesAgent: SalesAgent = config.salesAgentWsUrl
    ? new WebSocketSalesAgent({
        url: config.salesAgentWsUrl,
        ...config.salesAgentTimeouts,
        logger: logger.child({ component: 'sales-agent' }),
      })
    : new BuiltinSalesAgent({
        // Read at each question, so the agent sees the index and model however they are wired.
        sources: {
          get search() {
            return deps.search;
          },
          get llm() {
            return deps.llm;
          },
        },
        wizardUrl: config.wizardUrl,
        maxDurationMs: config.salesAgentTimeouts.maxDurationMs,
        logger: logger.child({ component: 'sales-agent' }),
      });

  const housekeeping = new Housekeeping(
    [
      { name: 'rate_limits', run: () => rateLimiter.prune() },
      { name: 'cache_entries', run: () => cache.prune() },
      { name: 'completed_jobs', run: () => jobs.prune(HOUSEKEEPING.completedJobRetentionMs) },
      { name: 'analytics_salts', run: () => pruneAnalyticsDays(database.db, utcDay(Date.now())) },
    ],
    logger.child({ component: 'housekeeping' }),
  );

  const deps: Dependencies = {
    config,
    logger,
    db: database.db,
    engine: database.engine,
    cache,
    rateLimiter,
    jobs,
    worker,
    captcha: createCaptchaVerifier(config.captcha),
    crm: createCrmClient(config.pipedrive),
    mail: createMailTransport({ smtpUrl: config.mail.smtpUrl, from: config.mail.from }),
    quota,
    metrics: new Metrics({ jobs, queueNames: () => worker.queueNames() }),
    prototypes: {
      generator: overrides.prototypeGenerator ?? (await createPrototypeGenerator(config, llm, logger)),
      leads: leadsForPrototypes(database.db, quota),
      queue: prototypeQueue(jobs),
      tasks: prototypeTasks,
    },
    safeFetch,
    wordpress: config.wordpressApiUrl ? new HttpWordPressClient(config.wordpressApiUrl) : null,
    pagespeed,
    geoip,
    analytics,
    housekeeping,
    llm,
    search: new SqlSearchIndex(database.db),
    salesAgent,
    shutdownSignal: shutdown.signal,
    signalShutdown: () => shutdown.abort(),
    async close(boundMs = config.shutdownTimeoutMs) {
      shutdown.abort();
      // Running generations were aborted by the signal and hand over to PrototypeQueue; let them
      // record it while the running jobs finish: both within the one bound.
      await Promise.all([
        worker.stop(boundMs),
        Promise.race([prototypeTasks.idle(), new Promise((r) => setTimeout(r, boundMs).unref())]),
      ]);
      await analytics.flush().catch((error) => logger.error({ err: error }, 'analytics flush failed'));
      await housekeeping.stop();
      await database.close();
    },
  };
  worker.register(emailQueueDefinition(deps));
  worker.register(
    crmQueueDefinition(deps, { [LEAD_CRM_SOURCE]: leadCrmSource, [SUPPORT_CRM_SOURCE]: supportCrmSource }),
  );
  worker.register(prototypeQueueDefinition(() => prototypeContext(deps)));
  return deps;
}

function choosePageSpeedEngine(config: Config, safeFetch: SafeFetcher): PageSpeedEngine | null {
  if (config.pagespeed.apiKey) {
    return new PageSpeedInsightsEngine({ apiUrl: config.pagespeed.apiUrl, apiKey: config.pagespeed.apiKey });
  }
  const chromePath = findChrome(config.pagespeed.chromePath);
  if (!chromePath) return null;
  return new LocalLighthouseEngine({ chromePath, safeFetch, allowHosts: config.fetchAllowHosts });
}
