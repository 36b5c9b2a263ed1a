/**
 * Starting and stopping the processes the benchmarks measure: the app (as `npm start` runs it, see
 * APP), the bare baseline and the stand-ins. Each prints a JSON `listening` line with its port on
 * stdout.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import packageJson from '../package.json' with { type: 'json' };
import { buildServer } from '../scripts/build-server.ts';

/**
 * The app's command line after `node`, exactly as package.json's start script has it (the bundle and
 * the Node options; the Dockerfile's CMD is held to the same by deploy/image.test.ts). The bundle is
 * built here when out of date, as `npm start`'s prestart does.
 */
export const APP: string[] = packageJson.scripts.start.split(' ').slice(1);
if (packageJson.scripts.start.split(' ')[0] !== 'node') throw new Error('the start script must run `node …`');
/** Whether this run built the bundle: its first start then compiles it cold (see bench/run.ts). */
export const APP_BUILT = await buildServer();

export interface Started {
  child: ChildProcess;
  url: string;
  startupMs: number;
  /**
   * CPU time (user + system, all its threads) the process spent to its first 200: on a machine shared
   * with other work, wall time mostly measures the others; this does not.
   */
  startupCpuMs: number;
}

/**
 * Spawns `script` (a file, or Node's arguments ending with one, as APP) on a free port and waits for
 * its first 200 on /health. The process's stdout (its
 * JSON log) goes straight to a file (`logFile`, or a temporary one), never through this process:
 * autocannon runs here, and reading tens of thousands of log lines a second would slow the load
 * generator and so the measured app.
 */
export async function start(
  script: string | readonly string[],
  env: Record<string, string>,
  options: { logFile?: string; cwd?: string } = {},
): Promise<Started> {
  const began = performance.now();
  const logFile = options.logFile ?? join(tmpdir(), `bench-${process.pid}-${++started}.log`);
  const out = openSync(logFile, 'w');
  const child = spawn(process.execPath, typeof script === 'string' ? [script] : [...script], {
    env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', out, 'inherit'],
    cwd: options.cwd,
  });
  closeSync(out);
  let exited: number | null | undefined;
  child.once('exit', (code) => {
    exited = code;
  });
  let port: number | undefined;
  while (port === undefined) {
    if (exited !== undefined) throw new Error(`${script} exited with ${exited}`);
    await sleep(10);
    for (const line of readFileSync(logFile, 'utf8').split('\n')) {
      try {
        const entry = JSON.parse(line) as { msg?: string; port?: number };
        if (entry.msg === 'listening' && entry.port) port = entry.port;
      } catch {}
    }
  }
  const url = `http://127.0.0.1:${port}`;
  while ((await fetch(`${url}/health`).catch(() => null))?.status !== 200) await sleep(5);
  if (!options.logFile) child.once('exit', () => rmSync(logFile, { force: true }));
  const startupMs = performance.now() - began;
  return { child, url, startupMs, startupCpuMs: cpuMs(child.pid!) };
}

let started = 0;

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** CPU time a process has used so far (user + system), in ms (/proc counts in ticks of 10 ms). */
export function cpuMs(pid: number): number {
  // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Resident set size of a process, in MB. */
export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

export function stop(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve(child.exitCode);
    child.once('exit', (code) => resolve(code));
    child.kill('SIGTERM');
  });
}

/** Prints rows as aligned columns, the first row being the header. */
export function printTable(table: string[][]): void {
  const widths = table[0]!.map((_, i) => Math.max(...table.map((r) => (r[i] ?? '').length)));
  for (const row of table) console.log(widths.map((width, i) => (row[i] ?? '').padEnd(width)).join('  '));
}
