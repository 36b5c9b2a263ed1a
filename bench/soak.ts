/**
 * `npm run bench -- --soak`: a sustained MIXED load at a fixed request rate against the real server
 * process, on SQLite and on PostgreSQL, checking that nothing fails and that memory does not grow.
 *
 *   npm run bench -- --soak [--duration 60] [--engine sqlite|postgres|both] [--rate 200]
 *                           [--warmup 5] [--growth-bound 100] [--late-growth-bound 25] [--calibrate]
 *
 * One autocannon instance per route, each at a fixed rate (`overallRate`, its share of `--rate`),
 * all running at once: lead submissions, the two AI routes on the built-in engine, analytics track,
 * posts cache hits (WordPress stand-in process, cache warmed first) and /health. Every request comes
 * from its own client address (`TRUST_PROXY=xff`, a fresh `X-Forwarded-For` each time), as real
 * visitors do, so the per-IP limits stay at their production defaults and never bite; every lead has
 * its own e-mail address.
 *
 * A warm-up phase (`--warmup` s of the same mix) brings JIT, pools and caches to steady state; then
 * the measured phase runs `--duration` s. Fails (exit 1) when any request errs (socket error,
 * timeout, a status other than the route's expected one, a posts answer that is not a cache HIT, a
 * lead answer without leadId), when the server logs an error, when a route falls below 90 % of its
 * target rate (the machine did not hold it), when the leads stored differ from the leads
 * acknowledged, or when the server's RSS grows by more than `--growth-bound` MB (default 100) from the
 * end of the warm-up to the end of the load, or by more than `--late-growth-bound` MB (default 25) in
 * the second half of the load. V8 sizes its heap up to the load's steady state during the first half
 * (about 80 MB on PostgreSQL, then flat); a leak grows linearly and shows in the second half too. The
 * run scrapes /metrics every 10 s (as Prometheus would) and prints the RSS and heap timeline.
 *
 * `--calibrate` instead measures each route alone at saturation (10 connections, 5 s): the default
 * `--rate` was chosen from it (see README, Benchmarks).
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import autocannon from 'autocannon';
import pg from 'pg';
import { APP, printTable, rssMb, type Started, sleep, start, stop } from './process.ts';

type Engine = 'sqlite' | 'postgres';

const BROWSER_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';
const POSTGRES_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const METRICS_SECRET = randomBytes(16).toString('hex');
/** How often the run scrapes /metrics (as Prometheus would) for the memory timeline. */
const SCRAPE_MS = 10_000;
/** A route below this share of its target rate means the machine did not hold the load. */
const MIN_ACHIEVED = 0.9;

interface Built {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

interface SoakRoute {
  name: string;
  /** Share of the total rate. */
  share: number;
  /** The one status every answer must have. */
  expect: number;
  /** The n-th request of this route (n counts from 0). */
  build(n: number): Built;
  /** A problem with a 2xx answer, or null. */
  check?(headers: Record<string, string>, body: string): string | null;
  /** Called with each accepted answer's body. */
  accepted?(body: string): void;
}

/** autocannon's `setupRequest` for a route: its n-th request, from a fresh client address. */
function buildsOf(route: SoakRoute) {
  let n = 0;
  return <T extends object>(request: T) => {
    const built = route.build(n++);
    return { ...request, ...built, headers: { ...built.headers, 'x-forwarded-for': freshAddress() } };
  };
}

let addressCounter = 0;
/** A fresh client address per request (10.0.0.1, 10.0.0.2, …). */
function freshAddress(): string {
  const n = ++addressCounter;
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
}

const PROJECTS = [
  'We need a new website for our dental clinic, clean and modern, with online booking by June.',
  'Our online shop on an old platform is slow; we want to move it and grow sales abroad.',
  'A mobile app for our gym members: class schedule, bookings and payments.',
  'We are a law firm and want a professional site with articles and a contact form in two languages.',
  'Our SaaS dashboard needs a redesign and someone to take over maintenance and hosting.',
  'I have an idea for a marketplace connecting local farmers with restaurants; where do I start?',
];
/** The leadId of every lead answered 200, checked against the database after the run. */
const acknowledgedLeads = new Set<string>();
const project = (n: number) => `${PROJECTS[n % PROJECTS.length]} (request ${n})`;
const json = { 'content-type': 'application/json' };

export const SOAK_ROUTES: SoakRoute[] = [
  {
    name: 'POST /api/leads',
    share: 0.05,
    expect: 200,
    build: (n) => ({
      method: 'POST',
      path: '/api/leads',
      headers: json,
      body: JSON.stringify({
        personal: {
          name: `Soak Visitor ${n}`,
          email_address: `soak.${n}.${randomBytes(3).toString('hex')}@example.com`,
          phone_number: '+57 300 000 0000',
          company: 'Hotel Sol',
          position: 'Owner',
        },
        steps: {
          initial_choice: 'create',
          service: 'build-website',
          ...(n % 3 === 0 ? { prototype: 'landing' } : {}),
          goal: `More direct bookings for our hotel (${n})`,
          industry: 'hospitality',
          features: ['booking', 'gallery'],
          style: 'modernMinimalist',
          audience: 'b2c',
        },
        source_url: 'https://agency.example/wizard',
        language: n % 2 ? 'en' : 'es',
      }),
    }),
    check: (_headers, body) => (body.includes('"leadId"') ? null : 'no leadId in the answer'),
    accepted: (body) => acknowledgedLeads.add((JSON.parse(body) as { leadId: string }).leadId),
  },
  {
    name: 'POST /api/ai/recommend-plan',
    share: 0.1,
    expect: 200,
    build: (n) => ({
      method: 'POST',
      path: '/api/ai/recommend-plan',
      headers: json,
      body: JSON.stringify({ message: project(n), locale: n % 2 ? 'en' : 'es' }),
    }),
  },
  {
    name: 'POST /api/ai/refine',
    share: 0.1,
    expect: 200,
    build: (n) => ({
      method: 'POST',
      path: '/api/ai/refine',
      headers: json,
      body: JSON.stringify({ message: project(n + 1), locale: 'en' }),
    }),
  },
  {
    name: 'POST /api/analytics/track',
    share: 0.25,
    expect: 202,
    build: (n) => ({
      method: 'POST',
      path: '/api/analytics/track',
      headers: { 'content-type': 'text/plain;charset=UTF-8', 'user-agent': BROWSER_UA },
      body: JSON.stringify({
        type: n % 4 ? 'page_view' : 'cta_click',
        page: `https://agency.example/${['pricing', 'services', 'blog/fast-sites', 'contact'][n % 4]}?utm_source=news`,
        referrer: 'https://www.google.com/',
        title: 'Agency',
        properties: { plan: 'pro', n },
      }),
    }),
  },
  {
    name: 'GET /api/posts (cache hit)',
    share: 0.3,
    expect: 200,
    build: () => ({ method: 'GET', path: '/api/posts?per_page=5&page=1' }),
    check: (headers) =>
      header(headers, 'x-cache') === 'HIT' ? null : `X-Cache ${header(headers, 'x-cache')}`,
  },
  {
    name: 'GET /health',
    share: 0.2,
    expect: 200,
    build: () => ({ method: 'GET', path: '/health' }),
  },
];

function header(headers: Record<string, string>, name: string): string | undefined {
  for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === name) return String(value);
  return undefined;
}

interface RouteResult {
  route: SoakRoute;
  target: number;
  requests: number;
  errors: number;
  p50: number;
  p99: number;
  max: number;
  problems: string[];
}

/** One autocannon instance for a route at a fixed rate; counts every unexpected answer as an error. */
async function drive(url: string, route: SoakRoute, rate: number, seconds: number): Promise<RouteResult> {
  let unexpected = 0;
  const problems: string[] = [];
  const note = (problem: string) => {
    unexpected++;
    if (problems.length < 3) problems.push(problem);
  };
  const result = await autocannon({
    url,
    connections: Math.max(2, Math.ceil(rate / 10)),
    overallRate: rate,
    // Latency from each request's write to its answer. autocannon's coordinated-omission correction
    // takes 1/rate (rounded up to 1 ms) as the expected interval, in the wrong unit, and fills the
    // histogram with synthetic samples from 1 ms up; far below saturation there is little to correct.
    ignoreCoordinatedOmission: true,
    duration: seconds,
    timeout: 10,
    requests: [
      {
        setupRequest: buildsOf(route),
        onResponse: (status, body, _context, headers) => {
          const text = String(body ?? '');
          if (status >= 200 && status < 300) {
            if (status !== route.expect) note(`status ${status}`);
            else {
              const problem = route.check?.(headers as Record<string, string>, text);
              if (problem) note(problem);
              else route.accepted?.(text);
            }
          } else if (problems.length < 3) problems.push(`status ${status}: ${text.slice(0, 160)}`);
        },
      },
    ],
  });
  if (result.errors > 0) problems.push(`${result.errors} socket errors, ${result.timeouts} of them timeouts`);
  return {
    route,
    target: rate,
    requests: result.requests.total,
    errors: result.errors + result.non2xx + unexpected,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    problems,
  };
}

interface Database {
  url: string;
  drop(): Promise<void>;
}

/** A fresh database: a new SQLite file, or a new schema on the PostgreSQL server (dropped after). */
async function freshDatabase(engine: Engine): Promise<Database> {
  if (engine === 'sqlite') {
    const path = `/tmp/soak-${process.pid}.db`;
    const remove = () => {
      for (const suffix of ['', '-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true });
    };
    remove();
    return { url: `sqlite:${path}`, drop: async () => remove() };
  }
  const schema = `soak_${randomBytes(6).toString('hex')}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: POSTGRES_URL });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`create schema ${schema}`);
  const url = new URL(POSTGRES_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return { url: url.toString(), drop: () => admin(`drop schema if exists ${schema} cascade`) };
}

async function startApp(engine: Engine, database: Database, wordpress: Started, logFile: string) {
  const app = await start(
    APP,
    {
      DATABASE_URL: database.url,
      TRUST_PROXY: 'xff',
      WORDPRESS_API_URL: `${wordpress.url}/wp-json/wp/v2`,
      POSTS_CACHE_TTL_SECONDS: '3600',
      METRICS_API_SECRET: METRICS_SECRET,
      NODE_ENV: 'development',
    },
    { logFile },
  );
  // Warm the posts cache: the first request fills it, the second must be a hit.
  await fetch(`${app.url}/api/posts?per_page=5&page=1`).then((r) => r.arrayBuffer());
  const again = await fetch(`${app.url}/api/posts?per_page=5&page=1`);
  await again.arrayBuffer();
  if (again.headers.get('x-cache') !== 'HIT') throw new Error(`${engine}: the posts cache did not warm`);
  return app;
}

/**
 * A fresh database and the app on it. Retried (on another fresh database) when the server dies while
 * starting: Kysely's migrator lists the tables of every schema on the server, which fails when a
 * test run elsewhere drops its schema at that moment (a shared test server, never production).
 */
async function startFresh(engine: Engine, wordpress: Started, logFile: string) {
  for (let attempt = 1; ; attempt++) {
    const database = await freshDatabase(engine);
    try {
      return { app: await startApp(engine, database, wordpress, logFile), database };
    } catch (error) {
      await database.drop();
      if (attempt === 3) throw error;
      console.log(`${engine}: the server did not start (${(error as Error).message}); retrying`);
    }
  }
}

/** All routes at once, each at its share of `rate`. */
function mixed(url: string, rate: number, seconds: number): Promise<RouteResult[]> {
  return Promise.all(SOAK_ROUTES.map((route) => drive(url, route, Math.max(1, rate * route.share), seconds)));
}

interface LogLine {
  level?: number;
  time?: number;
  msg?: string;
  method?: string;
  route?: string;
  durationMs?: number;
}

function readLog(logFile: string): { line: string; entry: LogLine }[] {
  return readFileSync(logFile, 'utf8')
    .split('\n')
    .flatMap((line) => {
      try {
        return [{ line, entry: JSON.parse(line) as LogLine }];
      } catch {
        return [];
      }
    });
}

/**
 * Server-side p50/p99 per route of the measured phase, from the request log's `durationMs` (time
 * inside the app, without the client's and the kernel's share, so far less noisy on a busy machine).
 */
function serverLatencies(log: { entry: LogLine }[], from: number, to: number): Map<string, [number, number]> {
  const byRoute = new Map<string, number[]>();
  for (const { entry } of log) {
    if (entry.msg !== 'request' || entry.time! < from || entry.time! > to) continue;
    const key = `${entry.method} ${entry.route}`;
    byRoute.set(key, [...(byRoute.get(key) ?? []), entry.durationMs!]);
  }
  const result = new Map<string, [number, number]>();
  for (const [key, values] of byRoute) {
    values.sort((a, b) => a - b);
    const at = (q: number) => values[Math.min(values.length - 1, Math.floor(values.length * q))]!;
    result.set(key, [at(0.5), at(0.99)]);
  }
  return result;
}

interface EngineRun {
  engine: Engine;
  results: RouteResult[];
  rss: { idle: number; before: number; middle: number; after: number; peak: number };
  /** Seconds into the measured phase, RSS, V8 heap size and heap used (MB), scraped from /metrics. */
  timeline: number[][];
  warmupErrors: number;
  leadsAcknowledged: number;
  /** Acknowledged leads missing from the database (must be 0). */
  leadsMissing: number;
  /** Stored leads never acknowledged: requests in flight when autocannon stopped (≤ connections). */
  leadsUnacknowledged: number;
  logErrors: string[];
  serverLatency: Map<string, [number, number]>;
  exitCode: number | null;
  load: string;
}

async function soakEngine(
  engine: Engine,
  wordpress: Started,
  options: { rate: number; duration: number; warmup: number },
): Promise<EngineRun> {
  const logFile = `/tmp/soak-${engine}-${process.pid}.log`;
  const { app, database } = await startFresh(engine, wordpress, logFile);
  try {
    const pid = app.child.pid!;
    await sleep(1000);
    const idle = rssMb(pid);
    let peak = idle;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssMb(pid));
    }, 250);
    let warmupErrors = 0;
    acknowledgedLeads.clear();
    if (options.warmup > 0) {
      const warm = await mixed(app.url, options.rate, options.warmup);
      warmupErrors = warm.reduce((sum, r) => sum + r.errors, 0);
    }
    const before = rssMb(pid);
    console.log(`${engine}: warmed up (RSS ${before.toFixed(1)} MB); ${options.duration} s of mixed load…`);
    const from = Date.now();
    const timeline: number[][] = [];
    const scrape = async () => {
      const text = await (
        await fetch(`${app.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_SECRET}` } })
      ).text();
      const metric = (name: string) => Number(new RegExp(`^${name} (\\S+)`, 'm').exec(text)?.[1]) / 2 ** 20;
      timeline.push([
        Math.round((Date.now() - from) / 1000),
        metric('process_resident_memory_bytes'),
        metric('nodejs_heap_size_total_bytes'),
        metric('nodejs_heap_size_used_bytes'),
      ]);
    };
    await scrape();
    const scraper = setInterval(() => void scrape().catch(() => {}), SCRAPE_MS);
    let middle = before;
    const halfway = setTimeout(
      () => {
        middle = rssMb(pid);
      },
      (options.duration * 1000) / 2,
    );
    const results = await mixed(app.url, options.rate, options.duration);
    clearInterval(scraper);
    clearTimeout(halfway);
    await scrape();
    const to = Date.now();
    const after = rssMb(pid);
    clearInterval(sampler);
    peak = Math.max(peak, after);
    const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
    await sleep(500); // requests still in flight when autocannon stopped
    const list = (await (await fetch(`${app.url}/api/leads?all=true`)).json()) as { leads: { id: string }[] };
    const stored = new Set(list.leads.map((lead) => lead.id));
    const exitCode = await stop(app.child);
    await sleep(200); // the log stream's last write
    const log = readLog(logFile);
    return {
      engine,
      results,
      rss: { idle, before, middle, after, peak },
      timeline,
      warmupErrors,
      leadsAcknowledged: acknowledgedLeads.size,
      leadsMissing: [...acknowledgedLeads].filter((id) => !stored.has(id)).length,
      leadsUnacknowledged: [...stored].filter((id) => !acknowledgedLeads.has(id)).length,
      logErrors: log.filter(({ entry }) => entry.level! >= 50).map(({ line }) => line),
      serverLatency: serverLatencies(log, from, to),
      exitCode,
      load,
    };
  } finally {
    await database.drop();
  }
}

async function calibrate(engines: Engine[], wordpress: Started, rate: number): Promise<void> {
  for (const engine of engines) {
    const logFile = `/tmp/soak-calibrate-${engine}-${process.pid}.log`;
    const { app, database } = await startFresh(engine, wordpress, logFile);
    try {
      const rows = [['route', 'saturation req/s', 'soak rate', 'share of saturation']];
      let used = 0;
      for (const route of SOAK_ROUTES) {
        const result = await autocannon({
          url: app.url,
          connections: 10,
          duration: 5,
          requests: [{ setupRequest: buildsOf(route) }],
        });
        const target = rate * route.share;
        used += target / result.requests.average;
        rows.push([
          route.name,
          result.requests.average.toFixed(0),
          target.toFixed(0),
          `${((100 * target) / result.requests.average).toFixed(1)} %`,
        ]);
      }
      await stop(app.child);
      console.log(`\n${engine}, each route alone, 10 connections, 5 s`);
      printTable(rows);
      console.log(
        `the soak's mix at ${rate} req/s uses ${(100 * used).toFixed(0)} % of this capacity (Σ rate / saturation)`,
      );
    } finally {
      await database.drop();
      rmSync(logFile, { force: true });
    }
  }
}

const serverColumn = (latency: [number, number] | undefined) =>
  latency ? `${latency[0].toFixed(2)} / ${latency[1].toFixed(2)}` : '-';

export async function soak(args: string[]): Promise<number> {
  const option = (name: string) => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const duration = Number(option('duration') ?? 60);
  const rate = Number(option('rate') ?? 200);
  const warmup = Number(option('warmup') ?? 5);
  const bound = Number(option('growth-bound') ?? 100);
  const lateBound = Number(option('late-growth-bound') ?? 25);
  const engineOption = option('engine') ?? 'both';
  if (!['sqlite', 'postgres', 'both'].includes(engineOption)) {
    console.error('--engine must be sqlite, postgres or both');
    return 2;
  }
  const engines: Engine[] = engineOption === 'both' ? ['sqlite', 'postgres'] : [engineOption as Engine];

  const wordpress = await start('bench/wordpress-stand-in.ts', {});
  try {
    if (args.includes('--calibrate')) {
      await calibrate(engines, wordpress, rate);
      return 0;
    }
    let failed = false;
    for (const engine of engines) {
      const run = await soakEngine(engine, wordpress, { rate, duration, warmup });
      const rows = [
        [
          'route',
          'target/s',
          'achieved/s',
          'requests',
          'errors',
          'p50 ms',
          'p99 ms',
          'max ms',
          'server p50 / p99 ms',
        ],
      ];
      const problems: string[] = [];
      for (const r of run.results) {
        const achieved = r.requests / duration;
        if (r.errors > 0) problems.push(`${r.route.name}: ${r.errors} errors (${r.problems.join('; ')})`);
        if (achieved < r.target * MIN_ACHIEVED) {
          problems.push(
            `${r.route.name}: ${achieved.toFixed(1)}/s, below ${MIN_ACHIEVED * 100} % of ${r.target}/s`,
          );
        }
        rows.push([
          r.route.name,
          r.target.toFixed(0),
          achieved.toFixed(1),
          String(r.requests),
          `${r.errors} (${((100 * r.errors) / Math.max(1, r.requests)).toFixed(2)} %)`,
          String(r.p50),
          String(r.p99),
          String(r.max),
          serverColumn(run.serverLatency.get(r.route.name.replace(/ \(.*\)$/, ''))),
        ]);
      }
      const total = run.results.reduce((sum, r) => sum + r.requests, 0);
      const errors = run.results.reduce((sum, r) => sum + r.errors, 0);
      rows.push([
        'all',
        String(rate),
        (total / duration).toFixed(1),
        String(total),
        String(errors),
        '',
        '',
        '',
        '',
      ]);
      const growth = run.rss.after - run.rss.before;
      const lateGrowth = run.rss.after - run.rss.middle;
      if (growth > bound) problems.push(`RSS grew ${growth.toFixed(1)} MB (bound ${bound} MB)`);
      if (lateGrowth > lateBound) {
        problems.push(`RSS grew ${lateGrowth.toFixed(1)} MB in the second half (bound ${lateBound} MB)`);
      }
      if (run.warmupErrors > 0) problems.push(`${run.warmupErrors} errors during the warm-up`);
      if (run.leadsMissing > 0) problems.push(`${run.leadsMissing} acknowledged leads are not stored`);
      if (run.logErrors.length > 0) {
        problems.push(
          `${run.logErrors.length} error lines in the server log, e.g. ${run.logErrors[0]!.slice(0, 300)}`,
        );
      }
      if (run.exitCode !== 0) problems.push(`the server exited with ${run.exitCode} on SIGTERM`);

      console.log(
        `\nsoak on ${run.engine}: ${duration} s at ${rate} req/s after ${warmup} s of warm-up, ${new Date().toISOString()}, load average ${run.load}`,
      );
      printTable(rows);
      console.log(
        `server RSS: idle ${run.rss.idle.toFixed(1)} MB, after warm-up ${run.rss.before.toFixed(1)} MB, ` +
          `halfway ${run.rss.middle.toFixed(1)} MB, after the load ${run.rss.after.toFixed(1)} MB, peak ` +
          `${run.rss.peak.toFixed(1)} MB → growth ${growth.toFixed(1)} MB (bound < ${bound} MB ` +
          `${growth > bound ? 'MISSED' : 'ok'}), in the second half ${lateGrowth.toFixed(1)} MB (bound < ` +
          `${lateBound} MB ${lateGrowth > lateBound ? 'MISSED' : 'ok'})`,
      );
      console.log(
        `memory timeline (s: RSS / V8 heap size / heap used, MB): ${run.timeline
          .map(([at, ...mb]) => `${at}: ${mb.map((v) => v!.toFixed(0)).join(' / ')}`)
          .join(', ')}`,
      );
      console.log(
        `leads (warm-up included): ${run.leadsAcknowledged} acknowledged, ${run.leadsMissing} of them missing ` +
          `from the database; ${run.leadsUnacknowledged} more stored from requests in flight when the load stopped`,
      );
      for (const problem of problems) console.log(`FAIL ${problem}`);
      if (problems.length > 0) failed = true;
    }
    return failed ? 1 : 0;
  } finally {
    await stop(wordpress.child);
  }
}
