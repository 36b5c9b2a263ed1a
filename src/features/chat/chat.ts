import type { Logger } from 'pino';
import type { Db } from '../../db/database.ts';
import type { AgentEvent, SalesAgent } from '../../integrations/sales-agent/sales-agent.ts';
import { appendMessage, readMessages, type StoredMessage } from './history-store.ts';

export interface ChatContext {
  db: Db;
  salesAgent: SalesAgent;
  logger: Logger;
}

export interface ChatQuestion {
  sessionId: string;
  query: string;
  language: string | null;
  clientIp: string | null;
}

/** The events the visitor receives, already in their public shape. */
export type ChatEvent =
  | { event: 'token'; data: { content: string } }
  | { event: 'done'; data: { content: string; metadata: Record<string, unknown> } }
  | { event: 'error'; data: { message: string } };

/** Delivers one event to the visitor; false once the visitor has gone. */
export type Emit = (event: ChatEvent) => Promise<boolean>;

async function persist(ctx: ChatContext, message: Parameters<typeof appendMessage>[1]): Promise<boolean> {
  try {
    await appendMessage(ctx.db, message);
    return true;
  } catch (error) {
    // Best-effort: the visitor still gets the answer; the history just misses this message.
    ctx.logger.warn({ err: error, role: message.role }, 'chat message not persisted');
    return false;
  }
}

function toChatEvent(event: AgentEvent): ChatEvent {
  switch (event.type) {
    case 'token':
      return { event: 'token', data: { content: event.content } };
    case 'done':
      return { event: 'done', data: { content: event.content, metadata: event.metadata } };
    case 'error':
      return { event: 'error', data: { message: event.message } };
  }
}

let lastStamp = 0;

/**
 * A message's `created_at`: the time, but always after the last one this process gave, so that a
 * session's messages sort as they were stored (history orders by it) even when a question arrives
 * within the millisecond its previous answer was stored (an agent that answers at once, a widget
 * that asks on its own). Another instance's clock is not ordered by it.
 */
function messageStamp(): number {
  lastStamp = Math.max(Date.now(), lastStamp + 1);
  return lastStamp;
}

/**
 * One question answered: the agent's events are passed on as they arrive; the question is stored
 * while the agent works (not before: the first token must not wait on the database) and the final
 * answer once it is complete. An answer that ends in an error or a disconnect is not stored.
 */
export async function answerQuestion(
  ctx: ChatContext,
  question: ChatQuestion,
  emit: Emit,
  signal: AbortSignal,
): Promise<void> {
  const questionStored = persist(ctx, {
    sessionId: question.sessionId,
    role: 'user',
    content: question.query,
    createdAt: messageStamp(),
  });
  let outcome: AgentEvent['type'] | 'disconnected' = 'disconnected';
  try {
    for await (const event of ctx.salesAgent.ask({ ...question, signal })) {
      if (event.type !== 'token') outcome = event.type;
      if (event.type === 'error') ctx.logger.info({ reason: event.reason }, 'chat answer failed');
      const delivered = await emit(toChatEvent(event));
      if (event.type === 'done') {
        await questionStored;
        await persist(ctx, {
          sessionId: question.sessionId,
          role: 'assistant',
          content: event.content,
          metadata: event.metadata,
          createdAt: messageStamp(),
        });
      }
      if (!delivered) break;
    }
  } finally {
    await questionStored;
    if (outcome === 'disconnected' && signal.aborted) ctx.logger.info('chat visitor disconnected');
  }
}

export interface ChatHistory {
  sessionId: string;
  messages: (StoredMessage | { role: 'user' | 'assistant'; content: string; createdAt: string | null })[];
  total: number;
}

/**
 * A session's history: what this service stored, else the agent backend's own history (protocol
 * `history` message), else nothing. A database failure falls through to the agent.
 */
export async function readHistory(
  ctx: ChatContext,
  request: { sessionId: string; limit: number; clientIp: string | null; signal?: AbortSignal },
): Promise<ChatHistory> {
  try {
    const stored = await readMessages(ctx.db, request.sessionId, request.limit);
    if (stored.total > 0) return { sessionId: request.sessionId, ...stored };
  } catch (error) {
    ctx.logger.warn({ err: error }, 'chat history not readable from the database; asking the agent');
  }
  const fromAgent = await ctx.salesAgent.history(request.sessionId, {
    limit: request.limit,
    clientIp: request.clientIp,
    signal: request.signal,
  });
  if (!fromAgent) return { sessionId: request.sessionId, messages: [], total: 0 };
  return { sessionId: request.sessionId, messages: fromAgent.slice(-request.limit), total: fromAgent.length };
}
