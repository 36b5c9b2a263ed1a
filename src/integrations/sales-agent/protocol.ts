import { SALES_AGENT_LIMITS } from './limits.ts';
import type { HistoryMessage } from './sales-agent.ts';

/** Sales-agent WebSocket protocol, version 1 (contract.md; written up for agent authors in docs/chat.md). */
export const PROTOCOL_VERSION = 1;

export interface QueryFrame {
  type: 'query';
  version: 1;
  sessionId: string;
  query: string;
  language: string | null;
  clientIp: string | null;
}

export interface HistoryRequestFrame {
  type: 'history';
  version: 1;
  sessionId: string;
  limit: number;
}

/** A frame from the agent, checked. `ignored` is a well-formed frame of a type this version does not know. */
export type AgentFrame =
  | { type: 'token'; content: string }
  | { type: 'done'; content: string | null; metadata: Record<string, unknown> }
  | { type: 'error'; message: string }
  | { type: 'history'; messages: HistoryMessage[] }
  | { type: 'ignored' }
  | { type: 'invalid'; problem: string };

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Whether objects and arrays inside `value` nest more than `maxDepth` levels (`value` itself is level 1).
 * Iterative, so it is safe on input too deep for anything recursive.
 */
function nestsDeeperThan(value: unknown, maxDepth: number): boolean {
  const pending: { value: object; depth: number }[] = [];
  if (typeof value === 'object' && value !== null) pending.push({ value, depth: 1 });
  for (let next = pending.pop(); next; next = pending.pop()) {
    if (next.depth > maxDepth) return true;
    for (const child of Object.values(next.value)) {
      if (typeof child === 'object' && child !== null) pending.push({ value: child, depth: next.depth + 1 });
    }
  }
  return false;
}

function toIsoInstant(value: unknown): string | null {
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/**
 * Parses one text frame. Hand-written rather than a zod schema: it runs once per token on the hot
 * path of the relay. Unknown `type`s are ignored so an agent may add frame types without breaking
 * older relays; anything else that is not the documented shape is `invalid`.
 */
export function parseAgentFrame(text: string): AgentFrame {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { type: 'invalid', problem: 'not JSON' };
  }
  if (!isRecord(value) || typeof value.type !== 'string') {
    return { type: 'invalid', problem: 'not an object with a string "type"' };
  }
  switch (value.type) {
    case 'token':
      return typeof value.content === 'string'
        ? { type: 'token', content: value.content }
        : { type: 'invalid', problem: 'token without string "content"' };
    case 'done': {
      if (value.content !== undefined && value.content !== null && typeof value.content !== 'string') {
        return { type: 'invalid', problem: 'done with non-string "content"' };
      }
      if (value.metadata !== undefined && value.metadata !== null && !isRecord(value.metadata)) {
        return { type: 'invalid', problem: 'done with non-object "metadata"' };
      }
      const metadata = isRecord(value.metadata) ? value.metadata : {};
      // The depth first: serialising (here, in the SSE event, in the history) recurses once per level.
      if (nestsDeeperThan(metadata, SALES_AGENT_LIMITS.maxMetadataDepth)) {
        return { type: 'invalid', problem: 'done "metadata" nested too deep' };
      }
      if (Buffer.byteLength(JSON.stringify(metadata)) > SALES_AGENT_LIMITS.maxMetadataBytes) {
        return { type: 'invalid', problem: 'done "metadata" too large' };
      }
      return { type: 'done', content: typeof value.content === 'string' ? value.content : null, metadata };
    }
    case 'error':
      return {
        type: 'error',
        message: typeof value.message === 'string' && value.message.trim() !== '' ? value.message : '',
      };
    case 'history': {
      if (!Array.isArray(value.messages)) return { type: 'invalid', problem: 'history without "messages"' };
      const messages: HistoryMessage[] = [];
      for (const item of value.messages) {
        if (!isRecord(item) || (item.role !== 'user' && item.role !== 'assistant')) continue;
        if (typeof item.content !== 'string') continue;
        messages.push({ role: item.role, content: item.content, createdAt: toIsoInstant(item.createdAt) });
      }
      return { type: 'history', messages };
    }
    default:
      return { type: 'ignored' };
  }
}
