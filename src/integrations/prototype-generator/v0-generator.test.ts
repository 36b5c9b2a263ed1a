import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RecordedRequest, type StandIn, sendJson, startStandIn } from '../../testing/stand-in.ts';
import { type ProgressUpdate, type PrototypeBrief, PrototypeGenerationError } from './types.ts';
import { V0_MAX_FAILED_READS, V0PrototypeGenerator, v0Message } from './v0-generator.ts';

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

function chat(status: 'pending' | 'completed' | 'failed', withDemo = true) {
  return {
    id: 'chat_123',
    object: 'chat',
    shareable: false,
    privacy: 'private',
    createdAt: '2026-11-21T09:00:00Z',
    favorite: false,
    authorId: 'user_1',
    webUrl: 'https://v0.app/chat/chat_123',
    apiUrl: 'https://api.v0.dev/v1/chats/chat_123',
    url: 'https://v0.app/chat/chat_123',
    metadata: {},
    messages: [],
    text: '',
    permissions: { write: true },
    latestVersion: {
      id: 'ver_1',
      object: 'version',
      status,
      createdAt: '2026-11-21T09:00:00Z',
      ...(status === 'completed' && withDemo ? { demoUrl: 'https://demo-123.vusercontent.net' } : {}),
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
});
