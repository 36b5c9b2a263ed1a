import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leadsApp, postLead, submission } from '../../../test/support/features/leads.ts';
import { type StandIn, sendJson, startStandIn } from '../../../test/support/stand-in.ts';
import type { TestContext } from '../../../test/support/test-app.ts';
import { classifySubmission } from '../../integrations/llm/classification.ts';
import { type CompletionRequest, type LlmClient, LlmError } from '../../integrations/llm/llm-client.ts';
import { getLead } from './store.ts';

/**
 * The language-model path against a local OpenAI-compatible chat-completions stand-in. The client
 * here is a minimal fetch-based one for this test only; the service's real client belongs to the AI
 * feature (integrations/llm).
 */
class TestChatClient implements LlmClient {
  readonly model = 'stand-in-model';
  readonly baseUrl: string;
  constructor(baseUrl: string) {
    this.baseUrl = baseUrl;
  }
  async complete(request: CompletionRequest): Promise<string> {
    const res = await fetch(`${this.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        model: this.model,
        messages: request.messages,
        temperature: request.temperature,
      }),
      signal: request.signal,
    });
    if (!res.ok) throw new LlmError(`model answered ${res.status}`);
    const body = (await res.json()) as { choices?: { message?: { content?: string } }[] };
    const content = body.choices?.[0]?.message?.content;
    if (!content) throw new LlmError('no content');
    return content;
  }
  // biome-ignore lint/correctness/useYield: not used by classification
  async *stream(): AsyncIterable<string> {
    throw new LlmError('not supported in this test client');
  }
}

let model: StandIn;
let answer: { status: number; content: string } = { status: 200, content: '' };
beforeAll(async () => {
  model = await startStandIn((_req, res) =>
    answer.status === 200
      ? sendJson(res, 200, {
          choices: [{ index: 0, message: { role: 'assistant', content: answer.content } }],
        })
      : sendJson(res, answer.status, { error: { message: 'down' } }),
  );
});
afterAll(() => model.close());

const silent = pino({ level: 'silent' });
const input = {
  name: 'Ana',
  email: 'ana@example.com',
  company: null,
  position: null,
  texts: ['We need a booking site'],
  language: 'en' as const,
};

describe('lead classification through a language model', () => {
  it('uses the model verdict, parsed from fenced JSON, and records that the model decided', async () => {
    answer = {
      status: 200,
      content: 'Sure:\n```json\n{"classification": "vendor", "reason": "Pitches outsourcing."}\n```',
    };
    const result = await classifySubmission(new TestChatClient(model.url), input, silent);
    expect(result).toEqual({
      classification: 'vendor',
      reason: 'Pitches outsourcing.',
      score: null,
      reasons: ['Pitches outsourcing.'],
      classifiedBy: 'llm',
    });
    const sent = JSON.parse(model.requests.at(-1)!.body) as { messages: { role: string; content: string }[] };
    expect(sent.messages[0]?.content).toContain('"classification"');
    // The prompt states the policy: who is writing and would they pay, and when in doubt a lead.
    expect(sent.messages[0]?.content).toContain('would they pay the agency for work?');
    expect(sent.messages[0]?.content).toContain('when in doubt, answer lead');
    expect(sent.messages[1]?.content).toContain('We need a booking site');
  });

  it.each([
    ['an unusable answer', { status: 200, content: 'I think it is a lead.' }],
    ['an unknown class', { status: 200, content: '{"classification":"maybe","reason":"?"}' }],
    ['a model error', { status: 500, content: '' }],
  ])('falls back to the built-in classifier on %s', async (_label, next) => {
    answer = next;
    const result = await classifySubmission(new TestChatClient(model.url), input, silent);
    expect(result).toMatchObject({ classification: 'lead', classifiedBy: 'builtin' });
    // The built-in classifier's decision carries its score and reasons.
    expect(result.score).toBeGreaterThan(0);
    expect(result.reasons.length).toBeGreaterThan(0);
  });

  it('an unreachable model falls back too', async () => {
    const result = await classifySubmission(new TestChatClient('http://127.0.0.1:9'), input, silent);
    expect(result.classifiedBy).toBe('builtin');
  });

  it('POST /api/leads stores the model verdict and which classifier decided', async () => {
    const ctx: TestContext = await leadsApp('sqlite', { TRUST_PROXY: 'xff' });
    try {
      ctx.deps.llm = new TestChatClient(model.url);
      answer = { status: 200, content: '{"classification":"spam","reason":"Gibberish."}' };
      const res = await postLead(ctx, submission());
      const lead = await getLead(ctx.deps.db, ((await res.json()) as { leadId: string }).leadId);
      expect(lead).toMatchObject({
        status: 'spam',
        classification: 'spam',
        classificationReason: 'Gibberish.',
        classifiedBy: 'llm',
      });
      answer = { status: 500, content: '' };
      const fallback = await postLead(ctx, submission());
      const second = await getLead(ctx.deps.db, ((await fallback.json()) as { leadId: string }).leadId);
      expect(second).toMatchObject({ status: 'new', classification: 'lead', classifiedBy: 'builtin' });
    } finally {
      await ctx.close();
    }
  });
});
