import type { ServerResponse } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type RecordedRequest,
  type StandIn,
  sendJson,
  startStandIn,
} from '../../../test/support/stand-in.ts';
import { type ProgressUpdate, type PrototypeBrief, PrototypeGenerationError } from './types.ts';
import { IDEMPOTENCY_KEY, V0_MAX_FAILED_READS, V0PrototypeGenerator, v0Message } from './v0-generator.ts';

const brief: PrototypeBrief = {
  leadId: 'lead-v0',
  kind: 'application',
  language: 'en',
  name: 'Dana',
  company: 'Ledgerly',
  goal: 'A client portal for our advisors',
  industry: 'finance',
  features: ['dashboard', 'invoices'],
  style: 'professionalCorporate',
  audience: 'b2b',
};

function chat(
  status: 'pending' | 'completed' | 'failed',
  withDemo = true,
  { id = 'chat_123', metadata = {}, createdAt = '2026-11-21T09:00:00Z' } = {},
) {
  return {
    id,
    object: 'chat',
    shareable: false,
    privacy: 'private',
    createdAt,
    favorite: false,
    authorId: 'user_1',
    webUrl: `https://v0.app/chat/${id}`,
    apiUrl: `https://api.v0.dev/v1/chats/${id}`,
    url: `https://v0.app/chat/${id}`,
    metadata,
    messages: [],
    text: '',
    permissions: { write: true },
    latestVersion: {
      id: 'ver_1',
      object: 'version',
      status,
      createdAt,
      ...(status === 'completed' && withDemo ? { demoUrl: demoOf(id) } : {}),
      files:
        status === 'completed'
          ? [
              {
                object: 'file',
                name: 'app/page.tsx',
                content: 'export default function Page() {}',
                locked: false,
              },
              {
                object: 'file',
                name: 'app/layout.tsx',
                content: 'export default function Layout() {}',
                locked: false,
              },
            ]
          : [],
    },
  };
}

const demoOf = (chatId: string) => `https://demo-${chatId.replace('chat_', '')}.vusercontent.net`;

/**
 * v0's chats as it keeps them: POST /chats stores one (with its metadata) before answering, GET
 * /chats lists them filtered by `metadata[key]=value`, GET /chats/:id completes a pending one.
 */
function v0Chats(options: { answerCreateAfterMs?: number } = {}) {
  const chats: { id: string; metadata: Record<string, string>; createdAt: string; failed?: boolean }[] = [];
  const lookups: URLSearchParams[] = [];
  let ignoreFilter = false;
  const detail = (c: (typeof chats)[number], status: 'pending' | 'completed' | 'failed') =>
    chat(status, true, { id: c.id, metadata: c.metadata, createdAt: c.createdAt });
  async function handler(req: RecordedRequest, res: ServerResponse) {
    const url = new URL(req.url, 'http://v0.test');
    if (req.method === 'POST' && url.pathname === '/v1/chats') {
      const stored = {
        id: `chat_${chats.length + 1}`,
        metadata: (JSON.parse(req.body) as { metadata: Record<string, string> }).metadata,
        createdAt: new Date(Date.UTC(2026, 10, 21, 9, 0, chats.length)).toISOString(),
      };
      chats.push(stored);
      if (options.answerCreateAfterMs) await delay(options.answerCreateAfterMs);
      return sendJson(res, 200, detail(stored, 'pending'));
    }
    if (req.method === 'GET' && url.pathname === '/v1/chats') {
      lookups.push(url.searchParams);
      const wanted = [...url.searchParams].flatMap(([name, value]) => {
        const key = /^metadata\[(.+)\]$/.exec(name)?.[1];
        return key ? [[key, value] as const] : [];
      });
      const data = chats
        .filter((c) => ignoreFilter || wanted.every(([key, value]) => c.metadata[key] === value))
        .map((c) => detail(c, c.failed ? 'failed' : 'pending'));
      return sendJson(res, 200, { object: 'list', data });
    }
    const found = chats.find((c) => req.method === 'GET' && url.pathname === `/v1/chats/${c.id}`);
    if (found) return sendJson(res, 200, detail(found, found.failed ? 'failed' : 'completed'));
    sendJson(res, 404, { error: { message: 'not found', type: 'not_found_error' } });
  }
  return {
    chats,
    lookups,
    handler,
    ignoreFilter() {
      ignoreFilter = true;
    },
  };
}

/** A stand-in of the v0 Platform API: POST /chats answers pending, GET /chats/:id completes on the 2nd read. */
describe('v0 prototype generator against a v0 API stand-in', () => {
  let v0: StandIn;
  let reads = 0;
  beforeAll(async () => {
    v0 = await startStandIn(defaultHandler);
  });
  afterAll(() => v0.close());
  function defaultHandler(req: RecordedRequest, res: import('node:http').ServerResponse) {
    if (req.method === 'POST' && req.url === '/v1/chats') return sendJson(res, 200, chat('pending'));
    if (req.method === 'GET' && req.url === '/v1/chats/chat_123') {
      reads++;
      return sendJson(res, 200, chat(reads >= 2 ? 'completed' : 'pending'));
    }
    sendJson(res, 404, { error: { message: 'not found', type: 'not_found_error' } });
  }
  const generator = () =>
    new V0PrototypeGenerator({
      apiKey: 'v0-test-key',
      apiUrl: `${v0.url}/v1`,
      pollIntervalMs: 10,
      callTimeoutMs: 5000,
    });

  it('creates a chat from the brief, polls until the version completes, and keeps the demo URL and files', async () => {
    reads = 0;
    v0.setHandler(defaultHandler);
    const updates: ProgressUpdate[] = [];
    const result = await generator().generate(brief, { onProgress: (u) => void updates.push(u) });
    expect(result).toMatchObject({
      generator: 'v0',
      html: null,
      demoUrl: 'https://demo-123.vusercontent.net',
      externalId: 'chat_123',
    });
    expect(result.files.map((f) => f.name)).toEqual(['app/page.tsx', 'app/layout.tsx']);
    expect(updates.map((u) => u.step)).toEqual([
      'analysing',
      'generating',
      'generating',
      'generating',
      'rendering',
    ]);

    const create = v0.requests.find((r) => r.method === 'POST')!;
    expect(create.headers.authorization).toBe('Bearer v0-test-key');
    const body = JSON.parse(create.body);
    expect(body.message).toBe(v0Message(brief));
    expect(body.message).toMatch(/web application mock-up/);
    expect(body.message).toContain('"A client portal for our advisors"');
    expect(body).toMatchObject({
      chatPrivacy: 'private',
      responseMode: 'async',
      metadata: { leadId: 'lead-v0' },
    });
  });

  it('a refused key is a permanent failure; a server error is retryable', async () => {
    v0.setHandler((_req, res) =>
      sendJson(res, 401, { error: { message: 'bad key', type: 'unauthorized_error' } }),
    );
    const refused = await generator()
      .generate(brief, { onProgress: () => {} })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(PrototypeGenerationError);
    expect((refused as PrototypeGenerationError).retryable).toBe(false);
    expect((refused as Error).message).toContain('HTTP 401');

    v0.setHandler((_req, res) =>
      sendJson(res, 502, { error: { message: 'upstream', type: 'internal_server_error' } }),
    );
    const down = await generator()
      .generate(brief, { onProgress: () => {} })
      .catch((e: unknown) => e);
    expect((down as PrototypeGenerationError).retryable).toBe(true);
  });

  it('a passing fault while polling is waited out: one chat, not a new one per failed read', async () => {
    let polls = 0;
    v0.setHandler((req, res) => {
      if (req.method === 'POST') return sendJson(res, 200, chat('pending'));
      polls++;
      if (polls <= V0_MAX_FAILED_READS) return sendJson(res, 503, { error: { message: 'busy' } });
      return sendJson(res, 200, chat('completed'));
    });
    const before = v0.requests.filter((r) => r.method === 'POST').length;
    const result = await generator().generate(brief, { onProgress: () => {} });
    expect(result.demoUrl).toBe('https://demo-123.vusercontent.net');
    expect(v0.requests.filter((r) => r.method === 'POST').length - before).toBe(1);

    polls = 0;
    v0.setHandler((req, res) =>
      req.method === 'POST'
        ? sendJson(res, 200, chat('pending'))
        : sendJson(res, 503, { error: { message: 'down' } }),
    );
    const down = await generator()
      .generate(brief, { onProgress: () => {} })
      .catch((e: unknown) => e);
    expect((down as PrototypeGenerationError).retryable).toBe(true);
  });

  it('fails when the version fails or finishes without a demo', async () => {
    v0.setHandler((req, res) => sendJson(res, 200, chat(req.method === 'POST' ? 'pending' : 'failed')));
    await expect(generator().generate(brief, { onProgress: () => {} })).rejects.toThrow(/generation failed/);
    v0.setHandler((_req, res) => sendJson(res, 200, chat('completed', false)));
    await expect(generator().generate(brief, { onProgress: () => {} })).rejects.toThrow(/without a demo URL/);
  });

  it('bounds each call with a timeout', async () => {
    v0.setHandler(() => new Promise(() => {}));
    const slow = new V0PrototypeGenerator({ apiKey: 'k', apiUrl: `${v0.url}/v1`, callTimeoutMs: 200 });
    await expect(slow.generate(brief, { onProgress: () => {} })).rejects.toThrow(/did not answer in time/);
  });

  it('a create that v0 performed but answered too late is found by the retry: one chat, resumed', async () => {
    const api = v0Chats({ answerCreateAfterMs: 600 });
    v0.setHandler(api.handler);
    const impatient = new V0PrototypeGenerator({
      apiKey: 'k',
      apiUrl: `${v0.url}/v1`,
      pollIntervalMs: 10,
      callTimeoutMs: 200,
    });
    const first = await impatient
      .generate(brief, { onProgress: () => {}, request: { key: 'req-1', retry: false } })
      .catch((e: unknown) => e);
    expect((first as Error).message).toMatch(/did not answer in time \(create the chat\)/);
    expect((first as PrototypeGenerationError).retryable).toBe(true);
    // v0 made the chat all the same, tagged with the request's key.
    expect(api.chats.map((c) => c.id)).toEqual(['chat_1']);
    expect(api.chats[0]!.metadata).toEqual({
      leadId: 'lead-v0',
      kind: 'application',
      [IDEMPOTENCY_KEY]: 'req-1',
    });

    const retried = await generator().generate(brief, {
      onProgress: () => {},
      request: { key: 'req-1', retry: true },
    });
    expect(retried).toMatchObject({ externalId: 'chat_1', demoUrl: demoOf('chat_1') });
    expect(api.chats).toHaveLength(1);
    expect(api.lookups.map((q) => q.toString())).toEqual([`metadata%5B${IDEMPOTENCY_KEY}%5D=req-1`]);
  });

  it('a new request (another key) gets its own chat, even from a server that ignores the filter', async () => {
    const api = v0Chats();
    v0.setHandler(api.handler);
    await generator().generate(brief, { onProgress: () => {}, request: { key: 'req-1', retry: false } });
    // The request's first attempt: its key is new, nothing to look up.
    expect(api.lookups).toHaveLength(0);

    const regenerated = await generator().generate(brief, {
      onProgress: () => {},
      request: { key: 'req-2', retry: false },
    });
    expect(regenerated.externalId).toBe('chat_2');
    expect(api.chats.map((c) => c.metadata[IDEMPOTENCY_KEY])).toEqual(['req-1', 'req-2']);

    api.ignoreFilter();
    const retried = await generator().generate(brief, {
      onProgress: () => {},
      request: { key: 'req-3', retry: true },
    });
    expect(retried.externalId).toBe('chat_3');
    expect(api.chats.map((c) => c.metadata[IDEMPOTENCY_KEY])).toEqual(['req-1', 'req-2', 'req-3']);
  });

  it('an earlier chat whose version failed is not resumed: the retry makes a new one, the next resumes it', async () => {
    const api = v0Chats();
    v0.setHandler(api.handler);
    await generator().generate(brief, { onProgress: () => {}, request: { key: 'req-1', retry: false } });
    api.chats[0]!.failed = true;
    const again = { onProgress: () => {}, request: { key: 'req-1', retry: true } };
    expect((await generator().generate(brief, again)).externalId).toBe('chat_2');
    expect((await generator().generate(brief, again)).externalId).toBe('chat_2');
    expect(api.chats.map((c) => c.metadata[IDEMPOTENCY_KEY])).toEqual(['req-1', 'req-1']);
  });

  it('a lookup that fails fails the attempt (retryable by its status) and creates nothing', async () => {
    for (const [status, retryable] of [
      [503, true],
      [401, false],
    ] as const) {
      const api = v0Chats();
      v0.setHandler((req, res) =>
        req.method === 'GET' && req.url.startsWith('/v1/chats?')
          ? sendJson(res, status, { error: { message: 'no', type: 'error' } })
          : api.handler(req, res),
      );
      const failed = await generator()
        .generate(brief, { onProgress: () => {}, request: { key: 'req-1', retry: true } })
        .catch((e: unknown) => e);
      expect(failed).toBeInstanceOf(PrototypeGenerationError);
      expect((failed as Error).message).toContain(`look up an earlier chat (HTTP ${status})`);
      expect((failed as PrototypeGenerationError).retryable).toBe(retryable);
      expect(api.chats).toHaveLength(0);
    }
  });

  it('stops at once when the attempt was abandoned while a call was under way', async () => {
    const controller = new AbortController();
    const reason = new Error('abandoned');
    v0.setHandler((req, res) => {
      if (req.method === 'POST') controller.abort(reason);
      sendJson(res, 200, chat('pending'));
    });
    const patient = new V0PrototypeGenerator({ apiKey: 'k', apiUrl: `${v0.url}/v1`, pollIntervalMs: 60_000 });
    const run = patient.generate(brief, { onProgress: () => {}, signal: controller.signal });
    const outcome = await Promise.race([
      run.catch((e: unknown) => e),
      delay(2000, 'still sleeping', { ref: false }),
    ]);
    expect(outcome).toBe(reason);
  });
});
