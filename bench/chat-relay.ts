/**
 * The chat relay benchmark (`npm run bench`, or alone: `node bench/chat-relay.ts [--iterations N]`).
 * A local sales agent (the tests' WebSocket stand-in) streams TOKENS tokens per question. The same
 * question is asked, one at a time, directly of the agent over WebSocket and through the service
 * (POST /api/chat/stream, SSE, real server process); both paths open a fresh WebSocket per question.
 * Reported: time to first token on each path and the difference at p50 (bar: < 5 ms), and the
 * per-token overhead: the extra time from first token to `done`, divided by the tokens after the first.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createInterface } from 'node:readline';
import WebSocket from 'ws';
import { startStandInAgent } from '../test/support/sales-agent-stand-in.ts';
import { sseEvents } from '../test/support/sse-client.ts';
import { APP } from './process.ts';

const TOKENS = 50;
const BAR_MS = 5;
const KEY = 'bench-chat-key';

interface Sample {
  firstToken: number;
  done: number;
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};

function askDirect(url: string, sessionId: string): Promise<Sample> {
  return new Promise((resolve, reject) => {
    const began = performance.now();
    let firstToken = 0;
    const ws = new WebSocket(url, { perMessageDeflate: false, headers: { 'X-Forwarded-For': '127.0.0.1' } });
    ws.on('open', () =>
      ws.send(
        JSON.stringify({
          type: 'query',
          version: 1,
          sessionId,
          query: 'Hi',
          language: 'en',
          clientIp: '127.0.0.1',
        }),
      ),
    );
    ws.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as { type: string };
      if (frame.type === 'token' && firstToken === 0) firstToken = performance.now() - began;
      if (frame.type === 'done') {
        resolve({ firstToken, done: performance.now() - began });
        ws.close(1000);
      }
    });
    ws.on('error', reject);
  });
}

async function askService(url: string, sessionId: string): Promise<Sample> {
  const began = performance.now();
  const response = await fetch(`${url}/api/chat/stream`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-chat-api-key': KEY },
    body: JSON.stringify({ sessionId, query: 'Hi', language: 'en' }),
  });
  let firstToken = 0;
  for await (const event of sseEvents(response.body!)) {
    if (event.event === 'token' && firstToken === 0) firstToken = performance.now() - began;
    if (event.event === 'done') return { firstToken, done: performance.now() - began };
    if (event.event === 'error') throw new Error(`stream error: ${event.data}`);
  }
  throw new Error('stream ended without done');
}

async function startService(env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, APP, {
    env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${APP.join(' ')} exited with ${code}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      try {
        const entry = JSON.parse(line) as { msg?: string; port?: number };
        if (entry.msg === 'listening' && entry.port) resolve(entry.port);
      } catch {}
    });
  });
  return { child, url: `http://127.0.0.1:${port}` };
}

export async function runChatRelayBench(options: { iterations?: number } = {}): Promise<boolean> {
  const iterations = options.iterations ?? 300;
  const warmup = Math.min(50, Math.ceil(iterations / 5));
  const words = Array.from({ length: TOKENS }, (_, i) => `w${i} `);
  const agent = await startStandInAgent(({ frame, send }) => {
    if (frame.type !== 'query') return;
    for (const word of words) send({ type: 'token', content: word });
    send({ type: 'done', content: words.join(''), metadata: {} });
  });
  const dbPath = `/tmp/bench-chat-${process.pid}.db`;
  rmSync(dbPath, { force: true });
  const service = await startService({
    DATABASE_URL: `sqlite:${dbPath}`,
    CHAT_API_SECRET: KEY,
    SALES_AGENT_WS_URL: agent.url,
    // High enough never to refuse, so the limiter's database write is part of the measurement.
    CHAT_RATE_LIMIT: '1000000000',
    LOG_LEVEL: 'info',
  });
  const direct: Sample[] = [];
  const relayed: Sample[] = [];
  try {
    for (let i = 0; i < warmup + iterations; i++) {
      // Alternate the paths so drift (GC, other load) hits both alike.
      const d = await askDirect(agent.url, `bench-${i}`);
      const s = await askService(service.url, `bench-${i}`);
      if (i >= warmup) {
        direct.push(d);
        relayed.push(s);
      }
    }
  } finally {
    await new Promise<void>((resolve) => {
      service.child.once('exit', () => resolve());
      service.child.kill('SIGTERM');
    });
    await agent.close();
    rmSync(dbPath, { force: true });
    rmSync(`${dbPath}-wal`, { force: true });
    rmSync(`${dbPath}-shm`, { force: true });
  }

  const stat = (samples: Sample[], pick: (s: Sample) => number) => ({
    p50: percentile(samples.map(pick), 50),
    p90: percentile(samples.map(pick), 90),
  });
  const ttftDirect = stat(direct, (s) => s.firstToken);
  const ttftRelayed = stat(relayed, (s) => s.firstToken);
  const tailDirect = stat(direct, (s) => s.done - s.firstToken);
  const tailRelayed = stat(relayed, (s) => s.done - s.firstToken);
  const added = ttftRelayed.p50 - ttftDirect.p50;
  const perToken = (tailRelayed.p50 - tailDirect.p50) / (TOKENS - 1);
  const ok = added < BAR_MS;
  const ms = (v: number) => `${v.toFixed(2)} ms`;
  console.log(`\nchat relay: ${iterations} questions per path, ${TOKENS} tokens each, one at a time`);
  console.log(`  first token, direct from the agent   p50 ${ms(ttftDirect.p50)}  p90 ${ms(ttftDirect.p90)}`);
  console.log(
    `  first token, through the service     p50 ${ms(ttftRelayed.p50)}  p90 ${ms(ttftRelayed.p90)}`,
  );
  console.log(
    `  added to the first token at p50      ${ms(added)} (bar < ${BAR_MS} ms) ${ok ? 'ok' : 'MISSED'}`,
  );
  console.log(`  first token → done, direct / service p50 ${ms(tailDirect.p50)} / ${ms(tailRelayed.p50)}`);
  console.log(`  per-token overhead at p50            ${(perToken * 1000).toFixed(1)} µs`);
  return ok;
}

if (import.meta.main) {
  const i = process.argv.indexOf('--iterations');
  const ok = await runChatRelayBench({ iterations: i >= 0 ? Number(process.argv[i + 1]) : undefined });
  if (!ok) process.exitCode = 1;
}
