import type { AddressInfo } from 'node:net';
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  type StandInAgent,
  startStandInAgent,
  streamingAgent,
} from '../../../test/support/sales-agent-stand-in.ts';
import { readSse, sseEvents } from '../../../test/support/sse-client.ts';
import { startTestServer, type TestContext } from '../../../test/support/test-app.ts';
import { CHAT_LIMITS } from './limits.ts';
import { CHAT_SHUTDOWN_MESSAGE } from './routes.ts';

const KEY = 'chat-secret-for-tests';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
let counter = 0;
const newSession = () => `relay-${process.pid}-${++counter}`;

type Server_ = TestContext & { url: string };

async function startChatServer(agentUrl: string, env: Record<string, string> = {}): Promise<Server_> {
  return startTestServer({
    env: {
      CHAT_API_SECRET: KEY,
      SALES_AGENT_WS_URL: agentUrl,
      SALES_AGENT_CONNECT_TIMEOUT_MS: '1000',
      SALES_AGENT_IDLE_TIMEOUT_MS: '600',
      SALES_AGENT_MAX_DURATION_MS: '3000',
      CHAT_RATE_LIMIT: '0',
      ...env,
    },
  });
}

function ask(
  server: Server_,
  body: unknown,
  init: { headers?: Record<string, string>; signal?: AbortSignal } = {},
) {
  return fetch(`${server.url}/api/chat/stream`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-chat-api-key': KEY, ...init.headers },
    body: JSON.stringify(body),
    signal: init.signal,
  });
}

function history(server: Server_, sessionId: string, query = '') {
  return fetch(`${server.url}/api/chat/${encodeURIComponent(sessionId)}/history${query}`, {
    headers: { 'x-chat-api-key': KEY },
  });
}

describe('chat relay to a WebSocket sales agent', () => {
  let agent: StandInAgent;
  let server: Server_;

  beforeAll(async () => {
    agent = await startStandInAgent(streamingAgent('Hello there'));
    server = await startChatServer(agent.url);
  });
  afterAll(async () => {
    await server?.close();
    await agent?.close();
  });
  beforeEach(() => agent.setBehaviour(streamingAgent('Hello there', { intent: 'greeting' })));

  it('streams token events then done, with SSE headers, and sends protocol v1 with the client IP', async () => {
    const sessionId = newSession();
    const before = agent.connections.length;
    const response = await ask(server, { sessionId, query: 'Hi!', language: 'en', extra: 'ignored' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('x-accel-buffering')).toBe('no');
    expect(await readSse(response)).toEqual([
      { event: 'token', data: { content: 'Hello' } },
      { event: 'token', data: { content: ' there' } },
      { event: 'done', data: { content: 'Hello there', metadata: { intent: 'greeting' } } },
    ]);
    const connection = agent.connections[before]!;
    expect(connection.frames[0]).toEqual({
      type: 'query',
      version: 1,
      sessionId,
      query: 'Hi!',
      language: 'en',
      clientIp: '127.0.0.1',
    });
    expect(connection.headers['x-forwarded-for']).toBe('127.0.0.1');
    // The relay closes the connection once the answer is done.
    expect(await connection.closed).toBe(1000);
  });

  it('sends a null language when the browser gives none', async () => {
    const before = agent.connections.length;
    await readSse(await ask(server, { sessionId: newSession(), query: 'Hola' }));
    expect(agent.connections[before]!.frames[0]).toMatchObject({ language: null });
  });

  it('passes an agent error mid-stream on as an error event', async () => {
    agent.setBehaviour(({ send }) => {
      send({ type: 'token', content: 'Let me' });
      send({ type: 'error', message: 'The knowledge base is offline.' });
    });
    expect(await readSse(await ask(server, { sessionId: newSession(), query: 'Prices?' }))).toEqual([
      { event: 'token', data: { content: 'Let me' } },
      { event: 'error', data: { message: 'The knowledge base is offline.' } },
    ]);
  });

  it('ends with an error event when the agent never answers (idle timeout)', async () => {
    agent.setBehaviour(() => {});
    const before = agent.connections.length;
    const events = await readSse(await ask(server, { sessionId: newSession(), query: 'Anyone?' }));
    expect(events).toEqual([
      { event: 'error', data: { message: expect.stringMatching(/stopped responding/) } },
    ]);
    expect(await agent.connections[before]!.closed).toBeGreaterThan(0);
  });

  it('ends with an error event when the agent closes abruptly', async () => {
    agent.setBehaviour(({ send, connection }) => {
      send({ type: 'token', content: 'Part' });
      setTimeout(() => connection.socket.terminate(), 20);
    });
    const events = await readSse(await ask(server, { sessionId: newSession(), query: 'Tell me' }));
    expect(events.map((e) => e.event)).toEqual(['token', 'error']);
    expect(events[1]!.data).toEqual({ message: expect.stringMatching(/closed the conversation/) });
  });

  it.each([
    ['non-JSON', 'this is not json'],
    ['a JSON array', '[1,2,3]'],
    ['a token without content', '{"type":"token"}'],
    ['done with a string metadata', '{"type":"done","content":"x","metadata":"nope"}'],
  ])('ends with an error event on a malformed frame (%s)', async (_name, frame) => {
    agent.setBehaviour(({ send }) => {
      send({ type: 'token', content: 'ok' });
      send(frame);
    });
    const before = agent.connections.length;
    const events = await readSse(await ask(server, { sessionId: newSession(), query: 'Q' }));
    expect(events).toEqual([
      { event: 'token', data: { content: 'ok' } },
      { event: 'error', data: { message: expect.stringMatching(/invalid response/) } },
    ]);
    expect(await agent.connections[before]!.closed).toBe(1008);
  });

  it('ends with an invalid-response error when a text frame is not valid UTF-8', async () => {
    agent.setBehaviour(({ send, connection }) => {
      send({ type: 'token', content: 'ok' });
      // Byte 0xff never occurs in UTF-8; `ws` sends it as a text frame without checking.
      connection.socket.send(Buffer.from('{"type":"token","content":"\xff"}', 'latin1'), { binary: false });
    });
    const before = agent.connections.length;
    const events = await readSse(await ask(server, { sessionId: newSession(), query: 'Q' }));
    expect(events).toEqual([
      { event: 'token', data: { content: 'ok' } },
      { event: 'error', data: { message: expect.stringMatching(/invalid response/) } },
    ]);
    expect(await agent.connections[before]!.closed).toBe(1007);
  });

  it('refuses done metadata nested far too deep to serialise, without crashing', async () => {
    // ~240 KB, under the frame cap; JSON.stringify on it overflows the stack.
    const depth = 120_000;
    agent.setBehaviour(({ send }) => {
      send({ type: 'token', content: 'Hi' });
      send(`{"type":"done","content":"Hi","metadata":{"a":${'['.repeat(depth)}${']'.repeat(depth)}}}`);
    });
    const before = agent.connections.length;
    const events = await readSse(await ask(server, { sessionId: newSession(), query: 'Q' }));
    expect(events).toEqual([
      { event: 'token', data: { content: 'Hi' } },
      { event: 'error', data: { message: expect.stringMatching(/invalid response/) } },
    ]);
    expect(await agent.connections[before]!.closed).toBe(1008);
  });

  it('accepts done metadata nested to the depth cap and refuses one level more', async () => {
    const nested = (levels: number) => {
      let metadata: Record<string, unknown> = {};
      for (let level = 1; level < levels; level++) metadata = { inner: metadata };
      return metadata;
    };
    const atCap = nested(CHAT_LIMITS.agent.maxMetadataDepth);
    agent.setBehaviour(({ send }) => send({ type: 'done', content: 'Deep', metadata: atCap }));
    const sessionId = newSession();
    expect(await readSse(await ask(server, { sessionId, query: 'Q' }))).toEqual([
      { event: 'done', data: { content: 'Deep', metadata: atCap } },
    ]);
    const stored = (await (await history(server, sessionId)).json()) as {
      messages: { metadata?: unknown }[];
    };
    expect(stored.messages.at(-1)?.metadata).toEqual(atCap);

    const overCap = nested(CHAT_LIMITS.agent.maxMetadataDepth + 1);
    agent.setBehaviour(({ send }) => send({ type: 'done', content: 'Deeper', metadata: overCap }));
    expect(await readSse(await ask(server, { sessionId: newSession(), query: 'Q' }))).toEqual([
      { event: 'error', data: { message: expect.stringMatching(/invalid response/) } },
    ]);
  });

  it('measures the metadata cap in UTF-8 bytes', async () => {
    const cap = CHAT_LIMITS.agent.maxMetadataBytes;
    const overhead = JSON.stringify({ note: '' }).length;
    const atCap = { note: 'x'.repeat(cap - overhead) };
    agent.setBehaviour(({ send }) => send({ type: 'done', content: 'ok', metadata: atCap }));
    expect(await readSse(await ask(server, { sessionId: newSession(), query: 'Q' }))).toEqual([
      { event: 'done', data: { content: 'ok', metadata: atCap } },
    ]);
    // Two bytes per character: under the cap in characters, over it in bytes.
    const overInBytes = { note: 'é'.repeat(Math.floor((cap - overhead) / 2) + 1) };
    expect(JSON.stringify(overInBytes).length).toBeLessThan(cap);
    agent.setBehaviour(({ send }) => send({ type: 'done', content: 'ok', metadata: overInBytes }));
    expect(await readSse(await ask(server, { sessionId: newSession(), query: 'Q' }))).toEqual([
      { event: 'error', data: { message: expect.stringMatching(/invalid response/) } },
    ]);
  });

  it('ignores frame types it does not know (later protocol versions)', async () => {
    agent.setBehaviour(({ send }) => {
      send({ type: 'thinking', detail: 'looking up prices' });
      send({ type: 'token', content: 'Fine' });
      send({ type: 'done', content: 'Fine' });
    });
    expect(await readSse(await ask(server, { sessionId: newSession(), query: 'Q' }))).toEqual([
      { event: 'token', data: { content: 'Fine' } },
      { event: 'done', data: { content: 'Fine', metadata: {} } },
    ]);
  });

  it('refuses a frame larger than the cap without buffering it', async () => {
    agent.setBehaviour(({ send }) => {
      send({ type: 'token', content: 'x'.repeat(CHAT_LIMITS.agent.maxFrameBytes + 10) });
    });
    const before = agent.connections.length;
    const events = await readSse(await ask(server, { sessionId: newSession(), query: 'Q' }));
    expect(events).toEqual([
      { event: 'error', data: { message: expect.stringMatching(/invalid response/) } },
    ]);
    expect(await agent.connections[before]!.closed).toBe(1009);
  });

  it('stops an answer that grows past the answer cap', async () => {
    const piece = 'y'.repeat(50_000);
    agent.setBehaviour(({ send }) => {
      for (let i = 0; i < 3; i++) send({ type: 'token', content: piece });
    });
    const events = await readSse(await ask(server, { sessionId: newSession(), query: 'Q' }));
    expect(events.map((e) => e.event)).toEqual(['token', 'token', 'error']);
    expect(events[2]!.data).toEqual({ message: 'The answer was too long and was stopped.' });
  });

  it('stops an endless stream at the total-duration cap', async () => {
    agent.setBehaviour(({ send, connection }) => {
      const timer = setInterval(() => send({ type: 'token', content: '.' }), 25);
      connection.socket.once('close', () => clearInterval(timer));
    });
    const events = await readSse(await ask(server, { sessionId: newSession(), query: 'Q' }));
    expect(events.length).toBeGreaterThan(5);
    expect(events.at(-1)).toEqual({
      event: 'error',
      data: { message: expect.stringMatching(/took too long/) },
    });
  });

  it('ends by the idle timeout when the agent floods empty tokens (they are not activity)', async () => {
    agent.setBehaviour(({ send, connection }) => {
      send({ type: 'token', content: 'ok' });
      // Well inside the idle timeout, until the relay gives up; the total-duration cap is far later.
      const timer = setInterval(() => {
        for (let i = 0; i < 500; i++) send({ type: 'token', content: '' });
      }, 20);
      connection.socket.once('close', () => clearInterval(timer));
    });
    const events = await readSse(await ask(server, { sessionId: newSession(), query: 'Q' }));
    expect(events).toEqual([
      { event: 'token', data: { content: 'ok' } },
      { event: 'error', data: { message: expect.stringMatching(/stopped responding/) } },
    ]);
  });

  it('closes the WebSocket at once when the browser disconnects', async () => {
    agent.setBehaviour(({ send, connection }) => {
      send({ type: 'token', content: 'first' });
      const timer = setInterval(() => send({ type: 'token', content: ' more' }), 50);
      connection.socket.once('close', () => clearInterval(timer));
    });
    const before = agent.connections.length;
    const controller = new AbortController();
    const response = await ask(
      server,
      { sessionId: newSession(), query: 'Q' },
      { signal: controller.signal },
    );
    const stream = sseEvents(response.body!);
    expect((await stream.next()).value).toMatchObject({ event: 'token', data: '{"content":"first"}' });
    controller.abort();
    await expect(stream.next()).rejects.toThrow();
    const code = await agent.connections[before]!.closed;
    expect(code).toBe(1001);
  });

  it('a question asked within the millisecond its previous answer was stored sorts after it', async () => {
    const sessionId = newSession();
    // The clock stands still: every message of the exchange is stored in one millisecond.
    const now = vi.spyOn(Date, 'now').mockReturnValue(Date.parse('2026-11-27T12:00:00Z'));
    try {
      await readSse(await ask(server, { sessionId, query: 'First?' }));
      await readSse(await ask(server, { sessionId, query: 'Second?' }));
    } finally {
      now.mockRestore();
    }
    const body = (await (await history(server, sessionId)).json()) as {
      messages: { role: string; content: string }[];
    };
    expect(body.messages.map((m) => [m.role, m.content])).toEqual([
      ['user', 'First?'],
      ['assistant', 'Hello there'],
      ['user', 'Second?'],
      ['assistant', 'Hello there'],
    ]);
  });

  it('stores the question and the final answer, and serves them as the history', async () => {
    const sessionId = newSession();
    await readSse(await ask(server, { sessionId, query: 'What do you build?' }));
    agent.setBehaviour(streamingAgent('Second answer', { n: 2 }));
    await readSse(await ask(server, { sessionId, query: 'And then?' }));
    const before = agent.connections.length;

    const full = await history(server, sessionId);
    expect(full.status).toBe(200);
    const body = (await full.json()) as {
      sessionId: string;
      total: number;
      messages: Record<string, unknown>[];
    };
    expect(body.sessionId).toBe(sessionId);
    expect(body.total).toBe(4);
    expect(body.messages.map((m) => [m.role, m.content])).toEqual([
      ['user', 'What do you build?'],
      ['assistant', 'Hello there'],
      ['user', 'And then?'],
      ['assistant', 'Second answer'],
    ]);
    expect(body.messages[3]).toMatchObject({ metadata: { n: 2 }, createdAt: expect.any(String) });
    // Stored history is enough: the agent is not asked.
    expect(agent.connections.length).toBe(before);

    const latest = (await (await history(server, sessionId, '?limit=1')).json()) as typeof body;
    expect(latest.total).toBe(4);
    expect(latest.messages.map((m) => m.content)).toEqual(['Second answer']);
  });

  it('stores the question but not an answer that failed', async () => {
    const sessionId = newSession();
    agent.setBehaviour(({ send }) => send({ type: 'error', message: 'nope' }));
    await readSse(await ask(server, { sessionId, query: 'Will this fail?' }));
    const body = (await (await history(server, sessionId)).json()) as { messages: { role: string }[] };
    expect(body.messages.map((m) => m.role)).toEqual(['user']);
  });

  it("falls back to the agent backend's own history when nothing is stored", async () => {
    const sessionId = newSession();
    agent.setBehaviour(({ frame, send }) => {
      if (frame.type !== 'history') return;
      send({
        type: 'history',
        messages: [
          { role: 'user', content: 'old question', createdAt: '2026-11-01T10:00:00Z' },
          { role: 'assistant', content: 'old answer', createdAt: 1_793_527_260_000 },
          { role: 'system', content: 'dropped' },
        ],
      });
    });
    const before = agent.connections.length;
    const response = await history(server, sessionId, '?limit=7');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      sessionId,
      total: 2,
      messages: [
        { role: 'user', content: 'old question', createdAt: '2026-11-01T10:00:00.000Z' },
        { role: 'assistant', content: 'old answer', createdAt: new Date(1_793_527_260_000).toISOString() },
      ],
    });
    const connection = agent.connections[before]!;
    expect(connection.frames[0]).toEqual({ type: 'history', version: 1, sessionId, limit: 7 });
    expect(connection.headers['x-forwarded-for']).toBe('127.0.0.1');
  });

  it('answers an empty history when neither the store nor the agent has one', async () => {
    agent.setBehaviour(({ send }) => send('garbage'));
    const sessionId = newSession();
    expect(await (await history(server, sessionId)).json()).toEqual({ sessionId, messages: [], total: 0 });
    agent.setBehaviour(({ send }) => send({ type: 'error', message: 'unknown session' }));
    expect(await (await history(server, sessionId)).json()).toEqual({ sessionId, messages: [], total: 0 });
  });

  it('asks the agent for 50 messages by default and rejects a bad limit', async () => {
    agent.setBehaviour(({ send }) => send({ type: 'history', messages: [] }));
    const before = agent.connections.length;
    await history(server, newSession());
    expect((await agent.connection(before + 1)).frames[0]).toMatchObject({ limit: 50 });
    for (const bad of ['0', '201', 'abc', '1.5', '-3', '']) {
      const response = await history(server, newSession(), `?limit=${bad}`);
      expect(response.status, `limit=${bad}`).toBe(400);
      expect(await response.json()).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR' } });
    }
    expect((await history(server, newSession(), '?limit=200')).status).toBe(200);
  });

  it('keeps streaming when the database cannot store the messages', async () => {
    const sessionId = newSession();
    await server.deps.db.schema.alterTable('chat_messages').renameTo('chat_messages_away').execute();
    try {
      const events = await readSse(await ask(server, { sessionId, query: 'Still there?' }));
      expect(events.at(-1)).toEqual({
        event: 'done',
        data: { content: 'Hello there', metadata: { intent: 'greeting' } },
      });
      // The history falls through to the agent when the store cannot be read.
      agent.setBehaviour(({ send }) =>
        send({ type: 'history', messages: [{ role: 'user', content: 'from agent', createdAt: null }] }),
      );
      const body = (await (await history(server, sessionId)).json()) as { total: number };
      expect(body.total).toBe(1);
    } finally {
      await server.deps.db.schema.alterTable('chat_messages_away').renameTo('chat_messages').execute();
    }
    expect(server.logs.lines.some((l) => l.msg === 'chat message not persisted')).toBe(true);
  });
});

describe('chat relay: connecting', () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('ends with an error event when the agent backend is down', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise((resolve) => probe.close(resolve));
    const server = await startChatServer(`ws://127.0.0.1:${port}`);
    cleanups.push(() => server.close());
    const events = await readSse(await ask(server, { sessionId: newSession(), query: 'Q' }));
    expect(events).toEqual([{ event: 'error', data: { message: expect.stringMatching(/unavailable/) } }]);
  });

  it('ends with an error event when the upgrade never completes (connect timeout)', async () => {
    const sockets: Socket[] = [];
    const silent: Server = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    cleanups.push(
      () =>
        new Promise((resolve) => {
          for (const socket of sockets) socket.destroy();
          silent.close(resolve);
        }),
    );
    const server = await startChatServer(`ws://127.0.0.1:${(silent.address() as AddressInfo).port}`, {
      SALES_AGENT_CONNECT_TIMEOUT_MS: '300',
    });
    cleanups.push(() => server.close());
    const events = await readSse(await ask(server, { sessionId: newSession(), query: 'Q' }));
    expect(events).toEqual([
      { event: 'error', data: { message: expect.stringMatching(/did not respond in time/) } },
    ]);
  });

  it('sends the right-most X-Forwarded-For entry when TRUST_PROXY=xff', async () => {
    const agent = await startStandInAgent(streamingAgent('ok'));
    cleanups.push(() => agent.close());
    const server = await startChatServer(agent.url, { TRUST_PROXY: 'xff' });
    cleanups.push(() => server.close());
    await readSse(
      await ask(
        server,
        { sessionId: newSession(), query: 'Q' },
        { headers: { 'x-forwarded-for': '203.0.113.9, 198.51.100.7' } },
      ),
    );
    const connection = await agent.connection(1);
    expect(connection.frames[0]).toMatchObject({ clientIp: '198.51.100.7' });
    expect(connection.headers['x-forwarded-for']).toBe('198.51.100.7');
  });

  it('limits questions per client IP (CHAT_RATE_LIMIT per minute)', async () => {
    const agent = await startStandInAgent(streamingAgent('ok'));
    cleanups.push(() => agent.close());
    const server = await startChatServer(agent.url, { CHAT_RATE_LIMIT: '2' });
    cleanups.push(() => server.close());
    for (let i = 0; i < 2; i++) {
      expect((await readSse(await ask(server, { sessionId: newSession(), query: 'Q' }))).at(-1)?.event).toBe(
        'done',
      );
    }
    const refused = await ask(server, { sessionId: newSession(), query: 'Q' });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await refused.json()).toMatchObject({ success: false, error: { code: 'RATE_LIMITED' } });
    // History reads are not questions.
    expect((await history(server, newSession())).status).toBe(200);
  });

  it('ends open streams with the shutdown', async () => {
    const agent = await startStandInAgent(() => {});
    cleanups.push(() => agent.close());
    const server = await startChatServer(agent.url, { SALES_AGENT_IDLE_TIMEOUT_MS: '60000' });
    const response = await ask(server, { sessionId: newSession(), query: 'Q' });
    const connection = await agent.connection(1);
    const read = readSse(response).catch(() => 'cut' as const);
    await sleep(20);
    await server.close();
    const events = await read;
    expect(await connection.closed).toBe(1001);
    // Exactly one final event still ends the stream: an error saying why.
    expect(events).not.toBe('cut');
    expect(events).toEqual([{ event: 'error', data: { message: CHAT_SHUTDOWN_MESSAGE } }]);
  });
});
