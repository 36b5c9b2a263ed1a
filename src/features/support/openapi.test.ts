import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/support/test-app.ts';

describe('support routes in the API description', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(() => ctx.close());

  it('documents both routes; the ticket body as multipart with the attachments field', async () => {
    const doc = (await (await ctx.app.request('/openapi.json')).json()) as {
      paths: Record<
        string,
        Record<string, { requestBody?: { content: Record<string, { schema: unknown }> } }>
      >;
      components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
    };
    expect(doc.paths['/api/support/send']?.post).toBeDefined();
    const ticket = doc.paths['/api/support/tickets']?.post;
    expect(JSON.stringify(ticket?.requestBody?.content['multipart/form-data'])).toContain(
      'SupportTicketRequest',
    );
    expect(Object.keys(doc.components.schemas.SupportTicketRequest?.properties ?? {})).toEqual(
      expect.arrayContaining(['fullName', 'urgency', 'recaptchaToken', 'attachments']),
    );
  });

  it("documents the pages a browser's plain form post gets, on the ticket and contact routes", async () => {
    const doc = (await (await ctx.app.request('/openapi.json')).json()) as {
      paths: Record<string, { post?: { responses: Record<string, { content?: Record<string, unknown> }> } }>;
    };
    for (const path of ['/api/support/tickets', '/api/contact']) {
      const responses = doc.paths[path]?.post?.responses ?? {};
      expect(Object.keys(responses), path).toEqual(expect.arrayContaining(['200', '303', '400', '429']));
      expect(Object.keys(responses['200']?.content ?? {}), path).toContain('text/html');
      // Errors stay typed as the envelope alone: a generated client reads `error.error` (the pages
      // they become for a browser's form post are told in the description).
      expect(Object.keys(responses['400']?.content ?? {}), path).toEqual(['application/json']);
    }
  });

  it('wrong method → 405 with Allow', async () => {
    const res = await ctx.app.request('/api/support/tickets');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toContain('POST');
  });
});
