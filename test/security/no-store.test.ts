import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../support/test-app.ts';

/**
 * Answers that hold someone's personal data (a lead, the contact messages, a chat) are never kept by
 * a browser's or a proxy's cache (src/http/paths.ts NO_STORE, declared by each feature's module):
 * errors included, so a cache cannot keep the one that came before the data either.
 */
describe('personal data is never stored by a cache', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp({ env: { CHAT_API_SECRET: 'chat-key-0123456789' } });
  });
  afterAll(() => ctx.close());

  it.each([
    ['/api/leads', {}],
    ['/api/leads/00000000-0000-4000-8000-000000000000', {}],
    ['/api/contact', {}],
    ['/api/chat/session-0123456789/history', { 'x-chat-api-key': 'chat-key-0123456789' }],
  ])('GET %s', async (path, headers) => {
    const res = await ctx.app.request(path, { headers });
    expect(res.status, path).toBeLessThan(500);
    expect(res.headers.get('cache-control'), path).toBe('no-store');
  });

  it('leaves what is public and cacheable to its own headers', async () => {
    const res = await ctx.app.request('/api/analytics/script.js');
    expect(res.headers.get('cache-control')).toContain('max-age');
  });
});
