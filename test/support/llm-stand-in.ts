import type { ServerResponse } from 'node:http';
import { type RecordedRequest, sendJson, startStandIn } from './stand-in.ts';

/** A chat-completions answer whose message content is `content`. */
export function completion(content: string, model = 'stand-in') {
  return {
    id: 'chatcmpl-test',
    object: 'chat.completion',
    created: 1_700_000_000,
    model,
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  };
}

/**
 * Writes `deltas` as an OpenAI-style SSE stream (`data: {chunk}` lines, then `data: [DONE]`), all at
 * once, or one every `pacingMs` (a model that takes its time: the generation runs for a while).
 */
export async function sendSse(res: ServerResponse, deltas: string[], pacingMs = 0) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const chunk = (delta: Record<string, unknown>, finish: string | null) =>
    `data: ${JSON.stringify({
      id: 'chatcmpl-test',
      object: 'chat.completion.chunk',
      created: 1_700_000_000,
      model: 'stand-in',
      choices: [{ index: 0, delta, finish_reason: finish }],
    })}\n\n`;
  res.write(chunk({ role: 'assistant', content: '' }, null));
  for (const delta of deltas) {
    if (pacingMs > 0) await new Promise((resolve) => setTimeout(resolve, pacingMs));
    if (res.destroyed) return;
    res.write(chunk({ content: delta }, null));
  }
  res.write(chunk({}, 'stop'));
  res.end('data: [DONE]\n\n');
}

/**
 * A local OpenAI-compatible model: answers `POST /chat/completions` with `reply(request)` (a string
 * becomes the message content, streamed when the request asks for `stream`).
 */
export async function startLlmStandIn(
  reply: (request: RecordedRequest) => string,
  options: { streamPacingMs?: number; streamPieceChars?: number } = {},
) {
  const piece = new RegExp(`[\\s\\S]{1,${options.streamPieceChars ?? 8}}`, 'g');
  const standIn = await startStandIn((req, res) => {
    if (req.method !== 'POST' || !req.url.endsWith('/chat/completions')) return sendJson(res, 404, {});
    const body = JSON.parse(req.body) as { stream?: boolean };
    const content = reply(req);
    if (body.stream) return sendSse(res, content.match(piece) ?? [], options.streamPacingMs);
    sendJson(res, 200, completion(content));
  });
  return standIn;
}
