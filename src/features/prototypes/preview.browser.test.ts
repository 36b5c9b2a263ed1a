import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAS_CHROMIUM, launchChromium, warnIfNoChromium } from '../../../test/support/chromium.ts';
import { createLead, gatedGenerator, post } from '../../../test/support/features/prototypes.ts';
import { startTestServer } from '../../../test/support/test-app.ts';
import { prototypePorts } from './context.ts';
import { errorPayload } from './generation.ts';
import { failAttempt, startAttempt } from './store.ts';

/** Console errors and page errors: a CSP violation (an inline script or style) shows up here. */
function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

warnIfNoChromium('Preview browser tests');

describe.skipIf(!HAS_CHROMIUM)('the preview page in Chromium', () => {
  const gate = gatedGenerator();
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let browser: Browser;
  const api = {
    request: (path: string, init?: RequestInit) => fetch(`${server.url}${path}`, init),
  };

  beforeAll(async () => {
    server = await startTestServer({
      env: { TRUST_PROXY: 'xff' },
      overrides: { prototypeGenerator: gate.generator },
    });
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    gate.open();
    await browser?.close();
    await server?.close();
  });

  it('shows progress while generating, then swaps to the prototype in a sandboxed iframe', async () => {
    gate.close();
    const id = await createLead(api, { personal: { company: 'Sunrise <Dental>' } });
    expect((await post(api, `/api/leads/${id}/trigger-generation`)).status).toBe(200);

    const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
    const errors = watchErrors(page);
    const response = await page.goto(`${server.url}/api/leads/${id}/preview`);
    expect(response!.headers()['content-security-policy']).toContain("script-src 'self'");
    await page.locator('[data-view="progress"]').waitFor({ state: 'visible' });
    await expect.poll(() => page.locator('[data-step="generating"]').getAttribute('class')).toBe('active');
    expect(await page.locator('[data-step="queued"]').getAttribute('class')).toBe('done');
    expect(await page.locator('.who strong').textContent()).toBe('Sunrise <Dental>');
    expect(await page.locator('.stage iframe').count()).toBe(0);

    gate.open();
    const iframe = page.locator('.stage iframe');
    await iframe.waitFor({ state: 'visible', timeout: 15_000 });
    expect(await page.locator('[data-view="progress"]').isHidden()).toBe(true);
    expect(await iframe.getAttribute('sandbox')).toBe('');
    expect(await iframe.getAttribute('src')).toBe(`/api/leads/${id}/prototype?v=1`);
    const frame = page.frameLocator('.stage iframe');
    await frame.locator('.hero h1').waitFor({ timeout: 15_000 });
    expect(await frame.locator('.logo span').last().textContent()).toBe('Sunrise <Dental>');
    // The prototype runs in an opaque origin: nothing of the API's origin is reachable from it.
    const child = page.frames().find((f) => f.url().includes('/prototype'))!;
    expect(await child.evaluate(() => window.origin)).toBe('null');
    expect(errors).toEqual([]);

    // Loading the page again shows the finished prototype straight away.
    await page.reload();
    await page.locator('.stage iframe').waitFor({ state: 'visible' });
    expect(await page.locator('[data-view="progress"]').count()).toBe(1);
    expect(await page.locator('[data-view="progress"]').isHidden()).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);

  it('a failed generation offers a retry that starts again and ends in the preview (Spanish)', async () => {
    const id = await createLead(api, { language: 'es' });
    const begun = await startAttempt(server.deps.db, {
      leadId: id,
      kind: 'landing',
      language: 'es',
      generator: 'builtin',
      origin: 'trigger',
      staleAfterMs: 45_000,
    });
    await failAttempt(server.deps.db, begun.attempt, 'down', () =>
      errorPayload(begun.attempt, id, 'es', 'GENERATION_FAILED', false),
    );
    await prototypePorts(server.deps).leads.setStatus(id, 'failed');

    const page = await browser.newPage();
    const errors = watchErrors(page);
    await page.goto(`${server.url}/api/leads/${id}/preview`);
    expect(await page.locator('html').getAttribute('lang')).toBe('es');
    const failed = page.locator('[data-view="failed"]');
    await failed.waitFor({ state: 'visible' });
    expect(await failed.locator('h1').textContent()).toBe('Algo salió mal');
    await page.locator('[data-retry]').click();
    await page.locator('.stage iframe').waitFor({ state: 'visible', timeout: 15_000 });
    expect(await page.frameLocator('.stage iframe').locator('html').getAttribute('lang')).toBe('es');
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);
});
