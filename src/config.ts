import { existsSync } from 'node:fs';
import { isIPv6 } from 'node:net';
import { z } from 'zod';

/**
 * The environment schema. Every variable of ../shared/spec/contract.md plus the few this service adds
 * (documented in the README's configuration table, which `npm run config:table` prints from here).
 * Parsed once in start.ts; nothing below the entry (main.js, start.ts) reads process.env.
 */

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

const optionalUrl = (protocols: string[]) =>
  optionalString
    .refine(
      (v) => {
        if (v === undefined) return true;
        try {
          return protocols.includes(new URL(v).protocol);
        } catch {
          return false;
        }
      },
      { message: `must be an absolute URL (${protocols.join(' or ')})` },
    )
    // fetch() refuses a URL with a user name or password in it, so such a service could never be
    // reached, and the error naming the URL would carry the password into the logs.
    .refine((v) => v === undefined || !protocols.includes('http:') || !hasCredentials(v), {
      message: 'must not hold a user name or password (fetch cannot send them from the URL)',
    });

function hasCredentials(url: string): boolean {
  const parsed = URL.parse(url);
  return parsed !== null && (parsed.username !== '' || parsed.password !== '');
}

const urlWithDefault = (fallback: string, protocols = ['http:', 'https:']) =>
  optionalUrl(protocols).transform((v) => v ?? fallback);

const integer = (fallback: number, min: number, max: number) =>
  optionalString
    .refine((v) => v === undefined || /^\d+$/.test(v), { message: 'must be a whole number' })
    .transform((v) => (v === undefined ? fallback : Number(v)))
    .pipe(z.number().int().min(min).max(max));

/** One of a fixed set of values; empty means unset, like every other variable. */
const oneOf = <const T extends readonly [string, ...string[]]>(values: T, fallback: T[number]) =>
  optionalString
    .pipe(z.enum(values, { error: `must be one of ${values.join(', ')}` }).optional())
    .transform((v) => v ?? fallback);

// The HTML5 (browser) form: it accepts a bare host such as `support@localhost`, like the defaults.
const emailAddress = z.email({ pattern: z.regexes.html5Email });
const isEmail = (v: string) => emailAddress.safeParse(v).success;

const optionalEmail = optionalString.refine((v) => v === undefined || isEmail(v), {
  message: 'must be an e-mail address',
});

/** `hello@agency.example` or `Agency <hello@agency.example>`. */
const isMailbox = (v: string) => {
  const named = /^([^<>]*)<([^<>]+)>$/.exec(v);
  return isEmail(named ? (named[2] ?? '').trim() : v);
};

// A DNS name (underscores allowed, as in container names), an IPv4 literal, or an IPv6 literal with or
// without brackets. No scheme, port or path: the allowlist is compared with the URL's host name only.
const HOST_NAME =
  /^(?=.{1,253}\.?$)[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*\.?$/i;
const isHostEntry = (h: string) => HOST_NAME.test(h) || isIPv6(h.replace(/^\[(.*)\]$/, '$1'));

/** A URL's user and password are read with decodeURIComponent, which throws on a stray `%`. */
function hasDecodableCredentials(value: string): boolean {
  try {
    const url = new URL(value);
    decodeURIComponent(url.username);
    decodeURIComponent(url.password);
    return true;
  } catch {
    return false;
  }
}

const flag = (fallback: boolean) =>
  optionalString.transform((v) => (v === undefined ? fallback : v.toLowerCase() !== 'false'));

/** Retention periods in days (docs/privacy.md); 0 keeps that kind until it is erased. */
const retentionDays = (fallback: number) => integer(fallback, 0, 36_500);
const RETENTION_VARIABLES = {
  RETENTION_SPAM_DAYS: retentionDays(30),
  RETENTION_MAIL_DAYS: retentionDays(90),
  RETENTION_CHAT_DAYS: retentionDays(180),
  RETENTION_TICKETS_DAYS: retentionDays(730),
  RETENTION_MESSAGES_DAYS: retentionDays(730),
  RETENTION_LEADS_DAYS: retentionDays(0),
};

export const envSchema = z.object({
  NODE_ENV: optionalString.transform((v) => v ?? 'development'),
  PORT: integer(8787, 0, 65535),
  HOST: optionalString.transform((v) => v ?? '0.0.0.0'),
  PUBLIC_BASE_URL: optionalUrl(['http:', 'https:']),
  DATABASE_URL: optionalString
    .transform((v) => v ?? 'sqlite:./data/app.db')
    .refine((v) => /^sqlite:.+$/.test(v) || (/^postgres(ql)?:\/\/.+$/.test(v) && URL.canParse(v)), {
      message: 'must be sqlite:<path>, sqlite::memory: or a valid postgres:// URL',
    }),
  SITE_ORIGIN: urlWithDefault('http://localhost:5173'),
  WWW_SITE_ORIGIN: optionalUrl(['http:', 'https:']),
  WIZARD_URL: optionalUrl(['http:', 'https:']),
  AI_BASE_URL: optionalUrl(['http:', 'https:']),
  AI_API_KEY: optionalString,
  AI_MODEL: optionalString,
  AI_TIMEOUT_MS: integer(20_000, 100, 600_000),
  CHAT_API_SECRET: optionalString,
  ADMIN_API_SECRET: optionalString,
  CACHE_API_SECRET: optionalString,
  METRICS_API_SECRET: optionalString,
  CAPTCHA_SECRET: optionalString,
  CAPTCHA_VERIFY_URL: urlWithDefault('https://www.google.com/recaptcha/api/siteverify'),
  CAPTCHA_MIN_SCORE: optionalString
    .refine((v) => v === undefined || (/^\d*\.?\d+$/.test(v) && Number(v) <= 1), {
      message: 'must be a number between 0 and 1',
    })
    .transform((v) => (v === undefined ? 0.5 : Number(v))),
  CAPTCHA_DISABLED: optionalString.transform((v) => v?.toLowerCase() === 'true'),
  PIPEDRIVE_API_TOKEN: optionalString,
  PIPEDRIVE_API_URL: urlWithDefault('https://api.pipedrive.com'),
  SMTP_URL: optionalUrl(['smtp:', 'smtps:']).refine((v) => v === undefined || hasDecodableCredentials(v), {
    message: 'must percent-encode reserved characters (such as %, @, :) in its user and password',
  }),
  MAIL_FROM: optionalString
    .refine((v) => v === undefined || isMailbox(v), {
      message: 'must be an e-mail address or Name <address>',
    })
    .transform((v) => v ?? 'Agency <no-reply@localhost>'),
  SUPPORT_EMAIL: optionalEmail.transform((v) => v ?? 'support@localhost'),
  CRM_BCC_EMAIL: optionalEmail,
  SALES_AGENT_WS_URL: optionalUrl(['ws:', 'wss:']),
  SALES_AGENT_CONNECT_TIMEOUT_MS: integer(10_000, 100, 600_000),
  SALES_AGENT_IDLE_TIMEOUT_MS: integer(30_000, 100, 600_000),
  SALES_AGENT_MAX_DURATION_MS: integer(180_000, 100, 3_600_000),
  CHAT_RATE_LIMIT: integer(30, 0, 1_000_000_000),
  WORDPRESS_API_URL: optionalUrl(['http:', 'https:']),
  POSTS_CACHE_TTL_SECONDS: integer(300, 0, 31_536_000),
  PAGESPEED_API_KEY: optionalString,
  PAGESPEED_API_URL: urlWithDefault('https://www.googleapis.com/pagespeedonline/v5/runPagespeed'),
  CHROME_PATH: optionalString,
  SPAM_FILTER_ENABLED: optionalString.transform((v) => v !== 'false'),
  VENDOR_FILTER_ENABLED: optionalString.transform((v) => v !== 'false'),
  PROTOTYPE_MONTHLY_LIMIT: integer(2, 0, 100_000),
  PROTOTYPE_GENERATOR: oneOf(['builtin', 'llm', 'v0'], 'builtin'),
  V0_API_KEY: optionalString,
  V0_API_URL: urlWithDefault('https://api.v0.dev/v1'),
  TRUST_PROXY: oneOf(['none', 'cloudflare', 'xff'], 'none'),
  FETCH_ALLOW_HOSTS: optionalString
    .transform((v) =>
      (v ?? '')
        .split(',')
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean),
    )
    .superRefine((hosts, ctx) => {
      const bad = hosts.find((h) => !isHostEntry(h));
      if (bad !== undefined) {
        ctx.addIssue({
          code: 'custom',
          message: `must be a comma list of host names or IP literals (no scheme, port or path): ${JSON.stringify(bad)}`,
        });
      }
    }),
  ANALYTICS_TRACK_RATE_LIMIT: integer(1200, 0, 1_000_000_000),
  ANALYTICS_INBOX_MAX_EVENTS: integer(1_000_000, 1, 1_000_000_000),
  AI_RATE_LIMIT: integer(30, 0, 1_000_000_000),
  LEADS_RATE_LIMIT: integer(30, 0, 1_000_000_000),
  GEOIP_DB_PATH: optionalString,
  UPLOAD_TIMEOUT_MS: integer(120_000, 1000, 3_600_000),
  LOG_LEVEL: oneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'info'),
  INSTANCE_ID: optionalString.refine((v) => v === undefined || /^[\x21-\x7e]{1,128}$/.test(v), {
    message: 'must be 1 to 128 printable characters without spaces',
  }),
  OTEL_EXPORTER_OTLP_ENDPOINT: optionalUrl(['http:', 'https:']),
  SHUTDOWN_TIMEOUT_MS: integer(10_000, 0, 600_000),
  DATABASE_STATEMENT_TIMEOUT_MS: integer(15_000, 0, 3_600_000).refine((v) => v === 0 || v >= 100, {
    message: 'must be 0 (no limit) or at least 100',
  }),
  WORKERS_ENABLED: flag(true),
  QUEUE_LEASE_MS: integer(0, 0, 3_600_000).refine((v) => v === 0 || v >= 1000, {
    message: 'must be 0 (each queue its own) or at least 1000',
  }),
  PUBLIC_PERSONAL_DATA_LISTS: optionalString.pipe(
    z.enum(['true', 'false'], { error: 'must be true or false' }).optional(),
  ),
  PRIVACY_AUDIT_SECRET: optionalString,
  ...RETENTION_VARIABLES,
});

export type Env = z.input<typeof envSchema>;

/**
 * What each variable means and its default, for the README's configuration table
 * (`npm run config:table` prints it; a test keeps the README in sync). Typed over the schema's keys,
 * so a variable cannot be added without documenting it.
 */
export const ENV_DOCS: Record<keyof typeof envSchema.shape, [meaning: string, fallback: string]> = {
  NODE_ENV: [
    '`production` refuses to start without CAPTCHA_SECRET (unless CAPTCHA_DISABLED=true)',
    '`development`',
  ],
  PORT: ['listen port', '`8787`'],
  HOST: ['listen address', '`0.0.0.0`'],
  PUBLIC_BASE_URL: ['absolute base for `previewUrl` and links in e-mails', '`http://localhost:$PORT`'],
  DATABASE_URL: ['`sqlite:<path>`, `sqlite::memory:` or `postgres://…`', '`sqlite:./data/app.db`'],
  SITE_ORIGIN: ["the site's CORS origin", '`http://localhost:5173`'],
  WWW_SITE_ORIGIN: ['the `www` CORS origin', 'derived from SITE_ORIGIN (none for localhost)'],
  WIZARD_URL: ['default `ctaUrl` of recommend-plan', '`$SITE_ORIGIN/wizard`'],
  AI_BASE_URL: [
    'OpenAI-compatible API base (`POST $AI_BASE_URL/chat/completions`)',
    'unset: built-in offline engine',
  ],
  AI_API_KEY: ['bearer key for AI_BASE_URL', 'unset'],
  AI_MODEL: ['model name (required with AI_BASE_URL)', 'unset'],
  AI_TIMEOUT_MS: ['timeout of one model call', '`20000`'],
  CHAT_API_SECRET: [
    '`X-Chat-Api-Key` secret (chat, lead lookup, trusted leads)',
    'unset: those routes reject all',
  ],
  ADMIN_API_SECRET: [
    '`X-Admin-Api-Key` secret (admin API); must differ from the chat secret',
    'unset: admin API rejects all',
  ],
  CACHE_API_SECRET: [
    '`X-Cache-Api-Key` secret (posts cache purge); must differ from the chat secret',
    'unset: purge rejects all',
  ],
  METRICS_API_SECRET: [
    'bearer secret for `/metrics` (the admin secret works too); must differ from the chat secret',
    'unset',
  ],
  CAPTCHA_SECRET: ['siteverify secret (reCAPTCHA v3, Turnstile, hCaptcha)', 'unset: not enforced (warned)'],
  CAPTCHA_VERIFY_URL: ['siteverify endpoint', '`https://www.google.com/recaptcha/api/siteverify`'],
  CAPTCHA_MIN_SCORE: ['lowest accepted score when the provider returns one', '`0.5`'],
  CAPTCHA_DISABLED: ['`true` allows production without CAPTCHA', 'unset'],
  PIPEDRIVE_API_TOKEN: ['Pipedrive API token', 'unset: CRM sync skipped and reported'],
  PIPEDRIVE_API_URL: ['Pipedrive API base', '`https://api.pipedrive.com`'],
  SMTP_URL: [
    '`smtp://user:pass@host:port` (or `smtps://`); credentials to another host require STARTTLS (`?requireTLS=false` allows a relay without TLS)',
    'unset: stored outbox, visible to the admin',
  ],
  MAIL_FROM: ['sender of every e-mail: `address` or `Name <address>`', '`Agency <no-reply@localhost>`'],
  SUPPORT_EMAIL: ['where lead notifications, contact requests and tickets go', '`support@localhost`'],
  CRM_BCC_EMAIL: ['blind copy of support contact e-mails (CRM mailbox)', 'unset'],
  SALES_AGENT_WS_URL: ['sales-agent backend (`ws://` or `wss://`)', 'unset: built-in agent'],
  SALES_AGENT_CONNECT_TIMEOUT_MS: ['opening the sales-agent WebSocket', '`10000`'],
  SALES_AGENT_IDLE_TIMEOUT_MS: ['longest silence between two sales-agent frames', '`30000`'],
  SALES_AGENT_MAX_DURATION_MS: ['longest one chat answer may stream', '`180000`'],
  CHAT_RATE_LIMIT: ['chat questions per client IP per minute (`0`: unlimited)', '`30`'],
  WORDPRESS_API_URL: [
    'posts upstream, e.g. `https://blog.example.com/wp-json/wp/v2`',
    'unset: posts answer 503',
  ],
  POSTS_CACHE_TTL_SECONDS: ['posts cache lifetime', '`300`'],
  PAGESPEED_API_KEY: ['PageSpeed Insights key', 'unset: local Lighthouse'],
  PAGESPEED_API_URL: [
    'PageSpeed Insights endpoint',
    '`https://www.googleapis.com/pagespeedonline/v5/runPagespeed`',
  ],
  CHROME_PATH: ['Chromium for local Lighthouse and previews', '`/usr/bin/chromium`'],
  SPAM_FILTER_ENABLED: ['only the string `false` disables', 'enabled'],
  VENDOR_FILTER_ENABLED: ['only the string `false` disables', 'enabled'],
  PROTOTYPE_MONTHLY_LIMIT: ['prototypes per kind, per bucket (IP and e-mail), per month', '`2`'],
  PROTOTYPE_GENERATOR: ['`builtin`, `llm` (needs AI_BASE_URL) or `v0` (needs V0_API_KEY)', '`builtin`'],
  V0_API_KEY: ['v0 Platform API key', 'unset'],
  V0_API_URL: ['v0 Platform API base', '`https://api.v0.dev/v1`'],
  TRUST_PROXY: ['client IP source: `none` (socket), `cloudflare`, `xff`', '`none`'],
  ANALYTICS_TRACK_RATE_LIMIT: ['analytics track requests per client IP per minute', '`1200`'],
  ANALYTICS_INBOX_MAX_EVENTS: [
    'analytics events the inbox may hold while its folds keep failing; beyond it track answers 503',
    '`1000000`',
  ],
  AI_RATE_LIMIT: ['recommend-plan and refine calls per client IP per 10 minutes each (`0`: off)', '`30`'],
  LEADS_RATE_LIMIT: [
    'lead submissions per client IP per hour (`0`: off); the sales agent submits for many visitors from one address',
    '`30`',
  ],
  GEOIP_DB_PATH: [
    'a MaxMind-format IP-to-country database',
    'the one in `@ip-location-db/geo-whois-asn-country-mmdb`',
  ],
  FETCH_ALLOW_HOSTS: [
    'comma list of host names or IP literals (no port) URL analysis may reach although private (tests, intranets)',
    'empty',
  ],
  UPLOAD_TIMEOUT_MS: ['longest time a ticket upload (multipart body) may take to arrive', '`120000`'],
  LOG_LEVEL: ['pino level', '`info`'],
  INSTANCE_ID: [
    'names this instance on every log line (`instance`) and on its exported spans',
    'unset: `hostname` and `pid`',
  ],
  OTEL_EXPORTER_OTLP_ENDPOINT: [
    "OpenTelemetry collector (OTLP/HTTP, JSON): spans of requests, jobs and outbound calls go to `<endpoint>/v1/traces`; the SDK also reads `OTEL_EXPORTER_OTLP_HEADERS` (the collector's credentials, `key=value,…`)",
    'unset: nothing exported',
  ],
  SHUTDOWN_TIMEOUT_MS: ['how long shutdown waits for requests and jobs', '`10000`'],
  DATABASE_STATEMENT_TIMEOUT_MS: [
    'PostgreSQL: longest statement of a request or job (then 503); an answer not in 5 s more drops the connection. `0`: no limit',
    '`15000`',
  ],
  WORKERS_ENABLED: ['`false` runs no queue workers (nor the housekeeping) in this instance', 'enabled'],
  QUEUE_LEASE_MS: [
    "lease of a claimed job, renewed while it runs: a crashed worker's job runs again after it",
    'each queue its own (60–120 s)',
  ],
  PUBLIC_PERSONAL_DATA_LISTS: [
    '`true`: `GET /api/leads`, `/api/contact` and the e-mail and phone of `/api/leads/{id}` open to all (the spec); `false`: admin key',
    '`false` when NODE_ENV=production, else `true`',
  ],
  PRIVACY_AUDIT_SECRET: [
    'key of the HMAC standing for an erased address in the privacy audit log (never stored in the database)',
    'derived from ADMIN_API_SECRET',
  ],
  RETENTION_SPAM_DAYS: [
    'days spam and vendor leads, contact and support messages are kept (`0`: until erased)',
    '`30`',
  ],
  RETENTION_MAIL_DAYS: [
    "days the outbox's e-mails (once sent, stored or failed) and dead e-mail jobs are kept",
    '`90`',
  ],
  RETENTION_CHAT_DAYS: ['days chat messages are kept', '`180`'],
  RETENTION_TICKETS_DAYS: ['days support tickets and their files are kept', '`730`'],
  RETENTION_MESSAGES_DAYS: ['days contact-form and genuine support messages are kept', '`730`'],
  RETENTION_LEADS_DAYS: ['days leads (with their prototypes) are kept', '`0`: until erased'],
};

/** The README's configuration table, generated from ENV_DOCS. */
export function configurationTable(): string {
  const rows = Object.entries(ENV_DOCS).map(
    ([name, [meaning, fallback]]) => `| \`${name}\` | ${meaning} | ${fallback} |`,
  );
  return ['| variable | meaning | default |', '|---|---|---|', ...rows].join('\n');
}

export interface Config {
  env: string;
  port: number;
  host: string;
  publicBaseUrl: string;
  databaseUrl: string;
  siteOrigin: string;
  wwwSiteOrigin: string | null;
  /** Every origin CORS echoes: the site's two plus the local development ones. */
  corsOrigins: string[];
  wizardUrl: string;
  ai: { baseUrl: string; apiKey: string | undefined; model: string; timeoutMs: number } | null;
  secrets: {
    chat: string | undefined;
    admin: string | undefined;
    cache: string | undefined;
    /** Protects /metrics; the admin secret is accepted too. */
    metrics: string | undefined;
  };
  captcha: { secret: string | undefined; verifyUrl: string; minScore: number };
  pipedrive: { token: string | undefined; apiUrl: string };
  mail: { smtpUrl: string | undefined; from: string; supportEmail: string; crmBccEmail: string | undefined };
  salesAgentWsUrl: string | undefined;
  /** Bounds on the sales-agent relay (docs/chat.md). */
  salesAgentTimeouts: { connectTimeoutMs: number; idleTimeoutMs: number; maxDurationMs: number };
  /** Chat questions per client IP per minute; 0 means unlimited. */
  chatRateLimitPerMinute: number;
  wordpressApiUrl: string | undefined;
  postsCacheTtlSeconds: number;
  pagespeed: { apiKey: string | undefined; apiUrl: string; chromePath: string | undefined };
  filters: { spam: boolean; vendor: boolean };
  prototypes: {
    monthlyLimit: number;
    generator: 'builtin' | 'llm' | 'v0';
    v0: { apiKey: string | undefined; apiUrl: string };
  };
  trustProxy: 'none' | 'cloudflare' | 'xff';
  fetchAllowHosts: string[];
  analytics: {
    /** Track requests per client IP per minute; 0 turns the limit off. */
    trackRateLimitPerMinute: number;
    /** Events the inbox may hold while folds keep failing (docs/analytics.md, "Write path"). */
    maxInboxEvents: number;
    /** A MaxMind-format country database; unset: the one shipped in the npm package. */
    geoipDbPath: string | undefined;
  };
  /** recommend-plan and refine requests per client IP per 10 minutes, each; 0 turns the limits off. */
  aiRateLimit: number;
  /** POST /api/leads per client IP per hour; 0 turns the limit off. */
  leadsRateLimit: number;
  /** A ticket's multipart body must arrive completely within this time (408 otherwise). */
  uploadTimeoutMs: number;
  logLevel: string;
  /** INSTANCE_ID: on every log line instead of host name and process id. */
  instanceId: string | undefined;
  /** OTEL_EXPORTER_OTLP_ENDPOINT: spans are exported there (OpenTelemetry SDK, loaded only then). */
  otlpEndpoint: string | undefined;
  shutdownTimeoutMs: number;
  /** PostgreSQL: statement_timeout of the serving pool, ms (null: none); migrations and scripts run without it. */
  databaseStatementTimeoutMs: number | null;
  workersEnabled: boolean;
  /** Overrides every queue's job lease (a crashed worker's jobs are re-run this long after); null: each queue's own. */
  queueLeaseMs: number | null;
  privacy: {
    /** `public`: the listings of personal data are open as the spec has them; `admin`: they need the admin key. */
    personalDataLists: 'public' | 'admin';
    /** Keys the audit log's address hash; unset: derived from the admin secret. */
    auditSecret: string | undefined;
    /** Days each kind of personal data is kept; 0 keeps it until erased (docs/privacy.md). */
    retentionDays: {
      spam: number;
      mail: number;
      chat: number;
      tickets: number;
      messages: number;
      leads: number;
    };
  };
}

export class ConfigError extends Error {
  readonly variable: string;
  constructor(variable: string, message: string) {
    super(`${variable} ${message}`);
    this.variable = variable;
  }
}

const LOCAL_DEV_ORIGINS = ['http://localhost:5173', 'http://localhost:3000'];

function deriveWwwOrigin(siteOrigin: string): string | null {
  const url = new URL(siteOrigin);
  const host = url.hostname;
  if (host === 'localhost' || /^[\d.]+$/.test(host) || host.includes(':') || host.startsWith('www.'))
    return null;
  url.hostname = `www.${host}`;
  return url.origin;
}

/**
 * The configuration of a command (the server, the ingest CLI): `.env` read if present, then the
 * environment parsed; a bad value ends the process with one line naming the variable and exit code 1.
 */
export function loadConfigOrExit(): Config {
  if (existsSync('.env')) process.loadEnvFile('.env');
  try {
    return loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Configuration error: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
}

/**
 * The database URL alone (DATABASE_URL, `.env` read too), for the database commands (`npm run
 * db:migrate`, `db:backup`): a migration job run with the image's environment (NODE_ENV=production)
 * needs no CAPTCHA secret or any other service's setting. Exits 1 with one line when it is invalid.
 */
export function loadDatabaseUrlOrExit(): string {
  if (existsSync('.env')) process.loadEnvFile('.env');
  const parsed = envSchema.pick({ DATABASE_URL: true }).safeParse(process.env);
  if (!parsed.success) {
    console.error(`Configuration error: DATABASE_URL ${parsed.error.issues[0]?.message ?? 'is invalid'}`);
    process.exit(1);
  }
  return parsed.data.DATABASE_URL;
}

/** Parses and validates the environment; throws ConfigError naming the first bad variable. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  // Parsed once per process: zod's compiled fast path (code generated for every variable) would cost
  // more to build than it saves (~5 ms of start-up).
  const parsed = envSchema.safeParse(env, { jitless: true });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const variable = String(issue?.path[0] ?? 'environment');
    throw new ConfigError(variable, issue?.message ?? 'is invalid');
  }
  const e = parsed.data;

  // The chat secret ships to browsers: a secret equal to it is no secret.
  for (const name of [
    'ADMIN_API_SECRET',
    'CACHE_API_SECRET',
    'METRICS_API_SECRET',
    'PRIVACY_AUDIT_SECRET',
  ] as const) {
    if (e[name] && e.CHAT_API_SECRET && e[name] === e.CHAT_API_SECRET) {
      throw new ConfigError(name, 'must not equal CHAT_API_SECRET (the chat secret ships to browsers)');
    }
  }
  if (e.NODE_ENV === 'production' && !e.CAPTCHA_SECRET && e.CAPTCHA_DISABLED !== true) {
    throw new ConfigError(
      'CAPTCHA_SECRET',
      'is required when NODE_ENV=production (or set CAPTCHA_DISABLED=true)',
    );
  }
  if (e.AI_BASE_URL && !e.AI_MODEL) {
    throw new ConfigError('AI_MODEL', 'is required when AI_BASE_URL is set');
  }

  const siteOrigin = new URL(e.SITE_ORIGIN).origin;
  const wwwSiteOrigin = e.WWW_SITE_ORIGIN ? new URL(e.WWW_SITE_ORIGIN).origin : deriveWwwOrigin(siteOrigin);
  const publicBaseUrl = (e.PUBLIC_BASE_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');

  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    publicBaseUrl,
    databaseUrl: e.DATABASE_URL,
    siteOrigin,
    wwwSiteOrigin,
    corsOrigins: [...new Set([siteOrigin, ...(wwwSiteOrigin ? [wwwSiteOrigin] : []), ...LOCAL_DEV_ORIGINS])],
    wizardUrl: e.WIZARD_URL ?? `${siteOrigin}/wizard`,
    ai: e.AI_BASE_URL
      ? {
          baseUrl: e.AI_BASE_URL.replace(/\/+$/, ''),
          apiKey: e.AI_API_KEY,
          model: e.AI_MODEL ?? '',
          timeoutMs: e.AI_TIMEOUT_MS,
        }
      : null,
    secrets: {
      chat: e.CHAT_API_SECRET,
      admin: e.ADMIN_API_SECRET,
      cache: e.CACHE_API_SECRET,
      metrics: e.METRICS_API_SECRET,
    },
    captcha: {
      secret: e.CAPTCHA_DISABLED === true ? undefined : e.CAPTCHA_SECRET,
      verifyUrl: e.CAPTCHA_VERIFY_URL,
      minScore: e.CAPTCHA_MIN_SCORE,
    },
    pipedrive: { token: e.PIPEDRIVE_API_TOKEN, apiUrl: e.PIPEDRIVE_API_URL.replace(/\/+$/, '') },
    mail: {
      smtpUrl: e.SMTP_URL,
      from: e.MAIL_FROM,
      supportEmail: e.SUPPORT_EMAIL,
      crmBccEmail: e.CRM_BCC_EMAIL,
    },
    salesAgentWsUrl: e.SALES_AGENT_WS_URL,
    salesAgentTimeouts: {
      connectTimeoutMs: e.SALES_AGENT_CONNECT_TIMEOUT_MS,
      idleTimeoutMs: e.SALES_AGENT_IDLE_TIMEOUT_MS,
      maxDurationMs: e.SALES_AGENT_MAX_DURATION_MS,
    },
    chatRateLimitPerMinute: e.CHAT_RATE_LIMIT,
    wordpressApiUrl: e.WORDPRESS_API_URL?.replace(/\/+$/, ''),
    postsCacheTtlSeconds: e.POSTS_CACHE_TTL_SECONDS,
    pagespeed: { apiKey: e.PAGESPEED_API_KEY, apiUrl: e.PAGESPEED_API_URL, chromePath: e.CHROME_PATH },
    filters: { spam: e.SPAM_FILTER_ENABLED, vendor: e.VENDOR_FILTER_ENABLED },
    prototypes: {
      monthlyLimit: e.PROTOTYPE_MONTHLY_LIMIT,
      generator: e.PROTOTYPE_GENERATOR,
      v0: { apiKey: e.V0_API_KEY, apiUrl: e.V0_API_URL.replace(/\/+$/, '') },
    },
    trustProxy: e.TRUST_PROXY,
    fetchAllowHosts: e.FETCH_ALLOW_HOSTS,
    analytics: {
      trackRateLimitPerMinute: e.ANALYTICS_TRACK_RATE_LIMIT,
      maxInboxEvents: e.ANALYTICS_INBOX_MAX_EVENTS,
      geoipDbPath: e.GEOIP_DB_PATH,
    },
    aiRateLimit: e.AI_RATE_LIMIT,
    leadsRateLimit: e.LEADS_RATE_LIMIT,
    uploadTimeoutMs: e.UPLOAD_TIMEOUT_MS,
    logLevel: e.LOG_LEVEL,
    instanceId: e.INSTANCE_ID,
    otlpEndpoint: e.OTEL_EXPORTER_OTLP_ENDPOINT,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    databaseStatementTimeoutMs:
      e.DATABASE_STATEMENT_TIMEOUT_MS === 0 ? null : e.DATABASE_STATEMENT_TIMEOUT_MS,
    workersEnabled: e.WORKERS_ENABLED,
    queueLeaseMs: e.QUEUE_LEASE_MS === 0 ? null : e.QUEUE_LEASE_MS,
    privacy: {
      personalDataLists:
        (e.PUBLIC_PERSONAL_DATA_LISTS ?? (e.NODE_ENV === 'production' ? 'false' : 'true')) === 'true'
          ? 'public'
          : 'admin',
      auditSecret: e.PRIVACY_AUDIT_SECRET,
      retentionDays: {
        spam: e.RETENTION_SPAM_DAYS,
        mail: e.RETENTION_MAIL_DAYS,
        chat: e.RETENTION_CHAT_DAYS,
        tickets: e.RETENTION_TICKETS_DAYS,
        messages: e.RETENTION_MESSAGES_DAYS,
        leads: e.RETENTION_LEADS_DAYS,
      },
    },
  };
}

/** Every secret value in the configuration (for the logger's scrubbing): keys, tokens, passwords. */
export function secretValues(config: Config): string[] {
  const smtpPassword = (() => {
    if (!config.mail.smtpUrl) return undefined;
    const password = new URL(config.mail.smtpUrl).password;
    return password ? decodeURIComponent(password) : undefined;
  })();
  return [
    config.secrets.chat,
    config.secrets.admin,
    config.secrets.cache,
    config.secrets.metrics,
    config.captcha.secret,
    config.pipedrive.token,
    smtpPassword,
    config.ai?.apiKey,
    config.prototypes.v0.apiKey,
    config.pagespeed.apiKey,
    config.privacy.auditSecret,
  ].filter((v): v is string => typeof v === 'string' && v.length > 0);
}

/** One line for the start-up log: which outside services are real and which are offline defaults. */
export function describeServices(config: Config): Record<string, string> {
  return {
    database: config.databaseUrl.startsWith('sqlite:') ? 'sqlite' : 'postgresql',
    llm: config.ai
      ? `openai-compatible (${new URL(config.ai.baseUrl).host}, ${config.ai.model})`
      : 'built-in offline engine',
    captcha: config.captcha.secret
      ? `siteverify (${new URL(config.captcha.verifyUrl).host})`
      : 'not enforced',
    crm: config.pipedrive.token ? 'pipedrive' : 'skipped',
    mail: config.mail.smtpUrl ? `smtp (${new URL(config.mail.smtpUrl).host})` : 'stored outbox',
    salesAgent: config.salesAgentWsUrl
      ? `websocket (${new URL(config.salesAgentWsUrl).host})`
      : 'built-in agent',
    wordpress: config.wordpressApiUrl ? new URL(config.wordpressApiUrl).host : 'not configured',
    pagespeed: config.pagespeed.apiKey ? 'pagespeed insights' : 'local lighthouse',
    prototypes: config.prototypes.generator,
    tracing: config.otlpEndpoint ? `otlp (${new URL(config.otlpEndpoint).host})` : 'trace ids in logs only',
    personalDataLists:
      config.privacy.personalDataLists === 'admin'
        ? 'need X-Admin-Api-Key (GET /api/leads, /api/contact; e-mail and phone of /api/leads/{id})'
        : 'open to anyone, as the spec has them (PUBLIC_PERSONAL_DATA_LISTS)',
  };
}
