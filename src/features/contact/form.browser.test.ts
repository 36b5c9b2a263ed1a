import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAS_CHROMIUM, launchChromium, warnIfNoChromium } from '../../../test/support/chromium.ts';
import { type SmtpStandIn, startSmtpStandIn } from '../../../test/support/smtp-stand-in.ts';
import { type StandIn, startStandIn } from '../../../test/support/stand-in.ts';
import { startTestServer } from '../../../test/support/test-app.ts';
import { EMAIL_QUEUE } from '../../integrations/mail/queue.ts';

const SUPPORT_EMAIL = 'support@agency.example';

/**
 * The agency's site on its own origin with the kind of form web developers write: a plain
 * `<form method="post">` posting across origins to the API, with a hidden `redirect` back to the site
 * and the honeypot hidden from people. No script at all.
 */
function formPage(api: string, site: string, extra = ''): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Contact</title></head><body>
<form method="post" action="${api}/api/contact" ${extra}>
  <input type="hidden" name="redirect" value="${site}/thanks">
  <input type="text" name="_gotcha" style="display:none" tabindex="-1" autocomplete="off">
  <label>Name <input name="name" required></label>
  <label>E-mail <input name="email" type="email" required></label>
  <label>Subject <input name="subject" required></label>
  <label>Message <textarea name="message" required></textarea></label>
  <button type="submit">Send</button>
</form></body></html>`;
}

warnIfNoChromium('Contact form browser tests');

describe.skipIf(!HAS_CHROMIUM)('a plain HTML contact form on the site, posted by Chromium', () => {
  let site: StandIn;
  let smtp: SmtpStandIn;
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let browser: Browser;

  beforeAll(async () => {
    smtp = await startSmtpStandIn();
    // The site's origin is only known once it listens; its pages name the API's, known by then.
    let apiUrl = '';
    site = await startStandIn((req, res) => {
      const path = new URL(req.url, 'http://site').pathname;
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      if (path === '/thanks') res.end('<!doctype html><title>Thanks</title><h1>Thanks for writing</h1>');
      else if (path === '/multipart') res.end(formPage(apiUrl, site.url, 'enctype="multipart/form-data"'));
      else res.end(formPage(apiUrl, site.url));
    });
    server = await startTestServer({
      env: {
        SITE_ORIGIN: site.url,
        SMTP_URL: smtp.url,
        MAIL_FROM: 'Agency <hello@agency.example>',
        SUPPORT_EMAIL,
      },
    });
    apiUrl = server.url;
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await site?.close();
    await smtp?.close();
  });

  it.each([
    ['urlencoded', '/contact'],
    ['multipart', '/multipart'],
  ])('%s: follows the 303 back to the site; the message is stored and e-mailed', async (encoding, path) => {
    const email = `ana.${encoding}@example.com`;
    const page = await browser.newPage();
    await page.goto(`${site.url}${path}`);
    await page.fill('input[name=name]', 'Ana Díaz');
    await page.fill('input[name=email]', email);
    await page.fill('input[name=subject]', `A booking site (${encoding})`);
    await page.fill(
      'textarea[name=message]',
      'We run a small hotel and would like a new website with online booking.',
    );
    await Promise.all([page.waitForURL(`${site.url}/thanks`), page.click('button[type=submit]')]);
    expect(await page.textContent('h1')).toBe('Thanks for writing');
    await page.close();

    const row = await server.deps.db
      .selectFrom('contact_submissions')
      .selectAll()
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ name: 'Ana Díaz', status: 'new' });
    await server.deps.worker.drain(EMAIL_QUEUE);
    const mail = smtp.messages.find((m) => m.subject?.includes(`(${encoding})`));
    expect(mail?.envelopeTo).toEqual([SUPPORT_EMAIL]);
    expect(mail?.replyTo?.text).toBe(email);
  });
});
