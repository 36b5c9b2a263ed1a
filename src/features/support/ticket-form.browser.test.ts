import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAS_CHROMIUM, launchChromium, warnIfNoChromium } from '../../../test/support/chromium.ts';
import {
  SAMPLE_FILES,
  type ServedApp,
  type SupportWorld,
  serveApp,
  startWorld,
  uniqueEmail,
} from '../../../test/support/features/support.ts';
import { type StandIn, startStandIn } from '../../../test/support/stand-in.ts';

/**
 * A support-ticket form as a site writes it without any script: multipart with a file, the CAPTCHA
 * widget's own hidden field, and (or not) a hidden `redirect` back to the site.
 */
function ticketFormPage(api: string, site: string, withRedirect: boolean): string {
  return `<!doctype html><html lang="es"><head><meta charset="utf-8"><title>Soporte</title></head><body>
<form method="post" action="${api}/api/support/tickets" enctype="multipart/form-data">
  ${withRedirect ? `<input type="hidden" name="redirect" value="${site}/thanks">` : ''}
  <input type="hidden" name="language" value="es">
  <input type="hidden" name="g-recaptcha-response" value="ok-token">
  <label>Nombre <input name="fullName" required></label>
  <label>Correo <input name="email" type="email" required></label>
  <label>Tipo <input name="issueType" required></label>
  <label>Urgencia <select name="urgency"><option>high</option><option>whenever</option></select></label>
  <label>Descripción <textarea name="description" required></textarea></label>
  <label>Captura <input type="file" name="attachments"></label>
  <button type="submit">Enviar</button>
</form></body></html>`;
}

warnIfNoChromium('Support ticket form browser tests');

describe.skipIf(!HAS_CHROMIUM)('a plain HTML support-ticket form on the site, posted by Chromium', () => {
  let world: SupportWorld;
  let site: StandIn;
  let server: ServedApp;
  let browser: Browser;

  beforeAll(async () => {
    world = await startWorld();
    let apiUrl = '';
    site = await startStandIn((req, res) => {
      const path = new URL(req.url, 'http://site').pathname;
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      if (path === '/thanks') res.end('<!doctype html><title>Gracias</title><h1>Ticket recibido</h1>');
      else res.end(ticketFormPage(apiUrl, site.url, path === '/with-redirect'));
    });
    server = await serveApp('sqlite', world, { SITE_ORIGIN: site.url, TRUST_PROXY: 'none' });
    apiUrl = server.url;
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await site?.close();
    await world?.close();
  });

  const ticketsOf = (email: string) =>
    server.deps.db.selectFrom('support_tickets').selectAll().where('email', '=', email).execute();

  async function fillAndSend(path: string, email: string, urgency = 'high') {
    const page = await browser.newPage();
    await page.goto(`${site.url}${path}`);
    await page.fill('input[name=fullName]', 'Ana <b>Díaz</b>');
    await page.fill('input[name=email]', email);
    await page.fill('input[name=issueType]', 'bug');
    await page.selectOption('select[name=urgency]', urgency);
    await page.fill('textarea[name=description]', 'El formulario de reservas falla en el paso 2.');
    await page.setInputFiles('input[name=attachments]', {
      name: 'captura.png',
      mimeType: 'image/png',
      buffer: SAMPLE_FILES.png,
    });
    return page;
  }

  it('with `redirect`: the ticket (and its file) is stored and the browser follows the 303 back to the site', async () => {
    const email = uniqueEmail('form-redirect');
    const page = await fillAndSend('/with-redirect', email);
    await Promise.all([page.waitForURL(`${site.url}/thanks`), page.click('button[type=submit]')]);
    expect(await page.textContent('h1')).toBe('Ticket recibido');
    await page.close();
    const [ticket] = await ticketsOf(email);
    expect(ticket).toBeDefined();
    const files = await server.deps.db
      .selectFrom('support_attachments')
      .select('filename')
      .where('ticket_id', '=', ticket!.id)
      .execute();
    expect(files).toEqual([{ filename: 'captura.png' }]);
  });

  it('without `redirect`: a thank-you page in the form’s language naming the ticket; a refusal is a page too', async () => {
    const email = uniqueEmail('form-page');
    const page = await fillAndSend('/no-redirect', email);
    await Promise.all([
      page.waitForURL(`${server.url}/api/support/tickets`),
      page.click('button[type=submit]'),
    ]);
    const [ticket] = await ticketsOf(email);
    expect(await page.textContent('h1')).toBe('¡Gracias, Ana <b>Díaz</b>!');
    expect(await page.textContent('main')).toContain(`Recibimos tu ticket ${ticket!.id}`);
    await page.close();

    const refused = uniqueEmail('form-refused');
    const again = await fillAndSend('/no-redirect', refused, 'whenever');
    const [answer] = await Promise.all([
      again.waitForResponse(`${server.url}/api/support/tickets`),
      again.click('button[type=submit]'),
    ]);
    expect(answer.status()).toBe(400);
    expect(answer.headers()['content-type']).toMatch(/^text\/html/);
    expect(await again.textContent('h1')).toBe('Tu mensaje no se envió.');
    await again.close();
    expect(await ticketsOf(refused)).toEqual([]);
  });
});
