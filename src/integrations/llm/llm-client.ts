/**
 * The language-model interface every feature talks to. The real client speaks the OpenAI-compatible
 * chat-completions API (AI_BASE_URL); when it is unset `deps.llm` is null and each feature uses the
 * built-in offline engine for its task instead.
 */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface CompletionRequest {
  messages: ChatMessage[];
  /** Ask for a JSON object (`response_format`) where the provider supports it; never relied upon. */
  responseFormat?: 'json' | 'text';
  maxTokens?: number;
  temperature?: number;
  signal?: AbortSignal;
}

export interface LlmClient {
  readonly model: string;
  /** The whole completion text. Throws LlmError when the call fails or the answer has no usable text. */
  complete(request: CompletionRequest): Promise<string>;
  /** The completion as text deltas, in order. Throws LlmError like `complete`. */
  stream(request: CompletionRequest): AsyncIterable<string>;
}

/** The model call threw, timed out, or answered in an unusable shape (→ 502 `ai_request_failed`). */
export class LlmError extends Error {
  override name = 'LlmError';
}
