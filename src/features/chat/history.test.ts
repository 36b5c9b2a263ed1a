import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchHit, SearchIndex } from '../../search/search-index.ts';
import { testEngines } from '../../testing/database.ts';
import { createTestApp, type TestContext } from '../../testing/test-app.ts';
import { appendMessage, readMessages } from './history-store.ts';
import { readSse } from './sse-client.ts';

const KEY = 'chat-secret-for-tests';

const index: SearchIndex = {
  async search(query: string): Promise<SearchHit[]> {
    if (!/website/i.test(query)) return [];
    return [
      {
        source: 'services.md',
        title: 'Websites',
        url: 'https://agency.example/services',
        score: 1,
        text: 'We design and build fast websites with a CMS your team can edit.',
      },
    ];
  },
};

describe.each(await testEngines())('chat history on %s', (engine) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp({
      engine,
      env: { CHAT_API_SECRET: KEY, WIZARD_URL: 'https://agency.example/wizard' },
    });
    ctx.deps.search = index;
  });
  afterAll(() => ctx?.close());

  it('stores and reads messages newest-last, with limit and total', async () => {
    const sessionId = `store-${engine}`;
    const base = Date.now();
    for (let i = 0; i < 5; i++) {
      await appendMessage(ctx.deps.db, {
        sessionId,
        role: i % 2 === 0 ? 'user' : 'assistant',
        content: `m${i}`,
        createdAt: base + i,
        ...(i % 2 === 1 ? { metadata: { i } } : {}),
      });
    }
    await appendMessage(ctx.deps.db, { sessionId: 'other', role: 'user', content: 'x', createdAt: base });
    const latest = await readMessages(ctx.deps.db, sessionId, 3);
    expect(latest.total).toBe(5);
    expect(latest.messages.map((m) => m.content)).toEqual(['m2', 'm3', 'm4']);
    expect(latest.messages[1]).toEqual({
      role: 'assistant',
      content: 'm3',
      createdAt: new Date(base + 3).toISOString(),
      metadata: { i: 3 },
    });
    expect(await readMessages(ctx.deps.db, 'nobody', 10)).toEqual({ messages: [], total: 0 });
  });

  it("streams the built-in agent's answer and serves both messages as the history", async () => {
    const sessionId = `builtin-${engine}`;
    const response = await ctx.app.request('/api/chat/stream', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-chat-api-key': KEY },
      body: JSON.stringify({ sessionId, query: 'Do you build websites?', language: 'en' }),
    });
    expect(response.status).toBe(200);
    const events = await readSse(response);
    expect(events.length).toBeGreaterThan(5);
    expect(events.slice(0, -1).every((e) => e.event === 'token')).toBe(true);
    const done = events.at(-1)!;
    expect(done.event).toBe('done');
    const { content, metadata } = done.data as { content: string; metadata: Record<string, unknown> };
    expect(content).toContain('fast websites with a CMS');
    expect(content).toContain('https://agency.example/wizard');
    expect(metadata).toMatchObject({
      agent: 'builtin',
      engine: 'offline',
      sources: [{ ref: 1, source: 'services.md' }],
    });

    const history = await ctx.app.request(`/api/chat/${sessionId}/history`, {
      headers: { 'x-chat-api-key': KEY },
    });
    expect(history.status).toBe(200);
    const body = (await history.json()) as { total: number; messages: { role: string; content: string }[] };
    expect(body.total).toBe(2);
    expect(body.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(body.messages[0]!.content).toBe('Do you build websites?');
    expect(body.messages[1]!.content).toBe(content);
  });

  it('answers an empty history for an unknown session (the built-in agent keeps none)', async () => {
    const response = await ctx.app.request('/api/chat/unknown/history?limit=5', {
      headers: { 'x-chat-api-key': KEY },
    });
    expect(await response.json()).toEqual({ sessionId: 'unknown', messages: [], total: 0 });
  });
});
