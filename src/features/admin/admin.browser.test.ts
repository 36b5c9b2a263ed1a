import { mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAS_CHROMIUM, launchChromium, warnIfNoChromium } from '../../../test/support/chromium.ts';
import {
  ADMIN_ENV,
  ADMIN_KEY,
  CHAT_KEY,
  seedAnalytics,
  submission,
  VENDOR_GOAL,
  XSS_COMPANY,
  XSS_NAME,
} from '../../../test/support/features/admin.ts';
import { startTestServer } from '../../../test/support/test-app.ts';
import { EMAIL_QUEUE } from '../../integrations/mail/index.ts';
import { saveContact } from '../contact/store.ts';

/**
 * The dashboard in a real browser (Debian's chromium through playwright-core) against a real server.
 * Screenshots go to ADMIN_SCREENSHOT_DIR (`ADMIN_SCREENSHOT_DIR=docs npx vitest run admin.browser`
 * refreshes the ones in docs/), otherwise to a temporary folder.
 */
const SHOTS = resolve(process.env.ADMIN_SCREENSHOT_DIR ?? join(tmpdir(), 'admin-screenshots'));
const UI_TIMEOUT = 15_000;

warnIfNoChromium('Admin browser tests');

describe.skipIf(!HAS_CHROMIUM)('admin dashboard in Chromium', { timeout: 60_000 }, () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const ids: Record<string, string> = {};
  const consoleErrors: string[] = [];
  let analyticsEvents = 0;
  const dialogs: string[] = [];

  const post = async (body: unknown) => {
    const res = await fetch(`${server.url}/api/leads`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Chat-Api-Key': CHAT_KEY },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as { leadId: string }).leadId;
  };

  const kpi = async (label: string) =>
    (await page
      .locator('#analytics-body .kpi', { hasText: label })
      .first()
      .locator('strong')
      .textContent()) ?? '';

  async function watch(p: Page) {
    p.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    p.on('pageerror', (error) => consoleErrors.push(`pageerror: ${error.message}`));
    p.on('dialog', async (dialog) => {
      dialogs.push(dialog.message());
      await dialog.dismiss();
    });
  }

  async function signIn(p: Page, key: string) {
    await p.goto(`${server.url}/admin/leads`);
    await p.locator('#admin-key').fill(key);
    await p.locator('#login-form button[type="submit"]').click();
  }

  async function shot(p: Page, name: string, fullPage = true) {
    // Top of the page first, so the sticky bar sits where a reader expects it.
    await p.evaluate(() => window.scrollTo(0, 0));
    await p.screenshot({ path: join(SHOTS, name), fullPage });
  }
  const rows = () => page.locator('#leads-table tbody tr');

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    server = await startTestServer({ env: { ...ADMIN_ENV, PUBLIC_BASE_URL: 'https://api.agency.example' } });
    ids.ana = await post(
      submission({ name: 'Ana García', email: 'ana@acme.example', company: 'Acme S.A.S.' }),
    );
    ids.mark = await post(
      submission(
        { name: 'Mark Chen', email: 'mark@northwind.example', company: 'Northwind Traders' },
        { prototype: undefined, service: 'workflow-automation' },
      ),
    );
    ids.lucia = await post(
      submission(
        { name: 'Lucía Fernández', email: 'lucia@hotelsol.example', company: 'Hotel Sol' },
        { prototype: 'application', service: 'build-application' },
      ),
    );
    ids.vendor = await post(
      submission(
        { name: 'Victor Outsourcing', email: 'victor@devshop.example', company: 'DevShop Ltd' },
        { goal: VENDOR_GOAL, prototype: undefined },
      ),
    );
    ids.xss = await post(
      submission(
        { name: XSS_NAME, email: 'x@evil.example', company: XSS_COMPANY },
        // A right-to-left override makes "gnp.exe" read "exe.png" wherever it is shown raw.
        { goal: '<b onmouseover=alert(3)>hi</b> see \u202Egnp.exe' },
      ),
    );
    await server.deps.worker.drain(EMAIL_QUEUE);
    // One dead job for the queues view.
    const jobs = server.deps.jobs;
    await jobs.enqueue(
      EMAIL_QUEUE,
      { idempotencyKey: 'ticket:TICKET-20261121-ABC123:confirmation', message: null },
      { idempotencyKey: 'ticket:TICKET-20261121-ABC123:confirmation', maxAttempts: 1 },
    );
    const claimed = await jobs.claim(EMAIL_QUEUE, 60_000);
    if (!claimed) throw new Error('no job to kill');
    await jobs.fail(claimed, new Error('SMTP 550: mailbox unavailable'), { permanent: true });

    analyticsEvents = await seedAnalytics(server.deps.db, 30);
    const contact = (n: number, subject: string, message: string) =>
      saveContact(
        server.deps.db,
        { name: `Contact ${n}`, email: `contact${n}@example.com`, subject, message },
        Date.now() - (3 - n) * 60_000,
      );
    await contact(1, 'Opening hours', 'Do you work on Saturdays?');
    await contact(2, XSS_COMPANY, `${XSS_NAME} pay \u202Egnp.exe`);

    browser = await launchChromium();
    context = await browser.newContext({
      viewport: { width: 1280, height: 860 },
      locale: 'en-GB',
      timezoneId: 'America/Bogota',
    });
    page = await context.newPage();
    page.setDefaultTimeout(UI_TIMEOUT);
    await watch(page);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('a wrong key (even the chat key) shows the error and no data', async () => {
    await signIn(page, CHAT_KEY);
    await expect.poll(() => page.locator('#login-error').textContent()).toContain('not accepted');
    expect(await page.locator('#leads-view').isVisible()).toBe(false);
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    expect(await page.content()).not.toContain('Ana García');
    await shot(page, 'admin-login-error.png');
    // The only console error is the browser reporting the refused request.
    expect(consoleErrors.every((text) => /status of 401/.test(text))).toBe(true);
    consoleErrors.length = 0;
  });

  it('signs in with the admin key and shows the seeded leads', async () => {
    await page.locator('#admin-key').fill(ADMIN_KEY);
    await page.locator('#login-form button[type="submit"]').click();
    await expect.poll(() => rows().count()).toBe(5);
    const ana = page.locator(`tr[data-id="${ids.ana}"]`);
    expect(await ana.locator('.lead-name').textContent()).toBe('Ana García');
    // Seeded through the trusted chat path, which generates the prototype before answering.
    expect(await ana.locator('td[data-label="Status"]').textContent()).toBe('Completed');
    expect(await ana.locator('td[data-label="Classification"] .badge').textContent()).toBe('Lead');
    expect(await ana.locator('td[data-label="CRM"]').textContent()).toContain('Not synced');
    expect(await ana.locator('td[data-label="Prototype"] a').getAttribute('href')).toBe(
      `/api/leads/${ids.ana}/preview`,
    );
    expect(await page.locator(`tr[data-id="${ids.mark}"] td[data-label="Prototype"]`).textContent()).toBe(
      '—',
    );
    expect(
      await page.locator(`tr[data-id="${ids.vendor}"] td[data-label="Classification"] .badge`).textContent(),
    ).toBe('Vendor');
    // Created time in the operator's locale (en-GB: day before month) and time zone.
    const created = await ana.locator('time').textContent();
    expect(created).toMatch(/^\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}$/);
    // The key lives in sessionStorage only: not in the URL, not in a cookie.
    expect(page.url()).not.toContain(ADMIN_KEY);
    expect(await page.evaluate(() => document.cookie)).toBe('');
    expect((await context.cookies()).length).toBe(0);
    expect(await page.evaluate(() => sessionStorage.getItem('adminApiKey'))).toBe(ADMIN_KEY);
    await shot(page, 'admin-leads.png');
  });

  it('renders a hostile lead as text: no element injected, no dialog', async () => {
    const row = page.locator(`tr[data-id="${ids.xss}"]`);
    expect(await row.locator('.lead-name').textContent()).toBe(XSS_NAME);
    expect(await row.locator('td[data-label="Company"]').textContent()).toBe(XSS_COMPANY);
    expect(await page.locator('#leads-table img, #leads-table script, #leads-table b').count()).toBe(0);
    await row.locator('.lead-name').click();
    await expect.poll(() => page.locator('#detail-body h1').textContent()).toBe(XSS_NAME);
    expect(await page.locator('#detail-body img, #detail-body b').count()).toBe(0);
    const detail = await page.locator('#detail-body').textContent();
    expect(detail).toContain('<b onmouseover=alert(3)>hi</b>');
    // The override shows as a marker instead of reordering the text after it.
    expect(detail).toContain('see [U+202E]gnp.exe');
    expect(detail).not.toMatch(/[\u202A-\u202E\u2066-\u2069]/);
    await page.locator('#detail-body').hover();
    expect(dialogs).toEqual([]);
    await page.locator('a.back').click();
    await expect.poll(() => rows().count()).toBe(5);
  });

  it('filters by free text and by classification, and sorts', async () => {
    await page.locator('#lead-filters input[name="q"]').fill('ACME');
    await page.locator('#lead-filters button[type="submit"]').click();
    await expect.poll(() => rows().count()).toBe(1);
    expect(await rows().first().locator('.lead-name').textContent()).toBe('Ana García');

    await page.locator('#lead-filters button[type="reset"]').click();
    await expect.poll(() => rows().count()).toBe(5);
    await page.locator('#lead-filters select[name="classification"]').selectOption('vendor');
    await expect.poll(() => rows().count()).toBe(1);
    expect(await rows().first().locator('.lead-name').textContent()).toBe('Victor Outsourcing');

    await page.locator('#lead-filters select[name="classification"]').selectOption('');
    await page.locator('#lead-filters input[name="q"]').fill('nobody at all');
    await page.locator('#lead-filters button[type="submit"]').click();
    await expect
      .poll(() => page.locator('#leads-state').textContent())
      .toBe('No lead matches these filters.');

    await page.locator('#lead-filters button[type="reset"]').click();
    await expect.poll(() => rows().count()).toBe(5);
    await page.locator('button.sort[data-sort="name"]').click();
    await page.locator('button.sort[data-sort="name"]').click();
    await expect
      .poll(() => page.locator('button.sort[data-sort="name"]').getAttribute('aria-sort'))
      .toBe('ascending');
    await expect.poll(() => rows().first().locator('.lead-name').textContent()).toBe(XSS_NAME);
    expect(await rows().nth(1).locator('.lead-name').textContent()).toBe('Ana García');
  });

  it("opens a lead's detail: wizard answers, classification, CRM, prototype, e-mails", async () => {
    await page.locator(`tr[data-id="${ids.ana}"] .lead-name`).click();
    await expect.poll(() => page.locator('#detail-body h1').textContent()).toBe('Ana García');
    const text = (await page.locator('#detail-body').textContent()) ?? '';
    for (const expected of [
      'Build website',
      'More bookings online',
      'booking, payments',
      'Modern minimalist',
      'The built-in classifier',
      'Chat (trusted)',
      'PIPEDRIVE_API_TOKEN',
      'Landing',
    ]) {
      expect(text).toContain(expected);
    }
    expect(await page.locator('#lead-emails article.email').count()).toBeGreaterThanOrEqual(2);
    expect(await page.locator('#lead-emails').textContent()).toContain('ana@acme.example');
    expect(page.url()).toContain(`#/lead/${ids.ana}`);
    await page.locator('#lead-emails details').first().click();
    await shot(page, 'admin-detail.png');
  });

  it('shows the contact form messages newest first, hostile text as text', async () => {
    await page.locator('#tabs a[data-tab="contact"]').click();
    await expect.poll(() => page.locator('#contact-list article').count()).toBe(2);
    const first = page.locator('#contact-list article').first();
    expect(await first.locator('.email-subject').textContent()).toBe(XSS_COMPANY);
    expect(await first.locator('pre').textContent()).toBe(`${XSS_NAME} pay [U+202E]gnp.exe`);
    expect(await first.locator('a[href^="mailto:"]').getAttribute('href')).toBe(
      'mailto:contact2@example.com',
    );
    expect(await page.locator('#contact-list img, #contact-list script').count()).toBe(0);
    expect(await page.locator('#contact-pager .page-info').textContent()).toBe('Page 1 of 1 · 2 messages');
    expect(dialogs).toEqual([]);
    await shot(page, 'admin-contact.png');
  });

  it('shows the outbox with delivery states', async () => {
    await page.locator('#tabs a[data-tab="mail"]').click();
    await expect.poll(() => page.locator('#mail-list article').count()).toBeGreaterThanOrEqual(5);
    expect(await page.locator('#mail-transport').textContent()).toContain('No SMTP server is configured');
    await shot(page, 'admin-mail.png');
  });

  it("shows the queues' health and retries a dead job", async () => {
    await page.locator('#tabs a[data-tab="queues"]').click();
    const email = page.locator(`section[data-queue="${EMAIL_QUEUE}"]`);
    await expect.poll(() => email.locator('.badge').first().textContent()).toBe('Dead jobs');
    expect(await email.textContent()).toContain('SMTP 550: mailbox unavailable');
    await shot(page, 'admin-queues.png');
    await email.locator('.dead-job button').click();
    await expect
      .poll(() => page.locator('#queues-state').textContent())
      .toBe('1 job(s) put back in the queue.');
    await expect.poll(() => email.textContent()).toContain('No dead jobs.');
    expect((await server.deps.jobs.status(EMAIL_QUEUE)).counts.dead).toBe(0);
  });

  it('charts the analytics: daily visitors and events, top pages, countries', async () => {
    await page.locator('#tabs a[data-tab="analytics"]').click();
    await expect.poll(() => page.locator('#analytics-body .chart svg').count()).toBe(5);
    const daily = page.locator('#analytics-body .chart svg').first();
    expect(await daily.locator('polyline').count()).toBe(2);
    expect(await daily.locator('circle').count()).toBe(60);
    const text = (await page.locator('#analytics-body').textContent()) ?? '';
    for (const expected of [
      'Top pages',
      '/pricing',
      'Countries',
      'Colombia',
      'Event types',
      'page_view',
      'google.com',
    ]) {
      expect(text).toContain(expected);
    }
    expect(await page.locator('#analytics-body .kpi strong').first().textContent()).toBe(
      analyticsEvents.toLocaleString('en-GB'),
    );
    await shot(page, 'admin-analytics.png');
    await page.locator('#analytics-range select').selectOption('7');
    await expect
      .poll(() => page.locator('#analytics-body .chart svg').first().locator('circle').count())
      .toBe(14);
  });

  it('shows the breakdowns and the conversion table, filters by a click or the form, and exports CSV', async () => {
    await page.locator('#tabs a[data-tab="analytics"]').click();
    await page.locator('#analytics-range select').selectOption('30');
    const sources = page.locator('table[data-breakdown="sources"]');
    await expect.poll(() => sources.locator('tbody tr').count()).toBe(4);
    expect(await sources.textContent()).toContain('Direct / None');
    for (const list of [
      'utmCampaigns',
      'devices',
      'browsers',
      'operatingSystems',
      'entryPages',
      'exitPages',
    ]) {
      expect(await page.locator(`table[data-breakdown="${list}"] tbody tr`).count(), list).toBeGreaterThan(0);
    }
    const conversions = page.locator('#analytics-conversions');
    expect(await conversions.locator('table[data-breakdown="bySource"] tbody tr').count()).toBeGreaterThan(0);
    expect(await conversions.locator('table[data-breakdown="byCampaign"]').textContent()).toContain(
      'autumn-offer',
    );
    const visits = async () => Number((await kpi('Visits')).replace(/\D/g, ''));
    const all = await visits();
    expect(all).toBeGreaterThan(0);
    await shot(page, 'admin-analytics-breakdowns.png');

    // A click on a row filters the whole report by it.
    await page.locator('table[data-breakdown="devices"] button', { hasText: 'mobile' }).click();
    await expect.poll(() => page.locator('#analytics-chips .chip').textContent()).toContain('Device: mobile');
    await expect.poll(visits).toBeLessThan(all);
    expect(await page.locator('table[data-breakdown="devices"] tbody tr').count()).toBe(1);
    // The form adds another filter; removing both brings the whole report back.
    await page.locator('#analytics-filter-form select').selectOption('os');
    await page.locator('#analytics-filter-form input').fill('iOS');
    await page.locator('#analytics-filter-form button').click();
    await expect.poll(() => page.locator('#analytics-chips .chip').count()).toBe(2);
    await expect
      .poll(() => page.locator('#analytics-chips').textContent())
      .toContain('Operating system: iOS');
    await expect.poll(() => page.locator('#analytics-state').isVisible()).toBe(false);
    const mobileVisits = await visits();
    expect(mobileVisits).toBeGreaterThan(0);
    await shot(page, 'admin-analytics-filtered.png');

    const download = page.waitForEvent('download');
    await page.locator('#analytics-export select').selectOption('events');
    await page.locator('#analytics-export button').click();
    const file = await download;
    const csv = await readFile((await file.path())!, 'utf8');
    const [header, ...lines] = csv.trim().split('\r\n');
    expect(header).toMatch(/^id,created_at,day,type,page,/);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.every((line) => line.includes(',mobile,Safari,iOS,'))).toBe(true);

    for (let n = 2; n > 0; n--) {
      await page.locator('#analytics-chips .chip button').first().click();
      await expect.poll(() => page.locator('#analytics-chips .chip').count()).toBe(n - 1);
    }
    await expect.poll(visits).toBe(all);
  });

  it('the happy path logged no console error', () => {
    expect(consoleErrors).toEqual([]);
    expect(dialogs).toEqual([]);
  });

  it('a 4xx answer becomes a human message (from after to)', async () => {
    await page.locator('#tabs a[data-tab="leads"]').click();
    await page.locator('#lead-filters input[name="from"]').fill('2026-10-05');
    await page.locator('#lead-filters input[name="to"]').fill('2026-10-01');
    await page.locator('#lead-filters button[type="submit"]').click();
    await expect
      .poll(() => page.locator('#leads-state').textContent())
      .toContain('Some of the filters are not valid');
    expect(await page.locator('#leads-state').getAttribute('class')).toContain('error');
    await page.locator('#lead-filters button[type="reset"]').click();
    await expect.poll(() => rows().count()).toBe(5);
  });

  it('the network going down shows a clear message', async () => {
    await page.route('**/admin/api/**', (route) => route.abort('internetdisconnected'));
    await page.locator('#tabs a[data-tab="mail"]').click();
    await expect.poll(() => page.locator('#mail-state').textContent()).toContain('Cannot reach the server');
    await page.unroute('**/admin/api/**');
  });

  it('signing out leaves nothing of the signed-in views in the page', async () => {
    await page.locator('#tabs a[data-tab="leads"]').click();
    await expect.poll(() => rows().count()).toBe(5);
    await page.locator('#logout').click();
    await expect.poll(() => page.locator('#login-view').isVisible()).toBe(true);
    expect(await page.evaluate(() => document.body.textContent)).not.toContain('Ana García');
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    expect(await page.locator('#login-error').isVisible()).toBe(false);
    await page.locator('#admin-key').fill(ADMIN_KEY);
    await page.locator('#login-form button[type="submit"]').click();
    await expect.poll(() => rows().count()).toBe(5);
  });

  it('a key revoked while signed in sends the operator back to sign in', async () => {
    await page.evaluate(() => sessionStorage.setItem('adminApiKey', 'revoked-key'));
    await page.locator('#tabs a[data-tab="queues"]').click();
    await expect.poll(() => page.locator('#login-view').isVisible()).toBe(true);
    await expect.poll(() => page.locator('#login-error').textContent()).toContain('not accepted');
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    expect(await page.evaluate(() => document.body.textContent)).not.toContain('Ana García');
  });

  it('is usable on a phone: no sideways scrolling, one card per lead', async () => {
    const phone = await browser.newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
      deviceScaleFactor: 2,
    });
    const mobile = await phone.newPage();
    mobile.setDefaultTimeout(UI_TIMEOUT);
    await watch(mobile);
    consoleErrors.length = 0;
    await signIn(mobile, ADMIN_KEY);
    await expect.poll(() => mobile.locator('#leads-table tbody tr').count()).toBe(5);
    expect(await mobile.locator('#leads-table thead').isVisible()).toBe(false);
    const overflow = await mobile.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await shot(mobile, 'admin-mobile.png', false);
    await mobile.locator(`tr[data-id="${ids.lucia}"] .lead-name`).click();
    await expect.poll(() => mobile.locator('#detail-body h1').textContent()).toBe('Lucía Fernández');
    expect(
      await mobile.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
    ).toBeLessThanOrEqual(0);
    await shot(mobile, 'admin-mobile-detail.png', false);
    await mobile.locator('#tabs a[data-tab="analytics"]').click();
    await expect.poll(() => mobile.locator('#analytics-body .chart svg').count()).toBe(5);
    expect(
      await mobile.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
    ).toBeLessThanOrEqual(0);
    await shot(mobile, 'admin-mobile-analytics.png', false);
    expect(consoleErrors).toEqual([]);
    await phone.close();
  });
});
