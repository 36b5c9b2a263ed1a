import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/** Debian's Chromium (`apt-get install chromium`), or CHROME_PATH: `npx playwright install` cannot work here. */
export const CHROMIUM_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';

/** False on a machine without Chromium: browser suites skip, saying so once. */
export const HAS_CHROMIUM = existsSync(CHROMIUM_PATH);

/** Headless as root in a sandbox, with no background traffic to hosts this network refuses. */
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: ARGS });
}

/** Warns (once per suite) that `suite` is skipped for want of Chromium. */
export function warnIfNoChromium(suite: string): void {
  if (!HAS_CHROMIUM) console.warn(`${suite} skipped: no Chromium at ${CHROMIUM_PATH} (set CHROME_PATH).`);
}
