/**
 * Following one request: its trace (the caller's `traceparent`, or a new one) is on its log line and
 * every line logged while it is served, on the jobs it enqueues (and their lines), and goes to every
 * outside service as a child span's `traceparent`: CAPTCHA, Pipedrive and SMTP through a whole lead,
 * the model, WordPress, PageSpeed Insights and the sales agent at their clients. Every line names its
 * instance.
 */
import { hostname } from 'node:os';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type LeadsWorld,
  leadsApp,
  postLead,
  startWorld,
  submission,
  worldEnv,
} from '../../test/support/features/leads.ts';
import { startLlmStandIn } from '../../test/support/llm-stand-in.ts';
import { startStandInAgent, streamingAgent } from '../../test/support/sales-agent-stand-in.ts';
import { type RecordedRequest, sendJson, startStandIn } from '../../test/support/stand-in.ts';
import { createTestApp, LogCapture } from '../../test/support/test-app.ts';
import { CRM_QUEUE } from '../features/leads/crm-sync.ts';
import { OpenAiCompatibleClient } from '../integrations/llm/openai-compatible-client.ts';
import { EMAIL_QUEUE } from '../integrations/mail/queue.ts';
import { PageSpeedInsightsEngine } from '../integrations/pagespeed/psi-client.ts';
import { WebSocketSalesAgent } from '../integrations/sales-agent/websocket-agent.ts';
import { HttpWordPressClient } from '../integrations/wordpress/wordpress-client.ts';
import { createLogger } from '../logger.ts';
import { runInSpan } from './context.ts';
import { parseTraceparent, type SpanContext } from './trace-context.ts';
import { ID_ONLY_TRACER } from './tracer.ts';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT = '00f067aa0ba902b7';
const TRACEPARENT = `00-${TRACE}-${PARENT}-01`;

/** The span a `traceparent` header names, checked to be a child in `traceId` (a new span, not `parentId`). */
function childOf(header: string | string[] | undefined, traceId: string, parentId?: string): SpanContext {
  const span = parseTraceparent(Array.isArray(header) ? header[0] : header);
  expect(span, `traceparent ${String(header)}`).not.toBeNull();
  expect(span!.traceId).toBe(traceId);
  if (parentId) expect(span!.spanId).not.toBe(parentId);
  return span!;
}

describe('a lead, followed by its trace', () => {
  let world: LeadsWorld;
  beforeAll(async () => {
    world = await startWorld();
  });
  afterAll(() => world.close());

  it('the caller’s traceparent: on the request’s lines, its jobs’ lines, and CAPTCHA, Pipedrive, SMTP', async () => {
    const ctx = await leadsApp('sqlite', worldEnv(world));
    try {
      const answer = await postLead(ctx, submission({ steps: { prototype: null } }), {
        headers: { traceparent: TRACEPARENT, tracestate: 'vendor=abc', 'x-request-id': 'traced-lead' },
      });
      expect(answer.status).toBe(200);
      ctx.deps.logger.level = 'debug';
      await ctx.deps.worker.drain(EMAIL_QUEUE);
      await ctx.deps.worker.drain(CRM_QUEUE);

      // The request's own line, and every line logged while it was served.
      const requestLine = ctx.logs.lines.find((l) => l.requestId === 'traced-lead' && l.msg === 'request');
      expect(requestLine).toMatchObject({ traceId: TRACE, status: 200 });
      expect(
        ctx.logs.lines.filter((l) => l.requestId === 'traced-lead').every((l) => l.traceId === TRACE),
      ).toBe(true);
      // The jobs it enqueued ran in its trace: their lines carry it.
      const jobLines = ctx.logs.lines.filter((l) => l.msg === 'job completed');
      expect(jobLines.length).toBeGreaterThan(0);
      expect(jobLines.map((l) => [l.queue, l.traceId])).toEqual(jobLines.map((l) => [l.queue, TRACE]));

      // Each outside service got a child span of it, with the caller's tracestate.
      const siteverify = world.siteverify.requests.at(-1)!;
      const captchaSpan = childOf(siteverify.headers.traceparent, TRACE, PARENT);
      expect(siteverify.headers.tracestate).toBe('vendor=abc');
      const pipedriveCalls = world.pipedrive.standIn.requests;
      expect(pipedriveCalls.length).toBeGreaterThan(0);
      const pipedriveSpans = pipedriveCalls.map((r) => childOf(r.headers.traceparent, TRACE, PARENT));
      const mails = world.smtp.messages.filter((m) => String(m.headers.get('traceparent')).includes(TRACE));
      expect(mails.length).toBe(2); // the visitor's confirmation and the sales notification
      for (const mail of mails) childOf(String(mail.headers.get('traceparent')), TRACE, PARENT);
      const spanIds = [captchaSpan, ...pipedriveSpans].map((s) => s.spanId);
      expect(new Set(spanIds).size).toBe(spanIds.length);
    } finally {
      await ctx.close();
    }
  });

  it('without a traceparent, or with an invalid one, a new trace starts and is followed the same way', async () => {
    const ctx = await leadsApp('sqlite', worldEnv(world));
    try {
      for (const [id, header] of [
        ['no-parent', undefined],
        ['bad-parent', `00-${TRACE.toUpperCase()}-${PARENT}-01`],
      ] as const) {
        const before = world.siteverify.requests.length;
        const answer = await postLead(ctx, submission({ steps: { prototype: null } }), {
          headers: { 'x-request-id': id, ...(header ? { traceparent: header } : {}) },
        });
        expect(answer.status).toBe(200);
        const line = ctx.logs.lines.find((l) => l.requestId === id && l.msg === 'request')!;
        expect(line.traceId).toMatch(/^[0-9a-f]{32}$/);
        expect(line.traceId).not.toBe(TRACE.toLowerCase());
        expect(world.siteverify.requests.length).toBe(before + 1);
        childOf(world.siteverify.requests.at(-1)!.headers.traceparent, line.traceId as string);
      }
    } finally {
      await ctx.close();
    }
  });
});

describe('the other outside services, each called in a span', () => {
  const parent: SpanContext = { traceId: TRACE, spanId: PARENT, sampled: true };
  const inSpan = <T>(work: () => Promise<T>) =>
    runInSpan({ span: { context: parent, end() {} }, tracer: ID_ONLY_TRACER }, work);

  it('the model (complete and stream), WordPress and PageSpeed Insights get a child traceparent', async () => {
    const seen: RecordedRequest[] = [];
    const llm = await startLlmStandIn((request) => {
      seen.push(request);
      return 'an answer';
    });
    const other = await startStandIn((request, res) => {
      seen.push(request);
      sendJson(res, 200, []);
    });
    try {
      const model = new OpenAiCompatibleClient({
        baseUrl: llm.url,
        apiKey: 'k',
        model: 'm',
        timeoutMs: 5000,
      });
      await inSpan(() => model.complete({ messages: [{ role: 'user', content: 'hi' }] }));
      await inSpan(async () => {
        for await (const _ of model.stream({ messages: [{ role: 'user', content: 'hi' }] })) {
          // read it all
        }
      });
      await inSpan(() => new HttpWordPressClient(other.url).get('/posts', new URLSearchParams()));
      const psi = new PageSpeedInsightsEngine({
        apiUrl: `${other.url}/psi`,
        apiKey: 'psi-key',
        maxAttempts: 1,
      });
      await inSpan(() => psi.analyze({ url: 'https://example.com/', strategy: 'mobile' })).catch(() => {});
      expect(seen.map((r) => r.url.split('?')[0])).toEqual([
        '/chat/completions',
        '/chat/completions',
        '/posts',
        '/psi',
      ]);
      for (const request of seen) childOf(request.headers.traceparent, TRACE, PARENT);
    } finally {
      await llm.close();
      await other.close();
    }
  });

  it('the sales agent gets it in its WebSocket handshake', async () => {
    const agent = await startStandInAgent(streamingAgent('Hello'));
    try {
      const client = new WebSocketSalesAgent({ url: agent.url });
      await inSpan(async () => {
        const query = {
          sessionId: 's-1',
          query: 'hi',
          language: 'en',
          clientIp: null,
          signal: new AbortController().signal,
        };
        for await (const _ of client.ask(query)) {
          // read it all
        }
      });
      childOf((await agent.connection(1)).headers.traceparent, TRACE, PARENT);
    } finally {
      await agent.close();
    }
  });
});

describe('which instance wrote a line', () => {
  it('host name and process id on every line, or INSTANCE_ID when set', async () => {
    const plain = new LogCapture();
    createLogger('info', plain.stream).info('a line');
    expect(plain.lines[0]).toMatchObject({ pid: process.pid, hostname: hostname() });

    const ctx = await createTestApp({ env: { INSTANCE_ID: 'eu-1a' } });
    try {
      await ctx.app.request('/health');
      const lines = ctx.logs.lines;
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines) {
        expect(line).toMatchObject({ instance: 'eu-1a' });
        expect(line).not.toHaveProperty('pid');
      }
    } finally {
      await ctx.close();
    }
  });

  it('lines logged outside any request or job carry no trace id', () => {
    const out = new LogCapture();
    pino({}, out.stream); // unrelated loggers are untouched
    createLogger('info', out.stream).info('outside');
    expect(out.lines[0]).not.toHaveProperty('traceId');
  });
});
