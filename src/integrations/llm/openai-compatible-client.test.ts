import { afterEach, describe, expect, it } from 'vitest';
import { completion, sendSse } from '../../../test/support/llm-stand-in.ts';
import { type StandIn, type StandInHandler, sendJson, startStandIn } from '../../../test/support/stand-in.ts';
import { LlmError } from './llm-client.ts';
import { OpenAiCompatibleClient } from './openai-compatible-client.ts';

let standIn: StandIn | null = null;
afterEach(async () => {
  await standIn?.close();
  standIn = null;
});

async function clientFor(handler: StandInHandler, timeoutMs = 5000) {
  standIn = await startStandIn(handler);
  const client = new OpenAiCompatibleClient({
    baseUrl: `${standIn.url}/v1`,
    apiKey: 'sk-test',
    model: 'test-model',
    timeoutMs,
    retryDelayMs: 1,
  });
  return { client, standIn };
}

const ask = {
  messages: [
    { role: 'system' as const, content: 'sys' },
    { role: 'user' as const, content: 'hi' },
  ],
};

async function collect(stream: AsyncIterable<string>) {
  const parts: string[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

describe('OpenAiCompatibleClient.complete', () => {
  it('posts a chat completion with the key, model, messages and JSON mode', async () => {
    const { client, standIn } = await clientFor((_req, res) => sendJson(res, 200, completion('{"ok":true}')));
    await expect(client.complete({ ...ask, responseFormat: 'json', maxTokens: 50 })).resolves.toBe(
      '{"ok":true}',
    );
    const [request] = standIn.requests;
    expect(request?.url).toBe('/v1/chat/completions');
    expect(request?.headers.authorization).toBe('Bearer sk-test');
    const body = JSON.parse(request!.body);
    expect(body).toMatchObject({
      model: 'test-model',
      messages: [
        { role: 'system', content: 'sys' },
        { role: 'user', content: 'hi' },
      ],
      response_format: { type: 'json_object' },
      max_tokens: 50,
    });
  });

  it('retries once on a 5xx and then succeeds', async () => {
    let calls = 0;
    const { client, standIn } = await clientFor((_req, res) =>
      ++calls === 1
        ? sendJson(res, 503, { error: { message: 'busy' } })
        : sendJson(res, 200, completion('fine')),
    );
    await expect(client.complete(ask)).resolves.toBe('fine');
    expect(standIn.requests).toHaveLength(2);
  });

  it('gives up after exactly one retry', async () => {
    const { client, standIn } = await clientFor((_req, res) =>
      sendJson(res, 500, { error: { message: 'down' } }),
    );
    await expect(client.complete(ask)).rejects.toBeInstanceOf(LlmError);
    expect(standIn.requests).toHaveLength(2);
  });

  it('does not retry a 4xx', async () => {
    const { client, standIn } = await clientFor((_req, res) =>
      sendJson(res, 401, { error: { message: 'no key' } }),
    );
    await expect(client.complete(ask)).rejects.toBeInstanceOf(LlmError);
    expect(standIn.requests).toHaveLength(1);
  });

  it('times out each attempt and retries once', async () => {
    const { client, standIn } = await clientFor(() => {}, 300); // never answers
    await expect(client.complete(ask)).rejects.toThrow(/did not answer/);
    expect(standIn.requests).toHaveLength(2);
  });

  it('asks again without response_format when the provider refuses JSON mode', async () => {
    const { client, standIn } = await clientFor((req, res) =>
      JSON.parse(req.body).response_format
        ? sendJson(res, 400, { error: { message: "'response_format' is not supported" } })
        : sendJson(res, 200, completion('plain')),
    );
    await expect(client.complete({ ...ask, responseFormat: 'json' })).resolves.toBe('plain');
    await expect(client.complete({ ...ask, responseFormat: 'json' })).resolves.toBe('plain');
    expect(standIn.requests).toHaveLength(3);
  });

  it("adapts to a reasoning model's refusals (max_tokens, temperature) once, then asks right the first time", async () => {
    // OpenAI's answers for the o-series and GPT-5 models, word for word.
    const refuse = (param: string, message: string) => ({
      error: { message, type: 'invalid_request_error', param, code: 'unsupported_parameter' },
    });
    const { client, standIn } = await clientFor((req, res) => {
      const body = JSON.parse(req.body);
      if ('max_tokens' in body) {
        return sendJson(
          res,
          400,
          refuse(
            'max_tokens',
            "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
          ),
        );
      }
      if ('temperature' in body && body.temperature !== 1) {
        return sendJson(
          res,
          400,
          refuse(
            'temperature',
            "Unsupported value: 'temperature' does not support 0.2 with this model. Only the default (1) value is supported.",
          ),
        );
      }
      return sendJson(res, 200, completion('reasoned'));
    });
    const request = { ...ask, maxTokens: 1200, temperature: 0.2, responseFormat: 'json' as const };
    await expect(client.complete(request)).resolves.toBe('reasoned');
    expect(standIn.requests).toHaveLength(3);
    await expect(client.complete(request)).resolves.toBe('reasoned');
    expect(standIn.requests).toHaveLength(4);
    const last = JSON.parse(standIn.requests[3]!.body);
    expect(last).toMatchObject({ max_completion_tokens: 1200, response_format: { type: 'json_object' } });
    expect(last).not.toHaveProperty('max_tokens');
    expect(last).not.toHaveProperty('temperature');
  });

  it('does not loop on a 400 that keeps refusing what was already adjusted', async () => {
    const { client, standIn } = await clientFor((_req, res) =>
      sendJson(res, 400, { error: { message: "Use 'max_completion_tokens' instead of 'max_tokens'." } }),
    );
    await expect(client.complete({ ...ask, maxTokens: 10 })).rejects.toBeInstanceOf(LlmError);
    expect(standIn.requests).toHaveLength(2);
  });

  it.each([
    ['no choices', { id: 'x', choices: [] }],
    ['not an object', [1, 2]],
    ['empty content', completion('')],
  ])('throws LlmError for %s', async (_label, body) => {
    const { client } = await clientFor((_req, res) => sendJson(res, 200, body));
    await expect(client.complete(ask)).rejects.toBeInstanceOf(LlmError);
  });

  it('throws LlmError when nothing listens', async () => {
    const client = new OpenAiCompatibleClient({
      baseUrl: 'http://127.0.0.1:9/v1',
      apiKey: undefined,
      model: 'm',
      timeoutMs: 2000,
      retryDelayMs: 1,
    });
    await expect(client.complete(ask)).rejects.toBeInstanceOf(LlmError);
  });
});

describe('OpenAiCompatibleClient.stream', () => {
  it('yields the text deltas of an SSE answer in order', async () => {
    const { client, standIn } = await clientFor((_req, res) => sendSse(res, ['Hel', 'lo', ' wor', 'ld']));
    expect(await collect(client.stream(ask))).toEqual(['Hel', 'lo', ' wor', 'ld']);
    expect(JSON.parse(standIn.requests[0]!.body).stream).toBe(true);
  });

  it('streams from a reasoning model too: max_completion_tokens, the default temperature', async () => {
    const { client, standIn } = await clientFor((req, res) => {
      const body = JSON.parse(req.body);
      if ('max_tokens' in body) {
        return sendJson(res, 400, {
          error: { message: "Use 'max_completion_tokens' instead of 'max_tokens'." },
        });
      }
      if ('temperature' in body) {
        return sendJson(res, 400, { error: { message: "Unsupported value: 'temperature'." } });
      }
      return sendSse(res, ['Hi', ' there']);
    });
    expect(await collect(client.stream({ ...ask, maxTokens: 300, temperature: 0.3 }))).toEqual([
      'Hi',
      ' there',
    ]);
    expect(JSON.parse(standIn.requests.at(-1)!.body)).toMatchObject({
      stream: true,
      max_completion_tokens: 300,
    });
  });

  it('retries once when the stream fails before its first delta', async () => {
    let calls = 0;
    const { client, standIn } = await clientFor((_req, res) =>
      ++calls === 1 ? sendJson(res, 502, { error: { message: 'bad gateway' } }) : sendSse(res, ['ok']),
    );
    expect(await collect(client.stream(ask))).toEqual(['ok']);
    expect(standIn.requests).toHaveLength(2);
  });

  it('throws LlmError when the stream breaks in the middle', async () => {
    const { client } = await clientFor((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(
        `data: ${JSON.stringify({ id: 'x', created: 1, model: 'm', choices: [{ index: 0, delta: { content: 'part' } }] })}\n\n`,
      );
      setTimeout(() => res.socket?.destroy(), 20);
    });
    const parts: string[] = [];
    await expect(
      (async () => {
        for await (const part of client.stream(ask)) parts.push(part);
      })(),
    ).rejects.toBeInstanceOf(LlmError);
    expect(parts).toEqual(['part']);
  });

  it('throws LlmError when the stream stalls after a delta', async () => {
    const { client } = await clientFor((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(
        `data: ${JSON.stringify({ id: 'x', created: 1, model: 'm', choices: [{ index: 0, delta: { content: 'a' } }] })}\n\n`,
      );
    }, 300);
    await expect(collect(client.stream(ask))).rejects.toBeInstanceOf(LlmError);
  });

  it('throws LlmError for a stream without text', async () => {
    const { client } = await clientFor((_req, res) => sendSse(res, []));
    await expect(collect(client.stream(ask))).rejects.toBeInstanceOf(LlmError);
  });

  it('stops reading when the consumer stops early', async () => {
    const { client } = await clientFor((_req, res) => sendSse(res, ['a', 'b', 'c']));
    for await (const part of client.stream(ask)) {
      expect(part).toBe('a');
      break;
    }
  });
});
