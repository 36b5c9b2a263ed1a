import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLead, post, startV0StandIn } from '../../../test/support/features/prototypes.ts';
import { startLlmStandIn } from '../../../test/support/llm-stand-in.ts';
import type { StandIn } from '../../../test/support/stand-in.ts';
import { createTestApp } from '../../../test/support/test-app.ts';

const PAGE = `<!DOCTYPE html><html lang="en"><head><title>Hotel Sol</title><style>h1{color:teal}</style></head>
<body><h1>Hotel Sol</h1><p>${'Sea views, slow breakfasts and a pool that glows at night. '.repeat(10)}</p>
<script>alert(document.cookie)</script><img src="https://tracker.test/p.gif" onerror="alert(1)"></body></html>`;

/** The generator is chosen from config (PROTOTYPE_GENERATOR) and used end to end. */
describe('generators chosen by PROTOTYPE_GENERATOR', () => {
  let llm: StandIn;
  let v0: Awaited<ReturnType<typeof startV0StandIn>>;
  beforeAll(async () => {
    llm = await startLlmStandIn((req) =>
      // The leads feature classifies the submission with the same model: answer that as a lead.
      /classification/.test(req.body) && !/Prototype brief/.test(req.body)
        ? '{"classification":"lead","reason":"a real project"}'
        : PAGE,
    );
    v0 = await startV0StandIn();
  });
  afterAll(async () => {
    await llm.close();
    await v0.close();
  });

  it('llm: the model writes the page, which is served sanitised', async () => {
    const ctx = await createTestApp({
      env: {
        TRUST_PROXY: 'xff',
        PROTOTYPE_GENERATOR: 'llm',
        AI_BASE_URL: `${llm.url}/v1`,
        AI_MODEL: 'stand-in',
      },
    });
    try {
      expect(ctx.deps.prototypeGenerator.name).toBe('llm');
      const id = await createLead(ctx.app);
      const res = await post(ctx.app, `/api/leads/${id}/generate`);
      expect(await res.json()).toMatchObject({ status: 'completed', generator: 'llm' });
      const html = await (await ctx.app.request(`/api/leads/${id}/prototype`)).text();
      expect(html).toContain('<h1>Hotel Sol</h1>');
      expect(html).not.toMatch(/<script|onerror|tracker\.test/);
      expect(
        llm.requests.some((r) => /Prototype brief/.test(r.body) && JSON.parse(r.body).stream === true),
      ).toBe(true);
    } finally {
      await ctx.close();
    }
  });

  it('v0: the demo URL and files of the v0 chat are kept', async () => {
    const ctx = await createTestApp({
      env: {
        TRUST_PROXY: 'xff',
        PROTOTYPE_GENERATOR: 'v0',
        V0_API_KEY: 'v0-key',
        V0_API_URL: `${v0.url}/v1`,
      },
    });
    try {
      expect(ctx.deps.prototypeGenerator.name).toBe('v0');
      const id = await createLead(ctx.app, { steps: { prototype: 'application' } });
      const body = await (await post(ctx.app, `/api/leads/${id}/generate`)).json();
      expect(body).toMatchObject({ status: 'completed', generator: 'v0', demoUrl: `${v0.url}/demo` });
      const row = await ctx.deps.db
        .selectFrom('prototype_attempts')
        .select(['files', 'external_id'])
        .where('lead_id', '=', id)
        .executeTakeFirstOrThrow();
      expect(row.external_id).toBe('chat_1');
      expect(JSON.parse(row.files!)).toEqual([{ name: 'app/page.tsx', content: 'export default 1' }]);
    } finally {
      await ctx.close();
    }
  });

  it('a generator whose service is not configured falls back to the built-in one', async () => {
    const envs: Record<string, string>[] = [
      { PROTOTYPE_GENERATOR: 'llm' },
      { PROTOTYPE_GENERATOR: 'v0' },
      {},
    ];
    for (const env of envs) {
      const ctx = await createTestApp({ env });
      try {
        expect(ctx.deps.prototypeGenerator.name).toBe('builtin');
      } finally {
        await ctx.close();
      }
    }
  });
});
