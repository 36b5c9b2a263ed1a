import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/database.ts';
import { bigint, type RowOf, table, text } from '../../db/table-spec.ts';

/** The `chat_messages` table (migration 0004). */
export const chatMessagesTable = table({
  id: text(),
  session_id: text(),
  role: text<'user' | 'assistant'>(),
  content: text(),
  /** JSON object (the agent's `done.metadata`) or null. */
  metadata: text().orNull(),
  created_at: bigint(),
});

declare module '../../db/schema.ts' {
  interface Database {
    chat_messages: RowOf<typeof chatMessagesTable>;
  }
}

export interface StoredMessage {
  role: 'user' | 'assistant';
  content: string;
  createdAt: string;
  metadata?: Record<string, unknown>;
}

export async function appendMessage(
  db: Db,
  message: {
    sessionId: string;
    role: 'user' | 'assistant';
    content: string;
    metadata?: Record<string, unknown>;
    createdAt: number;
  },
): Promise<void> {
  await db
    .insertInto('chat_messages')
    .values({
      id: `msg_${randomUUID()}`,
      session_id: message.sessionId,
      role: message.role,
      content: message.content,
      metadata: message.metadata ? JSON.stringify(message.metadata) : null,
      created_at: message.createdAt,
    })
    .execute();
}

function parseMetadata(text: string | null): Record<string, unknown> | undefined {
  if (!text) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The session's latest `limit` messages, oldest first, and how many it has in all. */
export async function readMessages(
  db: Db,
  sessionId: string,
  limit: number,
): Promise<{ messages: StoredMessage[]; total: number }> {
  const counted = await db
    .selectFrom('chat_messages')
    .select((eb) => eb.fn.countAll<number | string>().as('total'))
    .where('session_id', '=', sessionId)
    .executeTakeFirst();
  const total = Number(counted?.total ?? 0);
  if (total === 0) return { messages: [], total: 0 };
  const rows = await db
    .selectFrom('chat_messages')
    .select(['role', 'content', 'metadata', 'created_at'])
    .where('session_id', '=', sessionId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  const messages = rows.reverse().map((row) => {
    const metadata = parseMetadata(row.metadata);
    return {
      role: row.role,
      content: row.content,
      createdAt: new Date(Number(row.created_at)).toISOString(),
      ...(metadata ? { metadata } : {}),
    };
  });
  return { messages, total };
}
