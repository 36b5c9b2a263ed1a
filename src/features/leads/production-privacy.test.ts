import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../../../test/support/database.ts';
import { ADMIN_KEY, CHAT_KEY, PRIVACY_ENV } from '../../../test/support/features/privacy.ts';
import { createTestApp, type TestContext } from '../../../test/support/test-app.ts';

/**
 * Point 1 of docs/security.md's "Personal data in production": the listings the spec leaves open
 * need the admin key in production, unless PUBLIC_PERSONAL_DATA_LISTS=true; development keeps them
 * open; GET /api/leads/{id} stays open but leaves out the e-mail and the phone without the key.
 */
const engines = await testEngines();
const PRODUCTION = { ...PRIVACY_ENV, NODE_ENV: 'production', CAPTCHA_DISABLED: 'true' };

async function seed(ctx: TestContext): Promise<string> {
  const res = await ctx.app.request('/api/leads', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-chat-api-key': CHAT_KEY },
    body: JSON.stringify({
      personal: { name: 'Ana García', email_address: 'ana@example.com', phone_number: '+57 300 1' },
      steps: { service: 'build-website' },
      // A form page prefilled from a link: the address in its query, fragment and path.
      source_url: 'https://agency.example/wizard/ana@example.com?email=ana@example.com#ana@example.com',
    }),
  });
  expect(res.status).toBe(200);
  const contact = await ctx.app.request('/api/contact', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Ana', email: 'ana@example.com', subject: 'Hi', message: 'Hello there' }),
  });
  expect(contact.status).toBe(201);
  return ((await res.json()) as { leadId: string }).leadId;
}

const get = (ctx: TestContext, path: string, key?: string) =>
  ctx.app.request(path, { headers: key ? { 'x-admin-api-key': key } : {} });

describe.each(engines)('personal data listings on %s', (engine) => {
  const apps: TestContext[] = [];
  const start = async (env: Record<string, string>) => {
    const ctx = await createTestApp({ engine, env });
    apps.push(ctx);
    return { ctx, leadId: await seed(ctx) };
  };
  afterAll(() => Promise.all(apps.map((a) => a.close())));

  describe('in production', () => {
    let ctx: TestContext;
    let leadId: string;
    beforeAll(async () => ({ ctx, leadId } = await start(PRODUCTION)));

    it('GET /api/leads and /api/contact answer 401 UNAUTHORIZED without the admin key', async () => {
      for (const path of ['/api/leads', '/api/contact', '/api/leads?all=true', '/api/leads?page=abc']) {
        for (const key of [undefined, 'wrong', CHAT_KEY]) {
          const res = await get(ctx, path, key);
          expect(res.status, `${path} ${key}`).toBe(401);
          expect(((await res.json()) as { error: { code: string } }).error.code).toBe('UNAUTHORIZED');
        }
      }
    });

    it('work as before with it', async () => {
      const leads = (await (await get(ctx, '/api/leads', ADMIN_KEY)).json()) as {
        leads: { email: string }[];
      };
      expect(leads.leads.map((l) => l.email)).toEqual(['ana@example.com']);
      const contact = await get(ctx, '/api/contact', ADMIN_KEY);
      expect(contact.status).toBe(200);
      expect(((await contact.json()) as { submissions: unknown[] }).submissions).toHaveLength(1);
    });

    it('GET /api/leads/{id} stays open but leaves out the e-mail and the phone without the key', async () => {
      const open = (await (await get(ctx, `/api/leads/${leadId}`)).json()) as {
        lead: Record<string, unknown>;
      };
      expect(open.lead.name).toBe('Ana García');
      expect(open.lead).not.toHaveProperty('email');
      expect(open.lead).not.toHaveProperty('phone');
      const wrong = (await (await get(ctx, `/api/leads/${leadId}`, 'wrong')).json()) as { lead: object };
      expect(wrong.lead).not.toHaveProperty('email');
      const full = (await (await get(ctx, `/api/leads/${leadId}`, ADMIN_KEY)).json()) as { lead: object };
      expect(full.lead).toMatchObject({ email: 'ana@example.com', phone: '+57 300 1' });
    });

    it('GET /api/leads/{id} without the key gives the source page without its query, fragment or an address', async () => {
      const open = (await (await get(ctx, `/api/leads/${leadId}`)).json()) as { lead: { sourceUrl: string } };
      expect(open.lead.sourceUrl).toBe('https://agency.example/wizard/[email]');
      expect(JSON.stringify(open)).not.toContain('ana@');
      const full = (await (await get(ctx, `/api/leads/${leadId}`, ADMIN_KEY)).json()) as {
        lead: { sourceUrl: string };
      };
      expect(full.lead.sourceUrl).toBe(
        'https://agency.example/wizard/ana@example.com?email=ana@example.com#ana@example.com',
      );
    });
  });

  it('PUBLIC_PERSONAL_DATA_LISTS=true restores the open behaviour of the spec in production', async () => {
    const { ctx, leadId } = await start({ ...PRODUCTION, PUBLIC_PERSONAL_DATA_LISTS: 'true' });
    expect((await get(ctx, '/api/leads')).status).toBe(200);
    expect((await get(ctx, '/api/contact')).status).toBe(200);
    const lead = (await (await get(ctx, `/api/leads/${leadId}`)).json()) as { lead: object };
    expect(lead.lead).toMatchObject({ email: 'ana@example.com', phone: '+57 300 1' });
  });

  it('development keeps the spec: open, with every field; PUBLIC_PERSONAL_DATA_LISTS=false closes them', async () => {
    const { ctx, leadId } = await start(PRIVACY_ENV);
    expect((await get(ctx, '/api/leads')).status).toBe(200);
    expect((await get(ctx, '/api/contact')).status).toBe(200);
    const lead = (await (await get(ctx, `/api/leads/${leadId}`)).json()) as { lead: object };
    expect(lead.lead).toMatchObject({ email: 'ana@example.com' });
    const closed = await start({ ...PRIVACY_ENV, PUBLIC_PERSONAL_DATA_LISTS: 'false' });
    expect((await get(closed.ctx, '/api/leads')).status).toBe(401);
    expect((await get(closed.ctx, '/api/contact', ADMIN_KEY)).status).toBe(200);
  });
});
