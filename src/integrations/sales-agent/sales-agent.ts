/**
 * The sales-agent interface the chat routes talk to. Two implementations: the WebSocket relay to
 * SALES_AGENT_WS_URL (protocol version 1, docs/chat.md) and the built-in agent that answers from the
 * search index when the variable is unset. Chosen once in src/dependencies.ts; routes never know which.
 */
export interface AgentQuery {
  sessionId: string;
  query: string;
  /** The visitor's language as the browser sent it (e.g. `es`, `en-GB`), or null. */
  language: string | null;
  /** The visitor's IP as this service trusts it (TRUST_PROXY), or null when unknown. */
  clientIp: string | null;
  /** Aborted when the visitor goes away or the server shuts down: the answer stops at once. */
  signal: AbortSignal;
}

/** Why a stream ended in error, for logs; the visitor only sees `message`. */
export type AgentErrorReason =
  | 'unavailable'
  | 'connect_timeout'
  | 'idle_timeout'
  | 'duration_exceeded'
  | 'answer_too_long'
  | 'invalid_frame'
  | 'closed_early'
  | 'agent_error'
  | 'internal';

export type AgentEvent =
  | { type: 'token'; content: string }
  | { type: 'done'; content: string; metadata: Record<string, unknown> }
  | { type: 'error'; message: string; reason: AgentErrorReason };

export interface HistoryMessage {
  role: 'user' | 'assistant';
  content: string;
  /** ISO 8601 instant, or null when the backend did not say. */
  createdAt: string | null;
}

export interface SalesAgent {
  /** `websocket` or `builtin`, for the start-up line and logs only. */
  readonly kind: 'websocket' | 'builtin';
  /**
   * Streams the answer: any number of `token` events, then exactly one `done` or `error`, then the
   * iteration ends. Never throws; ending the iteration early (or aborting the signal) releases the
   * connection at once.
   */
  ask(query: AgentQuery): AsyncIterable<AgentEvent>;
  /** The backend's own history of a session, newest last; null when it has none or cannot answer. */
  history(
    sessionId: string,
    options: { limit: number; clientIp: string | null; signal?: AbortSignal },
  ): Promise<HistoryMessage[] | null>;
}
