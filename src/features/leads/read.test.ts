import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../../../test/support/database.ts';
import {
  CHAT_KEY,
  freshIp,
  leadsApp,
  postLead,
  submission,
  uniqueEmail,
} from '../../../test/support/features/leads.ts';
import type { TestContext } from '../../../test/support/test-app.ts';
import { prototypeQuota } from './port.ts';

const engines = await testEngines();

describe.each(engines)('reading leads on %s', (engine) => {
  let ctx: TestContext;
  const ids: string[] = [];
  beforeAll(async () => {
    // Offline defaults (no CAPTCHA secret, no CRM, outbox mail), chat key set for lookup.
    ctx = await leadsApp(engine, {
      CHAT_API_SECRET: CHAT_KEY,
      TRUST_PROXY: 'xff',
      PROTOTYPE_MONTHLY_LIMIT: '3',
    });
    for (let i = 0; i < 5; i++) {
      const res = await postLead(
        ctx,
        submission({ personal: { name: `Person ${i}` }, steps: { goal: `Project ${i}` } }),
      );
      ids.push(((await res.json()) as { leadId: string }).leadId);
    }
  });
  afterAll(() => ctx.close());

  const get = (path: string, headers: Record<string, string> = {}) => ctx.app.request(path, { headers });

  it('lists newest first with a total, paginated', async () => {
    const res = await get('/api/leads?page=1&limit=2');
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      leads: { id: string; name: string }[];
      total: number;
      totalPages: number;
    };
    expect(body).toMatchObject({ success: true, total: 5, page: 1, limit: 2, totalPages: 3 });
    expect(body.leads.map((l) => l.name)).toEqual(['Person 4', 'Person 3']);
    const last = (await (await get('/api/leads?page=3&limit=2')).json()) as { leads: { name: string }[] };
    expect(last.leads.map((l) => l.name)).toEqual(['Person 0']);
    const beyond = (await (await get('/api/leads?page=9&limit=2')).json()) as { leads: unknown[] };
    expect(beyond.leads).toEqual([]);
  });

  it('?all=true returns every lead', async () => {
    const body = (await (await get('/api/leads?all=true')).json()) as { leads: unknown[]; total: number };
    expect(body.leads).toHaveLength(5);
    expect(body.total).toBe(5);
  });

  it('defaults to page 1 of 20, and refuses bad paging', async () => {
    expect(await (await get('/api/leads')).json()).toMatchObject({ page: 1, limit: 20 });
    for (const query of [
      'page=0',
      'limit=0',
      'limit=101',
      'page=abc',
      'all=yes',
      'page=1e1',
      'limit=0x10',
      'page=%205',
      'page=',
    ]) {
      const res = await get(`/api/leads?${query}`);
      expect(res.status, query).toBe(400);
    }
  });

  it('never exposes CAPTCHA tokens, IP hashes or internal keys', async () => {
    const text = await (await get('/api/leads?all=true')).text();
    for (const secret of ['recaptcha', 'ok-token', 'iph_', 'submission', 'clientIp', 'crm_', 'trusted']) {
      expect(text).not.toContain(secret);
    }
  });

  it('a lead id in upper case is the same lead (UUIDs are case-insensitive)', async () => {
    const res = await get(`/api/leads/${ids[2]!.toUpperCase()}`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { lead: { id: string } }).lead.id).toBe(ids[2]);
  });

  it('GET /api/leads/:id returns one lead; unknown ids are 404', async () => {
    const res = await get(`/api/leads/${ids[2]}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { lead: Record<string, unknown> };
    expect(body.lead).toMatchObject({
      id: ids[2],
      name: 'Person 2',
      status: 'new',
      classification: 'lead',
      classifiedBy: 'builtin',
      steps: { goal: 'Project 2', service: 'build-website' },
      prototypeKind: 'landing',
    });
    expect(new Date(body.lead.createdAt as string).toISOString()).toBe(body.lead.createdAt);
    const missing = await get('/api/leads/00000000-0000-0000-0000-000000000000');
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe('NOT_FOUND');
  });

  describe('lookup', () => {
    it('requires X-Chat-Api-Key', async () => {
      expect((await get('/api/leads/lookup?email=a@example.com')).status).toBe(401);
      expect((await get('/api/leads/lookup?email=a@example.com', { 'x-chat-api-key': 'wrong' })).status).toBe(
        401,
      );
    });

    it('answers {exists:false} for an unknown e-mail and 400 without a valid one', async () => {
      const res = await get(`/api/leads/lookup?email=${uniqueEmail('nobody')}`, {
        'x-chat-api-key': CHAT_KEY,
      });
      expect(await res.json()).toEqual({ exists: false });
      expect((await get('/api/leads/lookup', { 'x-chat-api-key': CHAT_KEY })).status).toBe(400);
      expect((await get('/api/leads/lookup?email=nope', { 'x-chat-api-key': CHAT_KEY })).status).toBe(400);
    });

    it('finds the newest lead case-insensitively and reports usage over both buckets', async () => {
      const email = uniqueEmail('Lookup');
      const ip = freshIp();
      await postLead(
        ctx,
        submission({ personal: { email_address: email, name: 'Old' }, steps: { goal: 'first' } }),
        { ip },
      );
      const res = await postLead(
        ctx,
        submission({
          personal: { email_address: email, name: 'Lia', company: 'Lia Labs' },
          steps: { service: 'build-application', prototype: 'application', goal: 'second' },
        }),
        { ip },
      );
      const { leadId } = (await res.json()) as { leadId: string };
      // The prototypes feature reserves and marks the slot; lookup reports it.
      await prototypeQuota(ctx.deps).reserve('application', { ip, email }, leadId);
      await prototypeQuota(ctx.deps).markInProgress(leadId);

      const found = await get(`/api/leads/lookup?email=${encodeURIComponent(`  ${email.toUpperCase()} `)}`, {
        'x-chat-api-key': CHAT_KEY,
        'x-forwarded-for': ip,
      });
      expect(found.status).toBe(200);
      const now = new Date();
      const reset = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1))
        .toISOString()
        .slice(0, 10);
      expect(await found.json()).toEqual({
        exists: true,
        name: 'Lia',
        company: 'Lia Labs',
        service: 'build-application',
        rateLimit: {
          landing: { used: 0, limit: 3, remaining: 3 },
          application: { used: 1, limit: 3, remaining: 2 },
          inProgress: true,
          inProgressType: 'application',
          resetDate: reset,
        },
      });
      // Another e-mail from the same IP shares the IP bucket.
      const sameIp = uniqueEmail('same-ip');
      await postLead(ctx, submission({ personal: { email_address: sameIp }, steps: { goal: 'third' } }), {
        ip,
      });
      const shared = (await (
        await get(`/api/leads/lookup?email=${sameIp}`, { 'x-chat-api-key': CHAT_KEY, 'x-forwarded-for': ip })
      ).json()) as { rateLimit: { application: { used: number } } };
      expect(shared.rateLimit.application.used).toBe(1);
    });
  });

  it('documents the routes in /openapi.json', async () => {
    const doc = (await (await get('/openapi.json')).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    expect(Object.keys(doc.paths['/api/leads'] ?? {}).sort()).toEqual(['get', 'post']);
    expect(doc.paths['/api/leads/lookup']?.get).toBeDefined();
    expect(doc.paths['/api/leads/{id}']?.get).toBeDefined();
  });
});
