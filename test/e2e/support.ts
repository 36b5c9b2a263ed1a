/**
 * Shared pieces of the end-to-end resilience suites: real server processes on one PostgreSQL schema,
 * the container's health check, a fault switch in front of any stand-in (up, refusing connections,
 * hanging, answering garbage), lead submissions over real HTTP, and polling helpers.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { type AddressInfo, createServer, type Server, Socket } from 'node:net';
import { createInterface } from 'node:readline';
import { type ServerProcess, spawnServer } from '../support/process.ts';

const ROOT = new URL('../../', import.meta.url).pathname;

/** Starts `count` server processes with the same environment (one database), in parallel. */
export function startInstances(count: number, env: Record<string, string>): Promise<ServerProcess[]> {
  return Promise.all(Array.from({ length: count }, () => spawnServer(env, 30_000)));
}

/** Runs the container's HEALTHCHECK (`node scripts/healthcheck.ts` with PORT) and returns its exit code. */
export function healthcheck(port: number): Promise<number | null> {
  const child = spawn(process.execPath, ['scripts/healthcheck.ts'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', PORT: String(port) },
    stdio: 'ignore',
  });
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

/** Polls `check` until it returns a truthy value or `timeoutMs` passes (then throws with `what`). */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | null | undefined | false> | T | null | undefined | false,
  timeoutMs = 20_000,
  intervalMs = 200,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await check();
      if (value) return value;
    } catch (error) {
      last = error;
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
}

let ipCounter = 0;
/** A fresh client IP per call (sent as X-Forwarded-For with TRUST_PROXY=xff), so per-IP limits never bite. */
export function freshIp(): string {
  ipCounter++;
  return `198.18.${Math.floor(ipCounter / 250) % 250}.${(ipCounter % 250) + 1}`;
}

export function uniqueEmail(prefix = 'e2e'): string {
  return `${prefix}.${randomUUID().slice(0, 8)}@example.com`;
}

/** A genuine wizard submission (classified `lead`) with a unique e-mail unless one is given. */
export function leadBody(
  options: { email?: string; prototype?: 'landing' | 'application' | null; goal?: string } = {},
) {
  return {
    personal: {
      name: 'Ana García',
      email_address: options.email ?? uniqueEmail(),
      phone_number: '+57 300 000 0000',
      company: 'Hotel Sol',
      position: 'Owner',
    },
    steps: {
      initial_choice: 'create',
      service: 'build-website',
      ...(options.prototype === null ? {} : { prototype: options.prototype ?? 'landing' }),
      goal: options.goal ?? 'More direct bookings for our hotel',
      industry: 'hospitality',
      features: ['booking', 'gallery'],
      style: 'modernMinimalist',
      audience: 'b2c',
    },
    recaptchaToken: 'ok-token',
    source_url: 'https://agency.example/wizard',
    language: 'en',
  };
}

export interface Answer {
  status: number;
  body: Record<string, unknown> | null;
  text: string;
  ms: number;
  headers: Headers;
}

/** One HTTP call; the answer with its parsed JSON body (null when not JSON) and the time it took. */
export async function call(url: string, init: RequestInit & { timeoutMs?: number } = {}): Promise<Answer> {
  const started = performance.now();
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(init.timeoutMs ?? 60_000) });
  const text = await response.text();
  let body: Record<string, unknown> | null = null;
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    body = null;
  }
  return { status: response.status, body, text, ms: performance.now() - started, headers: response.headers };
}

export function postJson(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
  timeoutMs?: number,
) {
  return call(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': freshIp(), ...headers },
    body: JSON.stringify(body),
    timeoutMs,
  });
}

export type FaultMode = 'up' | 'refuse' | 'hang' | 'garbage';

/**
 * A TCP switch in front of a stand-in: `up` pipes to it, `refuse` closes the listening socket (the
 * port answers "connection refused"), `hang` accepts and never answers, `garbage` answers `garbage`
 * bytes and closes. Clients are configured with the switch's URL.
 */
export interface FaultSwitch {
  port: number;
  /** `scheme://127.0.0.1:port`. */
  url(scheme?: string): string;
  set(mode: FaultMode): Promise<void>;
  close(): Promise<void>;
}

export async function startFaultSwitch(targetPort: number, garbage: string): Promise<FaultSwitch> {
  let mode: FaultMode = 'up';
  const sockets = new Set<Socket>();
  const onConnection = (client: Socket) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    if (mode === 'hang') {
      client.resume(); // read and drop whatever is sent; never answer
      return;
    }
    if (mode === 'garbage') {
      client.resume();
      client.end(garbage);
      return;
    }
    const upstream = new Socket();
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
    upstream.connect(targetPort, '127.0.0.1', () => {
      client.pipe(upstream);
      upstream.pipe(client);
    });
    sockets.add(upstream);
    upstream.on('close', () => {
      sockets.delete(upstream);
      client.destroy();
    });
    client.on('close', () => upstream.destroy());
  };
  let server: Server | null = createServer(onConnection);
  const port = await new Promise<number>((resolve) =>
    server!.listen(0, '127.0.0.1', () => resolve((server!.address() as AddressInfo).port)),
  );
  const stop = () =>
    new Promise<void>((resolve) => {
      if (!server) return resolve();
      const closing = server;
      server = null;
      for (const socket of sockets) socket.destroy();
      closing.close(() => resolve());
    });
  return {
    port,
    url: (scheme = 'http') => `${scheme}://127.0.0.1:${port}`,
    async set(next) {
      for (const socket of sockets) socket.destroy();
      mode = next;
      if (next === 'refuse') return stop();
      if (!server) {
        server = createServer(onConnection);
        await new Promise<void>((resolve, reject) => {
          server!.once('error', reject);
          server!.listen(port, '127.0.0.1', () => resolve());
        });
      }
    },
    close: stop,
  };
}

/** A free port (taken, then released). */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** Starts bench/wordpress-stand-in.ts (a process answering /wp-json/wp/v2/posts) and returns its port. */
export async function startWordPressProcess(): Promise<{ port: number; stop(): void }> {
  const child = spawn(process.execPath, ['bench/wordpress-stand-in.ts'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', PORT: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`wordpress stand-in exited with ${code}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      try {
        const entry = JSON.parse(line) as { msg?: string; port?: number };
        if (entry.msg === 'listening' && entry.port) resolve(entry.port);
      } catch {
        // not a log line
      }
    });
  });
  return { port, stop: () => child.kill('SIGTERM') };
}

/** Sums the `msg` occurrences in the instances' JSON log lines (for reporting, not asserting). */
export function countLogLines(instances: ServerProcess[], msg: string): number {
  return instances.reduce(
    (sum, instance) => sum + instance.output.filter((line) => line.includes(`"msg":"${msg}"`)).length,
    0,
  );
}

export interface SseEvent {
  event: string;
  id: string | null;
  data: string;
}

/**
 * Opens an SSE response and collects its events until one named in `until` arrives, the stream ends,
 * or `timeoutMs` passes (then the events so far are returned and the connection closed).
 */
export async function readSse(
  url: string,
  init: RequestInit,
  until: string[],
  timeoutMs = 30_000,
): Promise<{ status: number; contentType: string | null; events: SseEvent[]; ms: number }> {
  const started = performance.now();
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  const events: SseEvent[] = [];
  const response = await fetch(url, { ...init, signal: controller.signal });
  try {
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    reading: while (true) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value;
      let end = buffer.indexOf('\n\n');
      while (end >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        end = buffer.indexOf('\n\n');
        const event: SseEvent = { event: 'message', id: null, data: '' };
        let hasData = false;
        for (const line of block.split('\n')) {
          if (line.startsWith('event:')) event.event = line.slice(6).trim();
          else if (line.startsWith('id:')) event.id = line.slice(3).trim();
          else if (line.startsWith('data:')) {
            event.data += (hasData ? '\n' : '') + line.slice(5).trimStart();
            hasData = true;
          }
        }
        if (!hasData) continue; // a comment (`: ping`)
        events.push(event);
        if (until.includes(event.event)) break reading;
      }
    }
  } catch (error) {
    if (!controller.signal.aborted) throw error;
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    events,
    ms: performance.now() - started,
  };
}
