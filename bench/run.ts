/**
 * `npm run bench`: autocannon against the app (full middleware stack, real server process) and
 * against a bare node:http server answering the same JSON, in the same run; prints req/s, p50/p99
 * latency and the ratio, plus start-up time and idle RSS. `--only NAME` runs one scenario,
 * `--duration S` sets seconds per measurement (default 10). Ends with the chat relay (bench/chat-relay.ts).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import { type Scenario, scenarios } from './scenarios.ts';

const args = process.argv.slice(2);
const option = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const duration = Number(option('duration') ?? 10);
const only = option('only');
const connections = Number(option('connections') ?? 50);

interface Started {
  child: ChildProcess;
  url: string;
  startupMs: number;
}

async function start(script: string, env: Record<string, string>): Promise<Started> {
  const began = performance.now();
  const child = spawn(process.execPath, [script], {
    env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      try {
        const entry = JSON.parse(line) as { msg?: string; port?: number };
        if (entry.msg === 'listening' && entry.port) resolve(entry.port);
      } catch {}
    });
  });
  const url = `http://127.0.0.1:${port}`;
  while ((await fetch(`${url}/health`).catch(() => null))?.status !== 200) await sleep(5);
  return { child, url, startupMs: performance.now() - began };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

async function measure(url: string, scenario: Pick<Scenario, 'method' | 'path' | 'body' | 'headers'>) {
  const result = await autocannon({
    url: `${url}${scenario.path}`,
    method: scenario.method,
    body: scenario.body,
    headers: { 'content-type': 'application/json', ...scenario.headers },
    connections,
    duration,
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

function stop(child: ChildProcess) {
  return new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

const dbPath = `/tmp/bench-${process.pid}.db`;
const appEnv = { DATABASE_URL: `sqlite:${dbPath}` };

// Start-up time and idle RSS, on a fresh database each.
const startups: number[] = [];
let idleRss = 0;
for (let i = 0; i < 3; i++) {
  rmSync(dbPath, { force: true });
  const app = await start('src/main.ts', appEnv);
  startups.push(app.startupMs);
  await sleep(1000);
  idleRss = Math.max(idleRss, rssMb(app.child.pid!));
  await stop(app.child);
}

const baseline = await start('bench/baseline-server.ts', {});
const baselineResult = await measure(baseline.url, { method: 'GET', path: '/health' });
await stop(baseline.child);

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
  const app = await start('src/main.ts', {
    ...appEnv,
    ...scenario.env,
    ...scenario.standIn?.env(standIn!.url),
  });
  await scenario.prepare?.(app.url);
  const result = await measure(app.url, scenario);
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
  const ratio = result.rps / baselineResult.rps;
  const ok = scenario.bar === undefined || ratio >= scenario.bar;
  if (!ok) failed = true;
  rows.push([
    scenario.name,
    result.rps.toFixed(0),
    `${result.p50} / ${result.p99}`,
    ratio.toFixed(2),
    scenario.bar === undefined ? '-' : `≥ ${scenario.bar} ${ok ? 'ok' : 'MISSED'}`,
    String(result.errors),
  ]);
}
rmSync(dbPath, { force: true });

const table = [
  ['scenario', 'req/s', 'p50 / p99 ms', 'ratio', 'bar', 'errors'],
  [
    'bare node:http',
    baselineResult.rps.toFixed(0),
    `${baselineResult.p50} / ${baselineResult.p99}`,
    '1.00',
    '-',
    '0',
  ],
  ...rows,
];
const widths = table[0]!.map((_, i) => Math.max(...table.map((r) => r[i]!.length)));
console.log(`\n${connections} connections, ${duration} s each, ${new Date().toISOString()}`);
for (const row of table) console.log(row.map((cell, i) => cell.padEnd(widths[i]!)).join('  '));
for (const note of notes) console.log(note);
const startup = Math.max(...startups);
console.log(`\nstart-up (spawn to first 200 on /health, worst of 3): ${startup.toFixed(0)} ms (bar < 1500)`);
console.log(`idle RSS: ${idleRss.toFixed(1)} MB (bar < 150)`);
if (failed || startup >= 1500 || idleRss >= 150) process.exitCode = 1;

// The chat relay's own measurement (time to first token through the service vs. direct).
if (!only || 'chat-relay'.includes(only)) {
  const { runChatRelayBench } = await import('./chat-relay.ts');
  if (!(await runChatRelayBench())) process.exitCode = 1;
}
