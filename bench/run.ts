/**
 * `npm run bench`: autocannon against the app (full middleware stack, real server process) and
 * against a bare node:http server answering the same JSON, in the same run; prints req/s, p50/p99
 * latency and the ratio, plus start-up time and idle RSS. The load generator shares the machine's
 * cores with the server, so single measurements swing by ±15 %: each scenario is measured in
 * `--rounds` rounds (default 3), each round the baseline then the app, and the median round is
 * reported (by ratio). `--only NAME` runs one scenario, `--duration S` sets seconds per measurement
 * (default 5). Ends with the chat relay (bench/chat-relay.ts). `--startup` measures start-up and idle
 * RSS only.
 *
 * `--soak` runs the sustained mixed-load soak instead (bench/soak.ts).
 */
import { rmSync } from 'node:fs';
import autocannon from 'autocannon';
import { APP, APP_BUILT, printTable, rssMb, sleep, start, stop } from './process.ts';
import { type Scenario, scenarios } from './scenarios.ts';

const args = process.argv.slice(2);
const option = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
if (args.includes('--soak')) {
  const { soak } = await import('./soak.ts');
  process.exit(await soak(args));
}
const duration = Number(option('duration') ?? 5);
const rounds = Number(option('rounds') ?? 3);
const only = option('only');
const connections = Number(option('connections') ?? 50);

interface Measured {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

async function measure(
  url: string,
  scenario: Pick<Scenario, 'method' | 'path' | 'body' | 'headers'>,
  seconds = duration,
): Promise<Measured> {
  const result = await autocannon({
    url: `${url}${scenario.path}`,
    method: scenario.method,
    body: scenario.body,
    headers: { 'content-type': 'application/json', ...scenario.headers },
    connections,
    duration: seconds,
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

const dbPath = `/tmp/bench-${process.pid}.db`;
const appEnv = { DATABASE_URL: `sqlite:${dbPath}` };

// Start-up time and idle RSS (a second after the first 200 on /health), on a new database each.
const STARTUP_BAR_MS = 300;
const IDLE_RSS_BAR_MB = 100;
if (APP_BUILT) {
  // The first start of a new build compiles it from its text and fills Node's compile cache (as the
  // first start in a new container does); the starts measured below are restarts, which read it.
  rmSync(dbPath, { force: true });
  const cold = await start(APP, appEnv);
  await sleep(1000);
  console.log(
    `bundle built: its first start (cold compile cache, not counted below) ${cold.startupMs.toFixed(0)} ms, CPU ${cold.startupCpuMs} ms, idle RSS ${rssMb(cold.child.pid!).toFixed(1)} MB`,
  );
  await stop(cold.child);
}
// This process's own first fetch loads undici (~40 ms of CPU here); done before timing, so that the
// first start measured does not wait on the poller.
await fetch('http://127.0.0.1:9/').catch(() => {});
const startups: number[] = [];
const startupCpus: number[] = [];
const idleRsses: number[] = [];
for (let i = 0; i < 3; i++) {
  rmSync(dbPath, { force: true });
  const app = await start(APP, appEnv);
  startups.push(app.startupMs);
  startupCpus.push(app.startupCpuMs);
  await sleep(1000);
  idleRsses.push(rssMb(app.child.pid!));
  await stop(app.child);
}
// Restarts on the database the last start left (every restart and scale-out but a deployment's
// first start): reported beside the bar, which holds the new-database starts above.
const restarts: number[] = [];
const restartCpus: number[] = [];
for (let i = 0; i < 3; i++) {
  const app = await start(APP, appEnv);
  restarts.push(app.startupMs);
  restartCpus.push(app.startupCpuMs);
  await stop(app.child);
}

/** Prints start-up and idle RSS (each run's, and the worst against its bar); false when a bar is missed. */
function reportStartup(): boolean {
  const startup = Math.max(...startups);
  const idleRss = Math.max(...idleRsses);
  const each = (values: number[], digits: number) => values.map((v) => v.toFixed(digits)).join(', ');
  console.log(
    `\nstart-up (spawn to first 200 on /health, worst of 3): ${startup.toFixed(0)} ms [${each(startups, 0)}] (bar ≤ ${STARTUP_BAR_MS})`,
  );
  console.log(`start-up CPU (user + system of the server to that 200): [${each(startupCpus, 0)}] ms`);
  console.log(
    `restart on an existing database (no bar): [${each(restarts, 0)}] ms, CPU [${each(restartCpus, 0)}] ms`,
  );
  console.log(
    `idle RSS (worst of 3): ${idleRss.toFixed(1)} MB [${each(idleRsses, 1)}] (bar ≤ ${IDLE_RSS_BAR_MB})`,
  );
  return startup <= STARTUP_BAR_MS && idleRss <= IDLE_RSS_BAR_MB;
}
if (args.includes('--startup')) {
  rmSync(dbPath, { force: true });
  process.exit(reportStartup() ? 0 : 1);
}

// Started once; idle while an app is measured.
const WARM_UP_SECONDS = 2;
const baseline = await start('bench/baseline-server.ts', {});
await measure(baseline.url, { method: 'GET', path: '/health' }, WARM_UP_SECONDS);
const baselineRuns: Measured[] = [];

/** p50 of `count` sequential requests, in ms (fine-grained, unlike autocannon's histogram). */
async function sequentialP50(url: string, body: string, count = 2000): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < count + 200; i++) {
    const began = performance.now();
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    await res.arrayBuffer();
    if (i >= 200) times.push(performance.now() - began); // the first 200 warm up
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

const rows: string[][] = [];
const notes: string[] = [];
let failed = false;
for (const scenario of scenarios.filter((s) => !only || s.name.includes(only))) {
  const standIn = scenario.standIn ? await start(scenario.standIn.script, {}) : null;
  const app = await start(APP, {
    ...appEnv,
    ...scenario.env,
    ...scenario.standIn?.env(standIn!.url),
  });
  await scenario.prepare?.(app.url);
  await measure(app.url, scenario, WARM_UP_SECONDS); // the JIT's first seconds are not the service's speed
  const runs: { app: Measured; baseline: Measured; ratio: number }[] = [];
  for (let round = 0; round < rounds; round++) {
    const base = await measure(baseline.url, { method: 'GET', path: '/health' });
    baselineRuns.push(base);
    const measured = await measure(app.url, scenario);
    runs.push({ app: measured, baseline: base, ratio: measured.rps / base.rps });
  }
  runs.sort((a, b) => a.ratio - b.ratio);
  const median = runs[Math.floor(runs.length / 2)]!;
  const result = median.app;
  if (scenario.overhead && standIn) {
    const direct = await sequentialP50(`${standIn.url}${scenario.overhead.path}`, scenario.overhead.body);
    const through = await sequentialP50(`${app.url}${scenario.path}`, scenario.body ?? '');
    const overhead = through - direct;
    const ok = overhead < scenario.overhead.barMs;
    if (!ok) failed = true;
    notes.push(
      `${scenario.name}: p50 ${through.toFixed(2)} ms through the app vs ${direct.toFixed(2)} ms straight to the stand-in → server-side overhead ${overhead.toFixed(2)} ms (bar < ${scenario.overhead.barMs} ${ok ? 'ok' : 'MISSED'})`,
    );
  }
  await stop(app.child);
  if (standIn) await stop(standIn.child);
  const ratio = median.ratio;
  const ok = scenario.bar === undefined || ratio >= scenario.bar;
  if (!ok) failed = true;
  rows.push([
    scenario.name,
    result.rps.toFixed(0),
    `${result.p50} / ${result.p99}`,
    `${ratio.toFixed(2)} (${runs.map((r) => r.ratio.toFixed(2)).join(' ')})`,
    scenario.bar === undefined ? '-' : `≥ ${scenario.bar} ${ok ? 'ok' : 'MISSED'}`,
    String(runs.reduce((sum, r) => sum + r.app.errors, 0)),
  ]);
}
await stop(baseline.child);
rmSync(dbPath, { force: true });
baselineRuns.sort((a, b) => a.rps - b.rps);
const baselineResult = baselineRuns[Math.floor(baselineRuns.length / 2)]!;

const table = [
  ['scenario', 'req/s', 'p50 / p99 ms', 'ratio (rounds)', 'bar', 'errors'],
  [
    'bare node:http (median)',
    baselineResult.rps.toFixed(0),
    `${baselineResult.p50} / ${baselineResult.p99}`,
    '1.00',
    '-',
    '0',
  ],
  ...rows,
];
console.log(
  `\n${connections} connections, ${duration} s each, ${rounds} rounds (ratio: median round; every round's in brackets), ${new Date().toISOString()}`,
);
printTable(table);
for (const note of notes) console.log(note);
if (!reportStartup() || failed) process.exitCode = 1;

// The chat relay's own measurement (time to first token through the service vs. direct).
if (!only || 'chat-relay'.includes(only)) {
  const { runChatRelayBench } = await import('./chat-relay.ts');
  if (!(await runChatRelayBench())) process.exitCode = 1;
}
