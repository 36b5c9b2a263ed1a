import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { APICallError } from '@ai-sdk/provider';
import { tracedFetch } from '../../tracing/outbound.ts';
import type { ChatMessage, CompletionRequest, LlmClient } from './llm-client.ts';
import { LlmError } from './llm-client.ts';

export interface OpenAiCompatibleOptions {
  baseUrl: string;
  apiKey: string | undefined;
  model: string;
  /** Per attempt: the whole answer for `complete`, the first delta for `stream`. */
  timeoutMs: number;
  /** Pause before the one retry. */
  retryDelayMs?: number;
}

type ChatModel = ReturnType<ReturnType<typeof createOpenAICompatible>['chatModel']>;
type CallOptions = Parameters<ChatModel['doGenerate']>[0];

class AttemptTimeout extends Error {
  override name = 'AttemptTimeout';
}

/**
 * The real client of the OpenAI-compatible chat-completions API (`POST $AI_BASE_URL/chat/completions`)
 * through the AI SDK's `@ai-sdk/openai-compatible` provider. We call the provider's model directly
 * (`doGenerate`/`doStream`) so that the retry policy is ours: one retry on 5xx, network errors and
 * timeouts, none on 4xx; the SDK's own retries back off for seconds, which a page request cannot
 * afford. `response_format: json_object` is requested when asked for.
 *
 * Providers differ in the parameters they accept: a 400 that refuses one of ours is answered by
 * asking again with that parameter adjusted, and the adjustment is kept for the rest of the process
 * (see `refusal`): no JSON mode (older servers), `max_completion_tokens` instead of `max_tokens` and
 * the default temperature (OpenAI's reasoning models: the o-series, GPT-5).
 */
export class OpenAiCompatibleClient implements LlmClient {
  readonly model: string;
  readonly #chat: ChatModel;
  readonly #timeoutMs: number;
  readonly #retryDelayMs: number;
  readonly #adjustments = new Set<Adjustment>();

  constructor(options: OpenAiCompatibleOptions) {
    this.model = options.model;
    this.#timeoutMs = options.timeoutMs;
    this.#retryDelayMs = options.retryDelayMs ?? 100;
    const provider = createOpenAICompatible({
      name: 'ai',
      baseURL: options.baseUrl,
      apiKey: options.apiKey || undefined,
      fetch: tracedModelFetch,
    });
    this.#chat = provider.chatModel(options.model);
  }

  async complete(request: CompletionRequest): Promise<string> {
    return this.#withRetry(request, async (options, signal) => {
      const result = await this.#chat.doGenerate({ ...options, abortSignal: signal });
      const text = result.content
        .filter((part) => part.type === 'text')
        .map((part) => (part as { text: string }).text)
        .join('');
      if (text.trim() === '') throw new LlmError('The model answered without any text.');
      return text;
    });
  }

  async *stream(request: CompletionRequest): AsyncIterable<string> {
    // Retrying is only possible until the first delta: after that the caller has already used it.
    const { reader, first, controller } = await this.#withRetry(request, async (options, signal) => {
      const controller = new AbortController();
      const abort = () => controller.abort(signal.reason);
      signal.addEventListener('abort', abort, { once: true });
      const { stream } = await this.#chat.doStream({
        ...options,
        abortSignal: AbortSignal.any([controller.signal, ...(request.signal ? [request.signal] : [])]),
      });
      const reader = stream.getReader();
      const first = await nextDelta(reader);
      signal.removeEventListener('abort', abort);
      return { reader, first, controller };
    });
    try {
      if (first === null) throw new LlmError('The model answered without any text.');
      yield first;
      for (;;) {
        const delta = await withTimeout(nextDelta(reader), this.#timeoutMs, () => controller.abort());
        if (delta === null) return;
        yield delta;
      }
    } catch (error) {
      throw toLlmError(error);
    } finally {
      controller.abort();
      reader.releaseLock();
    }
  }

  async #withRetry<T>(
    request: CompletionRequest,
    attempt: (options: CallOptions, signal: AbortSignal) => Promise<T>,
  ): Promise<T> {
    for (let tries = 1; ; tries++) {
      const controller = new AbortController();
      const signal = request.signal
        ? AbortSignal.any([controller.signal, request.signal])
        : controller.signal;
      const options = this.#callOptions(request);
      try {
        return await withTimeout(attempt(options, signal), this.#timeoutMs, () =>
          controller.abort(new AttemptTimeout()),
        );
      } catch (error) {
        // A failed attempt's request is cancelled if still open. A finished one has nothing left to
        // cancel (aborting it anyway built an AbortError with its stack trace on every call).
        controller.abort();
        if (request.signal?.aborted) throw new LlmError('The model call was cancelled.', { cause: error });
        const adjustment = refusal(error, options);
        if (adjustment && !this.#adjustments.has(adjustment)) {
          this.#adjustments.add(adjustment);
          tries--;
          continue;
        }
        if (tries >= 2 || !isRetryable(error)) throw toLlmError(error);
        await new Promise((resolve) => setTimeout(resolve, this.#retryDelayMs));
      }
    }
  }

  #callOptions(request: CompletionRequest): CallOptions {
    const adjusted = this.#adjustments;
    const completionTokens = adjusted.has('max-completion-tokens') && request.maxTokens !== undefined;
    return {
      prompt: request.messages.map(toPromptMessage),
      maxOutputTokens: completionTokens ? undefined : request.maxTokens,
      temperature: adjusted.has('default-temperature') ? undefined : request.temperature,
      responseFormat:
        request.responseFormat === 'json' && !adjusted.has('no-json-mode') ? { type: 'json' } : undefined,
      // Unknown keys under the provider's name go into the request body as they are.
      providerOptions: completionTokens ? { ai: { max_completion_tokens: request.maxTokens! } } : undefined,
    };
  }
}

function toPromptMessage(message: ChatMessage): CallOptions['prompt'][number] {
  if (message.role === 'system') return { role: 'system', content: message.content };
  return { role: message.role, content: [{ type: 'text', text: message.content }] };
}

type PartReader = ReadableStreamDefaultReader<
  Awaited<ReturnType<ChatModel['doStream']>>['stream'] extends ReadableStream<infer P> ? P : never
>;

/** The next text delta of the stream, or null at its end; a provider `error` part throws. */
async function nextDelta(reader: PartReader): Promise<string | null> {
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return null;
    if (value.type === 'text-delta' && value.delta !== '') return value.delta;
    if (value.type === 'error') throw toLlmError(value.error);
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number, onTimeout: () => void): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      onTimeout();
      reject(new AttemptTimeout(`The model did not answer within ${ms} ms.`));
    }, ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function isRetryable(error: unknown): boolean {
  if (error instanceof AttemptTimeout) return true;
  if (APICallError.isInstance(error)) {
    // No status: the connection failed before an answer (reset, refused), worth one more try.
    return error.statusCode === undefined || error.statusCode >= 500;
  }
  return false;
}

/** A parameter the provider does not take, and how the request is changed for it. */
type Adjustment = 'no-json-mode' | 'max-completion-tokens' | 'default-temperature';

/**
 * The adjustment a 400 asks for, if it refused a parameter this request sent. OpenAI's reasoning
 * models answer "Unsupported parameter: 'max_tokens' … Use 'max_completion_tokens' instead." and
 * "Unsupported value: 'temperature' does not support 0.2 with this model. Only the default (1) value
 * is supported."
 */
function refusal(error: unknown, sent: CallOptions): Adjustment | null {
  if (!APICallError.isInstance(error) || error.statusCode !== 400) return null;
  const text = `${error.message} ${error.responseBody ?? ''}`;
  if (sent.responseFormat && /response_format|json_object|json mode/i.test(text)) return 'no-json-mode';
  if (sent.maxOutputTokens !== undefined && /max_tokens/.test(text) && /max_completion_tokens/.test(text)) {
    return 'max-completion-tokens';
  }
  if (
    sent.temperature !== undefined &&
    /temperature/i.test(text) &&
    /unsupported|not support|only the default/i.test(text)
  ) {
    return 'default-temperature';
  }
  return null;
}

function toLlmError(error: unknown): LlmError {
  if (error instanceof LlmError) return error;
  if (error instanceof AttemptTimeout) return new LlmError(error.message, { cause: error });
  if (APICallError.isInstance(error)) {
    const status = error.statusCode === undefined ? 'no answer' : `HTTP ${error.statusCode}`;
    return new LlmError(`The model call failed (${status}).`, { cause: error });
  }
  return new LlmError('The model answered in an unusable shape.', { cause: error });
}

/**
 * The provider's fetch, each model call a span of the request or job it is made for, with its
 * `traceparent` (the span ends when the answer's head arrives; a stream's body may follow).
 */
function tracedModelFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  return tracedFetch('llm', { 'http.request.method': init?.method ?? 'POST' }, (trace) => {
    const headers = new Headers(init?.headers);
    for (const name in trace) headers.set(name, trace[name]!);
    return fetch(input, { ...init, headers });
  });
}
