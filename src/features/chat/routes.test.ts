import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/support/test-app.ts';
import { CHAT_LIMITS } from './limits.ts';

const KEY = 'chat-secret-for-tests';

describe('chat routes: auth and validation', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp({ env: { CHAT_API_SECRET: KEY } });
  });
  afterAll(() => ctx?.close());

  const post = (body: unknown, headers: Record<string, string> = { 'x-chat-api-key': KEY }) =>
    ctx.app.request('/api/chat/stream', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const get = (path: string, headers: Record<string, string> = { 'x-chat-api-key': KEY }) =>
    ctx.app.request(path, { headers });

  it.each([
    ['no key', {}],
    ['a wrong key', { 'x-chat-api-key': 'wrong' }],
    ['an empty key', { 'x-chat-api-key': '' }],
  ])('answers 401 with %s', async (_name, headers) => {
    for (const response of [
      await post({ sessionId: 's', query: 'q' }, headers),
      await post('not json at all', headers),
      await get('/api/chat/s/history', headers),
      await get('/api/chat/s/history?limit=0', headers),
    ]) {
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ success: false, error: { code: 'UNAUTHORIZED' } });
    }
  });

  it('answers 401 to everyone when CHAT_API_SECRET is unset', async () => {
    const open = await createTestApp();
    try {
      const response = await open.app.request('/api/chat/s/history', { headers: { 'x-chat-api-key': '' } });
      expect(response.status).toBe(401);
    } finally {
      await open.close();
    }
  });

  it.each([
    ['a missing sessionId', { query: 'q' }],
    ['a missing query', { sessionId: 's' }],
    ['a blank query', { sessionId: 's', query: '   ' }],
    ['an empty sessionId', { sessionId: '', query: 'q' }],
    ['a long sessionId', { sessionId: 's'.repeat(CHAT_LIMITS.sessionIdChars + 1), query: 'q' }],
    ['a long query', { sessionId: 's', query: 'q'.repeat(CHAT_LIMITS.queryChars + 1) }],
    ['a long language', { sessionId: 's', query: 'q', language: 'l'.repeat(CHAT_LIMITS.languageChars + 1) }],
    ['a number query', { sessionId: 's', query: 42 }],
  ])('answers 400 for %s', async (_name, body) => {
    const response = await post(body);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR' } });
  });

  it.each([
    ['hexadecimal', '0x10'],
    ['an exponent', '1e1'],
    ['a leading space', '%205'],
    ['a trailing space', '5%20'],
    ['a sign', '%2B5'],
  ])('answers 400 for a history limit written with %s', async (_name, limit) => {
    const response = await get(`/api/chat/s/history?limit=${limit}`);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR' } });
  });

  it('answers 400 for malformed JSON and 415 for a non-JSON body', async () => {
    expect((await post('{"sessionId":')).status).toBe(400);
    const response = await ctx.app.request('/api/chat/stream', {
      method: 'POST',
      headers: { 'content-type': 'text/plain', 'x-chat-api-key': KEY },
      body: 'hello',
    });
    expect(response.status).toBe(415);
  });

  it('accepts the limits exactly', async () => {
    const response = await post({
      sessionId: 's'.repeat(CHAT_LIMITS.sessionIdChars),
      query: 'q'.repeat(CHAT_LIMITS.queryChars),
      language: 'l'.repeat(CHAT_LIMITS.languageChars),
    });
    expect(response.status).toBe(200);
    await response.text();
    const history = await get(`/api/chat/${'s'.repeat(CHAT_LIMITS.sessionIdChars)}/history?limit=200`);
    expect(history.status).toBe(200);
    expect((await get(`/api/chat/${'s'.repeat(CHAT_LIMITS.sessionIdChars + 1)}/history`)).status).toBe(400);
  });

  it('documents both routes in /openapi.json', async () => {
    const document = (await (await ctx.app.request('/openapi.json')).json()) as {
      paths: Record<string, unknown>;
    };
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/api/chat/stream', '/api/chat/{sessionId}/history']),
    );
  });
});
