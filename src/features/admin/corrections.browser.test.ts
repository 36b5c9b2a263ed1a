import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAS_CHROMIUM, launchChromium, warnIfNoChromium } from '../../../test/support/chromium.ts';
import { ADMIN_ENV, ADMIN_KEY, CHAT_KEY } from '../../../test/support/features/admin.ts';
import { SPAM_TEXT } from '../../../test/support/features/corrections.ts';
import { startTestServer } from '../../../test/support/test-app.ts';
import { getOutboxByKey } from '../../integrations/mail/outbox.ts';
import { getLead } from '../leads/port.ts';
import { getSupportMessage } from '../support/port.ts';

/**
 * The correction buttons in a real browser: the lead detail and the support messages view show the
 * classifier's score, reasons and corrections, and "Mark as …" corrects through the admin API.
 * Screenshots go to ADMIN_SCREENSHOT_DIR, otherwise to a temporary folder.
 */
const SHOTS = resolve(process.env.ADMIN_SCREENSHOT_DIR ?? join(tmpdir(), 'admin-screenshots'));

warnIfNoChromium('Admin correction browser tests');

describe.skipIf(!HAS_CHROMIUM)('classification corrections in Chromium', { timeout: 60_000 }, () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let browser: Browser;
  let page: Page;
  let leadId: string;
  let messageId: string;
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    server = await startTestServer({ env: { ...ADMIN_ENV, PUBLIC_BASE_URL: 'https://api.agency.example' } });
    const lead = await fetch(`${server.url}/api/leads`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Chat-Api-Key': CHAT_KEY },
      body: JSON.stringify({
        personal: { name: 'SEO King', email_address: 'king@seo-blast.example' },
        steps: { goal: SPAM_TEXT },
        language: 'en',
      }),
    });
    leadId = ((await lead.json()) as { leadId: string }).leadId;
    const support = await fetch(`${server.url}/api/support/send`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'SEO King', email: 'king@seo-blast.example', message: SPAM_TEXT }),
    });
    expect(support.status).toBe(200);
    messageId = (await server.deps.db.selectFrom('support_messages').select('id').executeTakeFirstOrThrow())
      .id;

    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-GB' });
    page = await context.newPage();
    page.setDefaultTimeout(15_000);
    page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
    page.on('pageerror', (e) => consoleErrors.push(`pageerror: ${e.message}`));
    await page.goto(`${server.url}/admin/leads`);
    await page.locator('#admin-key').fill(ADMIN_KEY);
    await page.locator('#login-form button[type="submit"]').click();
    await page.locator('#leads-table tbody tr').first().waitFor();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("the lead detail shows the classifier's score and reasons, and Mark as lead runs what spam skipped", async () => {
    expect((await getLead(server.deps.db, leadId))?.status).toBe('spam');
    await page.goto(`${server.url}/admin/leads#/lead/${leadId}`);
    const section = page.locator('#detail-body .classification');
    await section.waitFor();
    expect(await section.getAttribute('data-classification')).toBe('spam');
    expect(await section.locator('dd').nth(2).textContent()).toMatch(/^0\.\d\d$|^1\.00$/);
    expect(await section.locator('.reasons li').count()).toBeGreaterThan(0);
    expect(await section.locator('[data-mark="spam"]').isDisabled()).toBe(true);
    expect(await section.locator('.corrections-none').textContent()).toBe('Not corrected.');

    await section.locator('[data-mark="lead"]').click();
    await expect
      .poll(() => page.locator('#detail-body .classification').getAttribute('data-classification'))
      .toBe('lead');
    const corrected = page.locator('#detail-body .classification');
    expect(await corrected.locator('.corrections li').count()).toBe(1);
    expect(await corrected.locator('.corrections li').getAttribute('data-from')).toBe('spam');
    expect(await corrected.locator('.corrections li').textContent()).toContain(
      'started: confirmation e-mail, notification e-mail',
    );
    expect(await corrected.locator('[data-mark="lead"]').isDisabled()).toBe(true);
    expect(await page.locator('#detail-body .detail-head').textContent()).toContain('New');
    // The e-mails it skipped are queued now, shown in the lead's e-mails.
    expect(await page.locator('#lead-emails .email').count()).toBe(2);
    expect((await getLead(server.deps.db, leadId))?.status).toBe('new');
    expect(await getOutboxByKey(server.deps.db, `${leadId}:confirmation`)).toMatchObject({
      status: 'queued',
    });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(SHOTS, 'admin-lead-corrected.png'), fullPage: true });

    // Back to spam: the e-mails that had not gone are cancelled.
    await corrected.locator('[data-mark="spam"]').click();
    await expect.poll(() => page.locator('#detail-body .corrections li').count()).toBe(2);
    expect(await page.locator('#detail-body .corrections li').nth(1).textContent()).toContain(
      'stopped: confirmation e-mail, notification e-mail',
    );
    expect(await getOutboxByKey(server.deps.db, `${leadId}:confirmation`)).toMatchObject({
      status: 'cancelled',
    });
  });

  it('the support view lists the messages with their classification and corrects one', async () => {
    await page.locator('#tabs a[data-tab="support"]').click();
    const article = page.locator(`#support-list article[data-id="${messageId}"]`);
    await article.waitFor();
    expect(await page.locator('#tabs a[data-tab="support"]').getAttribute('aria-current')).toBe('page');
    expect(await article.locator('.classification').getAttribute('data-classification')).toBe('spam');
    expect(await article.locator('.reasons li').count()).toBeGreaterThan(0);
    await article.locator('[data-mark="vendor"]').click();
    await expect
      .poll(() =>
        page
          .locator(`#support-list article[data-id="${messageId}"] .classification`)
          .getAttribute('data-classification'),
      )
      .toBe('vendor');
    expect(
      await page.locator(`#support-list article[data-id="${messageId}"] .corrections li`).textContent(),
    ).toContain('started: vendor decline e-mail');
    expect(await getSupportMessage(server.deps.db, messageId)).toMatchObject({
      status: 'vendor',
      classification: 'vendor',
    });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(SHOTS, 'admin-support.png'), fullPage: true });
    expect(consoleErrors).toEqual([]);
  });
});
