/**
 * Starting and stopping the processes the benchmarks measure: the app (`src/main.ts`), the bare
 * baseline and the stand-ins. Each prints a JSON `listening` line with its port on stdout.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

export interface Started {
  child: ChildProcess;
  url: string;
  startupMs: number;
}

/**
 * Spawns `script` on a free port and waits for its first 200 on /health. With `logFile`, the
 * process's stdout (its JSON log) is written there; otherwise it is read and dropped.
 */
export async function start(
  script: string,
  env: Record<string, string>,
  options: { logFile?: string } = {},
): Promise<Started> {
  const began = performance.now();
  const child = spawn(process.execPath, [script], {
    env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (options.logFile) child.stdout!.pipe(createWriteStream(options.logFile));
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
    const lines = createInterface({ input: child.stdout! });
    const onLine = (line: string) => {
      try {
        const entry = JSON.parse(line) as { msg?: string; port?: number };
        if (entry.msg === 'listening' && entry.port) {
          // Stop parsing (the log keeps flowing, and must be drained so the process never blocks).
          lines.off('line', onLine);
          resolve(entry.port);
        }
      } catch {}
    };
    lines.on('line', onLine);
  });
  const url = `http://127.0.0.1:${port}`;
  while ((await fetch(`${url}/health`).catch(() => null))?.status !== 200) await sleep(5);
  return { child, url, startupMs: performance.now() - began };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

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
