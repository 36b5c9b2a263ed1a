/**
 * One local Lighthouse run, in its own process (started by lighthouse-engine.ts): starts the checking
 * proxy, launches Chromium behind it, runs Lighthouse, prints `{"ok":true,"report":…}` (the normalised
 * report, not the megabyte-sized raw result) on stdout, and cleans up. The parent kills the whole
 * process group (this process and Chromium) if the run outlives its bound.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { SafeFetcher } from '../safe-fetch/safe-fetch.ts';
import { documentRefusal, startCheckingProxy } from './browser-proxy.ts';
import { fromLighthouseResult, type LighthouseResult } from './normalize.ts';
import type { Strategy } from './report.ts';

interface RunnerInput {
  url: string;
  strategy: Strategy;
  chromePath: string;
  allowHosts: string[];
}

const input = JSON.parse(process.argv[2] ?? '{}') as RunnerInput;
const userDataDir = mkdtempSync(join(tmpdir(), 'lighthouse-'));
let chrome: ChildProcess | null = null;

function finish(result: unknown, code: number): never {
  chrome?.kill('SIGKILL');
  // Chromium's helpers may still be writing the profile as they die (ENOTEMPTY): retried, and a
  // cleanup that still fails never turns the run's result into a failure.
  try {
    rmSync(userDataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
  } catch {
    // left in the temporary directory
  }
  process.stdout.write(`${JSON.stringify(result)}\n`, () => process.exit(code));
  // process.exit above runs once stdout drained; keep TypeScript's `never`.
  throw new Error('exiting');
}

process.on('SIGTERM', () => finish({ ok: false, error: 'The analysis was stopped.' }, 1));

async function launchChrome(proxyPort: number): Promise<number> {
  chrome = spawn(
    input.chromePath,
    [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-extensions',
      '--disable-default-apps',
      '--no-first-run',
      '--no-default-browser-check',
      '--mute-audio',
      // Every connection goes through the checking proxy, loopback included; no QUIC, no direct UDP.
      `--proxy-server=http://127.0.0.1:${proxyPort}`,
      '--proxy-bypass-list=<-loopback>',
      '--disable-quic',
      '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
      '--remote-debugging-address=127.0.0.1',
      '--remote-debugging-port=0',
      `--user-data-dir=${userDataDir}`,
      'about:blank',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  return new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('Chromium did not start')), 30_000);
    chrome?.once('exit', (code) => reject(new Error(`Chromium exited with ${code}`)));
    createInterface({ input: chrome!.stderr! }).on('line', (line) => {
      const match = /DevTools listening on ws:\/\/[^:]+:(\d+)\//.exec(line);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
  });
}

try {
  const proxy = await startCheckingProxy(new SafeFetcher({ allowHosts: input.allowHosts }));
  const port = await launchChrome(proxy.port);
  const { default: lighthouse } = await import('lighthouse');
  const config =
    input.strategy === 'desktop'
      ? (await import('lighthouse/core/config/desktop-config.js')).default
      : undefined;
  const result = await lighthouse(
    input.url,
    {
      port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
      maxWaitForLoad: 30_000,
    },
    config,
  );
  await proxy.close();
  const lhr = result?.lhr as LighthouseResult | undefined;
  if (!lhr) finish({ ok: false, error: 'Lighthouse returned no result.' }, 1);
  if (lhr.runtimeError?.code && lhr.runtimeError.code !== 'NO_ERROR') {
    // The page (or a redirect of it) was refused by the SSRF rules: the visitor's URL is at fault.
    const refusal = documentRefusal(result?.artifacts.DevtoolsLogError ?? [], proxy.blocked);
    if (refusal) finish({ ok: false, permanent: true, refused: true, error: refusal }, 1);
    finish(
      { ok: false, permanent: true, error: `Lighthouse could not load the page (${lhr.runtimeError.code}).` },
      1,
    );
  }
  const report = fromLighthouseResult(lhr, 'lighthouse', input.strategy);
  if (proxy.refused.length > 0) {
    report.warnings.push(
      `${proxy.refused.length} request(s) to non-public addresses were blocked during the run.`,
    );
  }
  finish({ ok: true, report }, 0);
} catch (error) {
  if ((error as Error).message !== 'exiting') {
    finish({ ok: false, error: `Lighthouse failed: ${(error as Error).message.slice(0, 200)}` }, 1);
  }
}
