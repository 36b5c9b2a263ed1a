import { mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAS_CHROMIUM, launchChromium, warnIfNoChromium } from '../../../test/support/chromium.ts';
import {
  ADMIN_KEY,
  createPersonEverywhere,
  drainSideEffects,
  newPerson,
  PRIVACY_ENV,
  served,
} from '../../../test/support/features/privacy.ts';
import { type PipedriveStandIn, startPipedriveStandIn } from '../../../test/support/pipedrive-stand-in.ts';
import { startTestServer } from '../../../test/support/test-app.ts';

/**
 * The dashboard's Privacy view in Chromium against a real server: the periods, a person looked up,
 * the export and a ticket file downloaded, the erasure confirmed (reaching the Pipedrive stand-in),
 * the audit log. ADMIN_SCREENSHOT_DIR=docs refreshes docs/admin-privacy.png.
 */
const SHOTS = resolve(process.env.ADMIN_SCREENSHOT_DIR ?? join(tmpdir(), 'admin-screenshots'));

warnIfNoChromium('Privacy view browser tests');

describe.skipIf(!HAS_CHROMIUM)('the Privacy view in Chromium', { timeout: 90_000 }, () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let pipedrive: PipedriveStandIn;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];
  const ana = newPerson('Ana');
  const bea = newPerson('Bea');

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    pipedrive = await startPipedriveStandIn();
    server = await startTestServer({
      env: { ...PRIVACY_ENV, PIPEDRIVE_API_TOKEN: pipedrive.token, PIPEDRIVE_API_URL: pipedrive.url },
    });
    await createPersonEverywhere(served(server.url), ana);
    await createPersonEverywhere(served(server.url), bea);
    await drainSideEffects(server);
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-GB' });
    page = await context.newPage();
    page.setDefaultTimeout(15_000);
    page.on('console', (m) => {
      // The look-up of an erased address answers 404 on purpose.
      if (m.type() === 'error' && !/status of 404/.test(m.text())) problems.push(m.text());
      if (process.env.DEBUG_PAGE) console.log('console', m.type(), m.text());
    });
    page.on('response', (r) => {
      if (process.env.DEBUG_PAGE && r.status() >= 400) console.log('response', r.status(), r.url());
    });
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('dialog', async (d) => {
      problems.push(`dialog: ${d.message()}`);
      await d.dismiss();
    });
    await page.goto(`${server.url}/admin/leads`);
    await page.locator('#admin-key').fill(ADMIN_KEY);
    await page.locator('#login-form button[type="submit"]').click();
    await page.locator('#leads-view').waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await pipedrive?.close();
  });

  it('shows the retention periods and the settings', async () => {
    await page.locator('#tabs a[data-tab="privacy"]').click();
    await page.locator('#privacy-retention tr[data-variable="RETENTION_CHAT_DAYS"]').waitFor();
    expect(
      await page.locator('#privacy-retention tr[data-variable="RETENTION_CHAT_DAYS"]').textContent(),
    ).toMatch(/Chat messages\s*180 days/);
    expect(
      await page.locator('#privacy-retention tr[data-variable="RETENTION_LEADS_DAYS"]').textContent(),
    ).toContain('until erased');
    expect(await page.locator('#privacy-settings [data-field="crm"]').textContent()).toContain('Pipedrive');
    expect(await page.locator('#privacy-settings [data-field="lists"]').textContent()).toContain(
      'open to anyone',
    );
    expect(await page.locator('#tabs a[aria-current="page"]').textContent()).toBe('Privacy');
  });

  it('looks a person up and downloads the export and a ticket file', async () => {
    await page.locator('#privacy-lookup input[name="email"]').fill(ana.email.toUpperCase());
    await page.locator('#privacy-lookup button[type="submit"]').click();
    await page.locator('#privacy-result li[data-kind="leads"]').waitFor();
    expect(await page.locator('#privacy-result li[data-kind="leads"]').textContent()).toBe('1 Leads');
    expect(await page.locator('#privacy-result li[data-kind="tickets"]').textContent()).toBe('1 Tickets');

    const [file] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('#privacy-result .privacy-files button').click(),
    ]);
    expect(file.suggestedFilename()).toBe('notes.txt');
    expect(await readFile((await file.path()) as string, 'utf8')).toContain(ana.name);
    const [exported] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('#privacy-export').click(),
    ]);
    expect(exported.suggestedFilename()).toMatch(/^personal-data-\d{4}-\d{2}-\d{2}\.json$/);
    const document = JSON.parse(await readFile((await exported.path()) as string, 'utf8'));
    expect(document.email).toBe(ana.email);
    expect(document.data.leads[0].name).toBe(ana.name);

    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(SHOTS, 'admin-privacy.png'), fullPage: true });
  });

  it('erases after a second confirmation, reaching the CRM, and logs it', async () => {
    await page.locator('#privacy-erase').click();
    await page.locator('#privacy-confirm').waitFor();
    await page.locator('#privacy-confirm input[name="crm"]').check();
    await page.locator('#privacy-erase-confirm').click();
    await page.locator('#privacy-result [data-crm="erased"]').waitFor();
    expect(await page.locator('#privacy-result h3').textContent()).toMatch(/^Erased: \d+ item\(s\) about /);
    expect(pipedrive.persons.some((p) => p.email === ana.email)).toBe(false);
    await page.locator('#privacy-audit tr[data-reason="request"]').waitFor();
    expect(await page.locator('#privacy-audit tr[data-reason="request"]').textContent()).toContain(
      'erased (1 persons',
    );

    // Looked up again: nothing is held, and the log shows its erasure.
    await page.locator('#privacy-lookup input[name="email"]').fill(ana.email);
    await page.locator('#privacy-lookup button[type="submit"]').click();
    await page.locator('#privacy-state', { hasText: 'Nothing is held' }).waitFor();
    expect(await page.locator('#privacy-audit tbody tr').count()).toBe(1);

    // Bea is still there.
    const res = await fetch(`${server.url}/admin/api/personal-data?email=${bea.email}`, {
      headers: { 'x-admin-api-key': ADMIN_KEY },
    });
    expect(res.status).toBe(200);
    expect(problems).toEqual([]);
  });
});
