import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  port: number;
  /** Every stdout line the process wrote (JSON log lines). */
  output: string[];
  /** Sends a signal and waits for the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

const ROOT = new URL('../../', import.meta.url).pathname;

/**
 * Starts the real service from its sources (`node src/main.js`; `npm start` and the container run the
 * same code bundled, scripts/build-server.ts) with the given environment (and Node options before the
 * script, `nodeArgs`; another entry, `script`, such as a bundle's), and resolves once it logs that it
 * is listening.
 */
export async function spawnServer(
  env: Record<string, string>,
  timeoutMs = 15_000,
  options: { nodeArgs?: string[]; script?: string } = {},
): Promise<ServerProcess> {
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), options.script ?? 'src/main.js'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`server did not start: ${output.join('\n')}`)),
      timeoutMs,
    );
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}: ${output.join('\n')}`));
    });
    createInterface({ input: child.stderr! }).on('line', (line) => output.push(line));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      output.push(line);
      try {
        const entry = JSON.parse(line) as { msg?: string; port?: number };
        if (entry.msg === 'listening' && entry.port) {
          clearTimeout(timer);
          resolve(entry.port);
        }
      } catch {
        // not a log line
      }
    });
  });
  return {
    child,
    port,
    url: `http://127.0.0.1:${port}`,
    output,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}
