import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { SafeFetcher } from '../safe-fetch/safe-fetch.ts';
import { SafeFetchError } from '../safe-fetch/safe-fetch.ts';
import {
  type AnalyzeOptions,
  type DiagnosticReport,
  type PageSpeedEngine,
  PageSpeedError,
} from './report.ts';

export const LIGHTHOUSE_DEFAULTS = {
  chromePath: '/usr/bin/chromium',
  /** The whole run (Chromium start, load, audits) is killed past this. */
  timeoutMs: 90_000,
} as const;

const RUNNER = new URL('./lighthouse-runner.ts', import.meta.url).pathname;
const MAX_OUTPUT_BYTES = 2 * 1024 * 1024;

/** Where Chromium is, or null when it is not installed (then the local engine is unavailable). */
export function findChrome(configured: string | undefined): string | null {
  const path = configured ?? LIGHTHOUSE_DEFAULTS.chromePath;
  return existsSync(path) ? path : null;
}

/**
 * Local Lighthouse driving the machine's Chromium, in a child process per run (its memory — about
 * 750 MB — is returned when it ends, and a stuck run is killed with its browser). The URL is checked
 * with the safe fetcher's rules first; inside the run, the browser reaches the network only through
 * the checking proxy (browser-proxy.ts).
 */
export class LocalLighthouseEngine implements PageSpeedEngine {
  readonly name = 'lighthouse' as const;
  readonly chromePath: string;
  readonly #safeFetch: SafeFetcher;
  readonly #allowHosts: readonly string[];
  readonly #timeoutMs: number;

  constructor(options: {
    chromePath: string;
    safeFetch: SafeFetcher;
    allowHosts: readonly string[];
    timeoutMs?: number;
  }) {
    this.chromePath = options.chromePath;
    this.#safeFetch = options.safeFetch;
    this.#allowHosts = options.allowHosts;
    this.#timeoutMs = options.timeoutMs ?? LIGHTHOUSE_DEFAULTS.timeoutMs;
  }

  async analyze({ url, strategy, signal }: AnalyzeOptions): Promise<DiagnosticReport> {
    try {
      await this.#safeFetch.check(url, signal);
    } catch (error) {
      const message = error instanceof Error ? error.message : 'The URL cannot be analysed.';
      const refused = error instanceof SafeFetchError && error.isPolicy;
      throw new PageSpeedError(message, {
        permanent: !(error instanceof SafeFetchError) || refused,
        refused,
        cause: error,
      });
    }
    const input = JSON.stringify({
      url,
      strategy,
      chromePath: this.chromePath,
      allowHosts: this.#allowHosts,
    });
    const child = spawn(process.execPath, [RUNNER, input], {
      // Its own process group, so a timeout kills the runner and Chromium together.
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const killGroup = () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {}
    };
    const timer = setTimeout(killGroup, this.#timeoutMs);
    const onAbort = () => killGroup();
    signal?.addEventListener('abort', onAbort, { once: true });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      if (output.length < MAX_OUTPUT_BYTES) output += chunk.toString('utf8');
    });
    child.stderr.resume();
    const code = await new Promise<number | null>((resolve) => {
      child.once('exit', (exitCode) => resolve(exitCode));
      child.once('error', () => resolve(null));
    });
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
    killGroup();

    const line = output.trim().split('\n').at(-1) ?? '';
    let parsed: {
      ok?: boolean;
      report?: DiagnosticReport;
      error?: string;
      permanent?: boolean;
      refused?: boolean;
    } | null = null;
    try {
      parsed = JSON.parse(line);
    } catch {}
    if (parsed?.ok && parsed.report) return parsed.report;
    if (parsed?.error) {
      throw new PageSpeedError(parsed.error, {
        permanent: parsed.permanent ?? false,
        refused: parsed.refused === true,
      });
    }
    throw new PageSpeedError(
      code === null
        ? `The analysis did not finish within ${Math.round(this.#timeoutMs / 1000)} s.`
        : 'The analysis failed.',
    );
  }
}
