import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { expect } from 'vitest';
import { BuiltinPrototypeGenerator } from '../../../src/integrations/prototype-generator/builtin/builtin-generator.ts';
import type { PrototypeGenerator } from '../../../src/integrations/prototype-generator/types.ts';
import { V0PrototypeGenerator } from '../../../src/integrations/prototype-generator/v0-generator.ts';
import { type RecordedRequest, type StandIn, sendJson, startStandIn } from '../stand-in.ts';

/** Test helpers of the prototype feature: leads through the public route, an SSE reader, a v0 stand-in. */

export const CHAT_KEY = 'prototype-chat-key';

let ipCounter = 0;
export function freshIp(): string {
  ipCounter++;
  return `198.19.${Math.floor(ipCounter / 250)}.${(ipCounter % 250) + 1}`;
}

export function leadBody(overrides: { personal?: object; steps?: object; language?: string } = {}) {
  return {
    personal: {
      name: 'Ana García',
      email_address: `visitor.${randomUUID().slice(0, 8)}@example.com`,
      company: 'Hotel Sol',
      ...overrides.personal,
    },
    steps: {
      initial_choice: 'create',
      service: 'build-website',
      prototype: 'landing',
      goal: 'More direct bookings for our hotel',
      industry: 'hospitality',
      features: ['booking', 'gallery'],
      style: 'modernMinimalist',
      audience: 'b2c',
      ...overrides.steps,
    },
    recaptchaToken: 'token',
    language: overrides.language ?? 'en',
  };
}

interface Requester {
  request(path: string, init?: RequestInit): Response | Promise<Response>;
}

/** Creates a lead through POST /api/leads (untrusted unless a chat key is given); returns its id. */
export async function createLead(
  app: Requester,
  overrides: Parameters<typeof leadBody>[0] = {},
  options: { ip?: string; chatKey?: string } = {},
): Promise<string> {
  const res = await app.request('/api/leads', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-forwarded-for': options.ip ?? freshIp(),
      ...(options.chatKey ? { 'x-chat-api-key': options.chatKey } : {}),
    },
    body: JSON.stringify(leadBody(overrides)),
  });
  const body = (await res.json()) as { leadId?: string };
  expect(body.leadId, JSON.stringify(body)).toBeTruthy();
  return body.leadId!;
}

export const post = (app: Requester, path: string) => app.request(path, { method: 'POST' });

/** A server-sent event as a browser's EventSource dispatches it. */
import { type SseEvent, sseEvents } from '../sse-client.ts';

export { type SseEvent, sseEvents };

export interface ParsedEvent {
  event: string;
  id: string | undefined;
  data: Record<string, unknown>;
}

/** Reads a whole stream (or the first `limit` events, then cancels it). */
export async function readEvents(
  response: Response,
  limit = Number.POSITIVE_INFINITY,
): Promise<ParsedEvent[]> {
  const events: ParsedEvent[] = [];
  if (!response.body) return events;
  const iterator = sseEvents(response.body);
  for await (const e of iterator) {
    events.push({ event: e.event, id: e.id, data: JSON.parse(e.data) as Record<string, unknown> });
    if (events.length >= limit) {
      await iterator.return(undefined);
      break;
    }
  }
  return events;
}

/**
 * The built-in generator behind a gate the test controls: while closed, runs wait after their
 * `generating` step. Deterministic "still running" without timing assumptions.
 */
export function gatedGenerator(): { generator: PrototypeGenerator; close(): void; open(): void } {
  const inner = new BuiltinPrototypeGenerator();
  let gate: Promise<void> = Promise.resolve();
  let release: () => void = () => {};
  return {
    close() {
      gate = new Promise((resolve) => {
        release = resolve;
      });
    },
    open() {
      release();
    },
    generator: {
      name: 'builtin',
      async generate(brief, options) {
        return inner.generate(brief, {
          ...options,
          onProgress: async (update) => {
            await options.onProgress(update);
            if (update.step === 'generating') await gate;
          },
        });
      },
    },
  };
}

/** A built-in generator slow enough to watch (each step waits `pacingMs`). */
export function pacedGenerator(pacingMs: number) {
  return new BuiltinPrototypeGenerator({ pacingMs });
}

/**
 * A stand-in of the v0 Platform API. `failures` create requests fail with `failStatus` first;
 * `lostAnswers` ones are then performed but answered with `failStatus` (a proxy's error after v0
 * acted); then chats complete on their first read, with a demo URL served by the stand-in itself.
 * `GET /chats` lists the chats created, filtered by `metadata[key]=value` as v0 does.
 */
export async function startV0StandIn(
  options: { failures?: number; failStatus?: number; lostAnswers?: number } = {},
) {
  let failuresLeft = options.failures ?? 0;
  let lostAnswersLeft = options.lostAnswers ?? 0;
  let failStatus = options.failStatus ?? 500;
  let url = '';
  const created: Record<string, string>[] = [];
  const chat = (status: 'pending' | 'completed', metadata: Record<string, string> = {}) => ({
    id: 'chat_1',
    object: 'chat',
    createdAt: new Date().toISOString(),
    webUrl: 'https://v0.app/chat/chat_1',
    apiUrl: `${url}/v1/chats/chat_1`,
    metadata,
    messages: [],
    latestVersion: {
      id: 'ver_1',
      object: 'version',
      status,
      createdAt: new Date().toISOString(),
      ...(status === 'completed' ? { demoUrl: `${url}/demo` } : {}),
      files:
        status === 'completed'
          ? [{ object: 'file', name: 'app/page.tsx', content: 'export default 1', locked: false }]
          : [],
    },
  });
  const handler = (req: RecordedRequest, res: ServerResponse): void => {
    if (req.url === '/demo') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><title>demo</title><h1>v0 demo</h1>');
    } else if (req.method === 'POST' && req.url === '/v1/chats') {
      if (failuresLeft === -1 || failuresLeft > 0) {
        if (failuresLeft > 0) failuresLeft--;
        sendJson(res, failStatus, { error: { message: 'unavailable', type: 'internal_server_error' } });
      } else {
        const metadata = (JSON.parse(req.body) as { metadata?: Record<string, string> }).metadata ?? {};
        created.push(metadata);
        if (lostAnswersLeft > 0) {
          lostAnswersLeft--;
          sendJson(res, failStatus, { error: { message: 'bad gateway', type: 'internal_server_error' } });
        } else {
          sendJson(res, 200, chat('pending', metadata));
        }
      }
    } else if (req.method === 'GET' && new URL(req.url, url).pathname === '/v1/chats') {
      const wanted = [...new URL(req.url, url).searchParams].flatMap(([name, value]) => {
        const key = /^metadata\[(.+)\]$/.exec(name)?.[1];
        return key ? [[key, value] as const] : [];
      });
      const data = created
        .filter((metadata) => wanted.every(([key, value]) => metadata[key] === value))
        .map((metadata) => chat('pending', metadata));
      sendJson(res, 200, { object: 'list', data });
    } else if (req.method === 'GET' && req.url === '/v1/chats/chat_1') {
      sendJson(res, 200, chat('completed'));
    } else {
      sendJson(res, 404, { error: { message: 'not found', type: 'not_found_error' } });
    }
  };
  const standIn: StandIn = await startStandIn(handler);
  url = standIn.url;
  return {
    standIn,
    url,
    /** -1: fail for ever; with `status` (401: the key refused, a failure no retry fixes). */
    setFailures(n: number, status = options.failStatus ?? 500) {
      failuresLeft = n;
      failStatus = status;
    },
    creates: () => standIn.requests.filter((r) => r.method === 'POST' && r.url === '/v1/chats').length,
    generator: () =>
      new V0PrototypeGenerator({
        apiKey: 'v0-key',
        apiUrl: `${url}/v1`,
        pollIntervalMs: 5,
        callTimeoutMs: 5000,
      }),
    close: () => standIn.close(),
  };
}

/** Polls `check` until it returns a truthy value (generous bound; no timing assertion). */
export async function eventually<T>(
  check: () => Promise<T | null | undefined | false>,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
