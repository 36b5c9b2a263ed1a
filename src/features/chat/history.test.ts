import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../../../test/support/database.ts';
import { startLlmStandIn } from '../../../test/support/llm-stand-in.ts';
import { readSse } from '../../../test/support/sse-client.ts';
import type { RecordedRequest } from '../../../test/support/stand-in.ts';
import { createTestApp, type TestContext } from '../../../test/support/test-app.ts';
import { SqlSearchIndex } from '../../search/sql-search-index.ts';
import { appendMessage, readMessages } from './history-store.ts';

const KEY = 'chat-secret-for-tests';
const WIZARD = 'https://agency.example/wizard';

async function fillIndex(ctx: TestContext) {
  await new SqlSearchIndex(ctx.deps.db).replaceDocument({
    key: 'services',
    url: 'https://agency.example/services',
    source: 'services.md',
    title: 'Websites',
    chunks: ['We design and build fast websites with a content management system your team can edit.'],
  });
}

async function ask(ctx: TestContext, sessionId: string, query: string) {
  const response = await ctx.app.request('/api/chat/stream', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-chat-api-key': KEY },
    body: JSON.stringify({ sessionId, query, language: 'en' }),
  });
  expect(response.status).toBe(200);
  const events = await readSse(response);
  expect(events.slice(0, -1).every((e) => e.event === 'token')).toBe(true);
  const done = events.at(-1)!;
  expect(done.event).toBe('done');
  const data = done.data as { content: string; metadata: Record<string, unknown> };
  expect(
    events
      .slice(0, -1)
      .map((e) => (e.data as { content: string }).content)
      .join(''),
  ).toBe(data.content);
  return { events, ...data };
}

async function historyOf(ctx: TestContext, sessionId: string) {
  const response = await ctx.app.request(`/api/chat/${sessionId}/history`, {
    headers: { 'x-chat-api-key': KEY },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as { total: number; messages: { role: string; content: string }[] };
}

describe.each(await testEngines())('chat with the built-in agent and history on %s', (engine) => {
  let offline: TestContext;
  let withModel: TestContext;
  const modelRequests: RecordedRequest[] = [];
  let model: Awaited<ReturnType<typeof startLlmStandIn>>;

  beforeAll(async () => {
    model = await startLlmStandIn((request) => {
      modelRequests.push(request);
      return 'Yes: we build fast websites your team can edit [1]. Start with the wizard.';
    });
    offline = await createTestApp({ engine, env: { CHAT_API_SECRET: KEY, WIZARD_URL: WIZARD } });
    withModel = await createTestApp({
      engine,
      env: { CHAT_API_SECRET: KEY, WIZARD_URL: WIZARD, AI_BASE_URL: model.url, AI_MODEL: 'stand-in' },
    });
    await fillIndex(offline);
    await fillIndex(withModel);
  });
  afterAll(async () => {
    await offline?.close();
    await withModel?.close();
    await model?.close();
  });

  it('stores and reads messages newest-last, with limit and total', async () => {
    const sessionId = `store-${engine}`;
    const base = Date.now();
    for (let i = 0; i < 5; i++) {
      await appendMessage(offline.deps.db, {
        sessionId,
        role: i % 2 === 0 ? 'user' : 'assistant',
        content: `m${i}`,
        createdAt: base + i,
        ...(i % 2 === 1 ? { metadata: { i } } : {}),
      });
    }
    await appendMessage(offline.deps.db, { sessionId: 'other', role: 'user', content: 'x', createdAt: base });
    const latest = await readMessages(offline.deps.db, sessionId, 3);
    expect(latest.total).toBe(5);
    expect(latest.messages.map((m) => m.content)).toEqual(['m2', 'm3', 'm4']);
    expect(latest.messages[1]).toEqual({
      role: 'assistant',
      content: 'm3',
      createdAt: new Date(base + 3).toISOString(),
      metadata: { i: 3 },
    });
    expect(await readMessages(offline.deps.db, 'nobody', 10)).toEqual({ messages: [], total: 0 });
  });

  it('answers offline from the search index, citing the chunk, and stores both messages', async () => {
    const sessionId = `offline-${engine}`;
    const { events, content, metadata } = await ask(offline, sessionId, 'Do you build websites?');
    expect(events.length).toBeGreaterThan(5);
    expect(content).toContain('fast websites with a content management system');
    expect(content).toContain(WIZARD);
    expect(metadata).toMatchObject({
      agent: 'builtin',
      engine: 'offline',
      sources: [{ ref: 1, source: 'https://agency.example/services', title: 'Websites' }],
    });
    const history = await historyOf(offline, sessionId);
    expect(history.total).toBe(2);
    expect(history.messages.map((m) => [m.role, m.content])).toEqual([
      ['user', 'Do you build websites?'],
      ['assistant', content],
    ]);
  });

  it('answers with the language model, grounded in the index, streaming its deltas', async () => {
    const sessionId = `llm-${engine}`;
    modelRequests.length = 0;
    const { events, content, metadata } = await ask(withModel, sessionId, 'Do you build websites?');
    expect(content).toBe('Yes: we build fast websites your team can edit [1]. Start with the wizard.');
    expect(events.length).toBeGreaterThan(3);
    expect(metadata).toMatchObject({
      engine: 'llm',
      model: 'stand-in',
      sources: [{ ref: 1, source: 'https://agency.example/services' }],
    });
    const body = JSON.parse(modelRequests[0]!.body) as {
      stream: boolean;
      messages: { role: string; content: string }[];
    };
    expect(body.stream).toBe(true);
    expect(body.messages[0]!.content).toContain('fast websites with a content management system');
    expect(body.messages[0]!.content).toContain(WIZARD);
    expect(body.messages.at(-1)).toEqual({ role: 'user', content: 'Do you build websites?' });
    expect((await historyOf(withModel, sessionId)).messages.map((m) => m.content)).toEqual([
      'Do you build websites?',
      content,
    ]);
  });

  it('answers an empty history for an unknown session (the built-in agent keeps none)', async () => {
    const response = await offline.app.request('/api/chat/unknown/history?limit=5', {
      headers: { 'x-chat-api-key': KEY },
    });
    expect(await response.json()).toEqual({ sessionId: 'unknown', messages: [], total: 0 });
  });
});
