import type { Logger } from 'pino';
import WebSocket from 'ws';
import { startOutboundCall } from '../../tracing/outbound.ts';
import { SALES_AGENT_LIMITS } from './limits.ts';
import { type HistoryRequestFrame, PROTOCOL_VERSION, parseAgentFrame, type QueryFrame } from './protocol.ts';
import type { AgentErrorReason, AgentEvent, AgentQuery, HistoryMessage, SalesAgent } from './sales-agent.ts';

export interface WebSocketAgentOptions {
  url: string;
  connectTimeoutMs?: number;
  idleTimeoutMs?: number;
  maxDurationMs?: number;
  maxFrameBytes?: number;
  maxAnswerChars?: number;
  historyTimeoutMs?: number;
  logger?: Logger;
}

/** What the visitor reads for each failure; the agent's own `error.message` is passed on instead. */
const MESSAGES: Record<Exclude<AgentErrorReason, 'agent_error'>, string> = {
  unavailable: 'The sales assistant is unavailable right now; please try again shortly.',
  connect_timeout: 'The sales assistant did not respond in time; please try again shortly.',
  idle_timeout: 'The sales assistant stopped responding; please try again.',
  duration_exceeded: 'The answer took too long and was stopped; please try again.',
  answer_too_long: 'The answer was too long and was stopped.',
  invalid_frame: 'The sales assistant sent an invalid response; please try again.',
  closed_early: 'The sales assistant closed the conversation before finishing; please try again.',
  internal: 'The chat failed; please try again.',
};
const AGENT_ERROR_FALLBACK = 'The sales assistant could not answer; please try again.';

/** Close codes (RFC 6455): 1000 normal, 1001 going away (the visitor left), 1008 policy violation. */
const CLOSE_NORMAL = 1000;
const CLOSE_GOING_AWAY = 1001;
const CLOSE_POLICY = 1008;
/** `ws` gives every error its frame parser raises a code with this prefix (WS_ERR_INVALID_UTF8, …). */
const WS_PROTOCOL_ERROR_PREFIX = 'WS_ERR_';

/**
 * The relay to a sales-agent backend over WebSocket, protocol version 1: one connection per question,
 * the query sent as the first frame, the agent's frames turned into events. Every wait is bounded
 * (connect, idle, total duration), frames are capped in size, and the connection is closed the moment
 * the consumer stops listening or the signal aborts.
 */
export class WebSocketSalesAgent implements SalesAgent {
  readonly kind = 'websocket' as const;
  readonly #url: string;
  readonly #limits: Required<Omit<WebSocketAgentOptions, 'url' | 'logger'>>;
  readonly #logger: Logger | undefined;

  constructor(options: WebSocketAgentOptions) {
    const url = new URL(options.url);
    if (url.protocol !== 'ws:' && url.protocol !== 'wss:') {
      throw new Error('the sales-agent URL must be ws:// or wss://');
    }
    this.#url = options.url;
    this.#logger = options.logger;
    this.#limits = {
      connectTimeoutMs: options.connectTimeoutMs ?? SALES_AGENT_LIMITS.connectTimeoutMs,
      idleTimeoutMs: options.idleTimeoutMs ?? SALES_AGENT_LIMITS.idleTimeoutMs,
      maxDurationMs: options.maxDurationMs ?? SALES_AGENT_LIMITS.maxDurationMs,
      maxFrameBytes: options.maxFrameBytes ?? SALES_AGENT_LIMITS.maxFrameBytes,
      maxAnswerChars: options.maxAnswerChars ?? SALES_AGENT_LIMITS.maxAnswerChars,
      historyTimeoutMs: options.historyTimeoutMs ?? SALES_AGENT_LIMITS.historyTimeoutMs,
    };
  }

  /** A connection to the agent, a span of the request it serves (its handshake carries `traceparent`). */
  #open(clientIp: string | null, timeoutMs: number): WebSocket {
    const outbound = startOutboundCall('sales-agent');
    const ws = new WebSocket(this.#url, {
      headers: clientIp ? { 'X-Forwarded-For': clientIp, ...outbound.headers } : outbound.headers,
      // Our own timer decides first; this only guards a socket that never gets as far as the upgrade.
      handshakeTimeout: timeoutMs + 1000,
      maxPayload: this.#limits.maxFrameBytes,
      perMessageDeflate: false,
      followRedirects: false,
    });
    ws.once('error', (error) => outbound.end({ error }));
    ws.once('close', () => outbound.end());
    return ws;
  }

  ask(query: AgentQuery): AsyncIterable<AgentEvent> {
    return this.#relay(query);
  }

  async *#relay(query: AgentQuery): AsyncGenerator<AgentEvent> {
    if (query.signal.aborted) return;
    const limits = this.#limits;
    const queue: AgentEvent[] = [];
    let finished = false;
    let wake: (() => void) | null = null;
    const notify = () => {
      const resolve = wake;
      wake = null;
      resolve?.();
    };

    const ws = this.#open(query.clientIp, limits.connectTimeoutMs);
    let answerChars = 0;
    const accumulated: string[] = [];

    const close = (code: number) => {
      if (ws.readyState === WebSocket.CONNECTING) ws.terminate();
      else if (ws.readyState === WebSocket.OPEN) ws.close(code);
    };
    const push = (event: AgentEvent) => {
      if (finished) return;
      queue.push(event);
      if (event.type !== 'token') finished = true;
      notify();
    };
    const fail = (reason: Exclude<AgentErrorReason, 'agent_error'>, detail?: string) => {
      if (finished) return;
      this.#logger?.warn({ reason, detail }, 'sales agent stream failed');
      push({ type: 'error', reason, message: MESSAGES[reason] });
      close(reason === 'invalid_frame' || reason === 'answer_too_long' ? CLOSE_POLICY : CLOSE_NORMAL);
    };

    const connectTimer = setTimeout(() => fail('connect_timeout'), limits.connectTimeoutMs);
    let idleTimer: NodeJS.Timeout | undefined;
    let durationTimer: NodeJS.Timeout | undefined;
    let opened = false;

    ws.on('open', () => {
      clearTimeout(connectTimer);
      opened = true;
      if (finished) return;
      const frame: QueryFrame = {
        type: 'query',
        version: PROTOCOL_VERSION,
        sessionId: query.sessionId,
        query: query.query,
        language: query.language,
        clientIp: query.clientIp,
      };
      ws.send(JSON.stringify(frame));
      idleTimer = setTimeout(() => fail('idle_timeout'), limits.idleTimeoutMs);
      durationTimer = setTimeout(() => fail('duration_exceeded'), limits.maxDurationMs);
    });

    const onFrame = (data: WebSocket.RawData, isBinary: boolean) => {
      if (isBinary) return fail('invalid_frame', 'binary frame');
      const frame = parseAgentFrame(data.toString());
      switch (frame.type) {
        case 'token':
          // An empty token carries nothing: it is not kept and does not count as activity, so a flood
          // of them can neither grow the buffer nor keep a silent stream alive past the idle timeout.
          if (frame.content === '') return;
          idleTimer?.refresh();
          answerChars += frame.content.length;
          if (answerChars > limits.maxAnswerChars) return fail('answer_too_long');
          accumulated.push(frame.content);
          push({ type: 'token', content: frame.content });
          return;
        case 'done': {
          const content = frame.content ?? accumulated.join('');
          if (content.length > limits.maxAnswerChars) return fail('answer_too_long');
          push({ type: 'done', content, metadata: frame.metadata });
          close(CLOSE_NORMAL);
          return;
        }
        case 'error':
          this.#logger?.warn({ reason: 'agent_error' }, 'sales agent answered with an error');
          push({
            type: 'error',
            reason: 'agent_error',
            message: frame.message.slice(0, SALES_AGENT_LIMITS.maxErrorMessageChars) || AGENT_ERROR_FALLBACK,
          });
          close(CLOSE_NORMAL);
          return;
        case 'invalid':
          return fail('invalid_frame', frame.problem);
        default:
          // `history` answers and frame types of later versions carry nothing for a query.
          idleTimer?.refresh();
          return;
      }
    };
    ws.on('message', (data, isBinary) => {
      if (finished) return;
      try {
        onFrame(data, isBinary);
      } catch (error) {
        // Thrown here it would escape the WebSocket receiver and end the process.
        fail('invalid_frame', error instanceof Error ? error.message : String(error));
      }
    });

    ws.on('error', (error: Error & { code?: string }) => {
      // The agent broke the framing rules (text not UTF-8, a frame over the cap, …): a malformed frame.
      if (error.code?.startsWith(WS_PROTOCOL_ERROR_PREFIX)) return fail('invalid_frame', error.code);
      if (!opened) {
        return fail(/timed out/i.test(error.message) ? 'connect_timeout' : 'unavailable', error.message);
      }
      fail('closed_early', error.message);
    });
    ws.on('close', (code) => fail('closed_early', `closed with ${code}`));

    const onAbort = () => {
      finished = true;
      close(CLOSE_GOING_AWAY);
      notify();
    };
    query.signal.addEventListener('abort', onAbort, { once: true });

    try {
      while (true) {
        const event = queue.shift();
        if (event) {
          yield event;
          if (event.type !== 'token') return;
          continue;
        }
        if (query.signal.aborted || finished) return;
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
      }
    } finally {
      finished = true;
      clearTimeout(connectTimer);
      clearTimeout(idleTimer);
      clearTimeout(durationTimer);
      query.signal.removeEventListener('abort', onAbort);
      close(query.signal.aborted ? CLOSE_GOING_AWAY : CLOSE_NORMAL);
    }
  }

  history(
    sessionId: string,
    options: { limit: number; clientIp: string | null; signal?: AbortSignal },
  ): Promise<HistoryMessage[] | null> {
    const timeoutMs = this.#limits.historyTimeoutMs;
    return new Promise((resolve) => {
      if (options.signal?.aborted) return resolve(null);
      const ws = this.#open(options.clientIp, timeoutMs);
      let settled = false;
      const finish = (messages: HistoryMessage[] | null, problem?: string) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
        if (problem) this.#logger?.warn({ problem }, 'sales agent history unavailable');
        if (ws.readyState === WebSocket.CONNECTING) ws.terminate();
        else if (ws.readyState === WebSocket.OPEN) ws.close(CLOSE_NORMAL);
        resolve(messages);
      };
      const onAbort = () => finish(null);
      const timer = setTimeout(() => finish(null, 'timed out'), timeoutMs);
      options.signal?.addEventListener('abort', onAbort, { once: true });
      ws.on('open', () => {
        const frame: HistoryRequestFrame = {
          type: 'history',
          version: PROTOCOL_VERSION,
          sessionId,
          limit: options.limit,
        };
        ws.send(JSON.stringify(frame));
      });
      ws.on('message', (data, isBinary) => {
        if (isBinary) return finish(null, 'binary frame');
        try {
          const frame = parseAgentFrame(data.toString());
          if (frame.type === 'history') finish(frame.messages);
          else if (frame.type === 'error') finish(null, 'agent answered with an error');
          else if (frame.type === 'invalid') finish(null, frame.problem);
        } catch (error) {
          // Thrown here it would escape the WebSocket receiver and end the process.
          finish(null, error instanceof Error ? error.message : String(error));
        }
      });
      ws.on('error', (error) => finish(null, error.message));
      ws.on('close', () => finish(null, 'closed before answering'));
    });
  }
}
