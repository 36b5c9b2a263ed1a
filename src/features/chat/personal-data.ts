import { sql } from 'kysely';
import type { Config } from '../../config.ts';
import { inChunks, LINKED, type PersonalDataPart } from '../../db/personal-data.ts';
import { mentionPatterns, mentionsAddress } from '../../text/address-mention.ts';

const MESSAGE = 'chat_message';

/**
 * Chat conversations about a person: the sessions their leads came from (linked by the leads part)
 * and any session in which the address was written. A session goes whole: the visitor's questions
 * and the agent's answers about them.
 */
export function chatPersonalData(config: Config): PersonalDataPart {
  return {
    name: 'chat',
    async find(db, scope) {
      if (!scope.email) return;
      const text = sql<string>`lower(content || coalesce(metadata, ''))`;
      const rows = await db
        .selectFrom('chat_messages')
        .select(['session_id', 'content', 'metadata'])
        .where((eb) =>
          eb.or(
            mentionPatterns(scope.email as string).map((p) =>
              eb(text, 'like', sql<string>`${p} escape '\\'`),
            ),
          ),
        )
        .execute();
      scope.add(
        LINKED.chatSession,
        rows
          .filter((r) => mentionsAddress(`${r.content}\n${r.metadata ?? ''}`, scope.email as string))
          .map((r) => r.session_id),
      );
    },

    async export(db, scope) {
      const sessions = [];
      for (const chunk of inChunks(scope.ids(LINKED.chatSession))) {
        const rows = await db
          .selectFrom('chat_messages')
          .select(['session_id', 'role', 'content', 'metadata', 'created_at'])
          .where('session_id', 'in', chunk)
          .orderBy('created_at')
          .orderBy('id')
          .execute();
        for (const id of chunk) {
          const messages = rows
            .filter((r) => r.session_id === id)
            .map((r) => ({
              role: r.role,
              content: r.content,
              metadata: r.metadata ? (JSON.parse(r.metadata) as unknown) : null,
              createdAt: new Date(Number(r.created_at)).toISOString(),
            }));
          if (messages.length > 0) sessions.push({ sessionId: id, messages });
        }
      }
      return { chatSessions: sessions };
    },

    async erase(tx, scope) {
      let chatMessages = 0;
      for (const chunk of inChunks(scope.ids(LINKED.chatSession))) {
        const deleted = await tx
          .deleteFrom('chat_messages')
          .where('session_id', 'in', chunk)
          .executeTakeFirst();
        chatMessages += Number(deleted.numDeletedRows);
      }
      for (const chunk of inChunks(scope.ids(MESSAGE))) {
        const deleted = await tx.deleteFrom('chat_messages').where('id', 'in', chunk).executeTakeFirst();
        chatMessages += Number(deleted.numDeletedRows);
      }
      return { chatMessages };
    },

    retention: [
      {
        kind: 'chat messages',
        variable: 'RETENTION_CHAT_DAYS',
        days: config.privacy.retentionDays.chat,
        async expired(db, before, scope, limit) {
          const rows = await db
            .selectFrom('chat_messages')
            .select('id')
            .where('created_at', '<', before)
            .limit(limit)
            .execute();
          scope.add(
            MESSAGE,
            rows.map((r) => r.id),
          );
        },
      },
    ],
  };
}
