import { z } from '@hono/zod-openapi';
import { wholeNumberParam } from '../../http/schemas.ts';
import { CHAT_LIMITS } from './limits.ts';

export const ChatStreamRequest = z
  .object({
    sessionId: z
      .string()
      .min(1)
      .max(CHAT_LIMITS.sessionIdChars)
      .openapi({ description: 'The conversation, chosen by the client', example: 'sess_4f9c2a' }),
    query: z
      .string()
      .max(CHAT_LIMITS.queryChars)
      .refine((value) => value.trim() !== '', { message: 'must not be blank' })
      .openapi({ description: "The visitor's message", example: 'How much does an online store cost?' }),
    language: z
      .string()
      .max(CHAT_LIMITS.languageChars)
      .optional()
      .openapi({ description: "The visitor's language (a BCP 47 tag from the browser)", example: 'en' }),
  })
  .openapi('ChatStreamRequest');

export const SessionParams = z.object({
  sessionId: z
    .string()
    .min(1)
    .max(CHAT_LIMITS.sessionIdChars)
    .openapi({ param: { name: 'sessionId', in: 'path' }, example: 'sess_4f9c2a' }),
});

export const HistoryQuery = z.object({
  limit: wholeNumberParam({
    min: CHAT_LIMITS.history.minLimit,
    max: CHAT_LIMITS.history.maxLimit,
    fallback: CHAT_LIMITS.history.defaultLimit,
    description: `How many of the latest messages (${CHAT_LIMITS.history.minLimit}–${CHAT_LIMITS.history.maxLimit})`,
  }),
});

const HistoryMessage = z
  .object({
    role: z.enum(['user', 'assistant']),
    content: z.string(),
    createdAt: z.string().nullable().openapi({
      description: 'ISO 8601; null when the agent backend did not say',
      example: '2026-11-21T09:00:00.000Z',
    }),
    metadata: z
      .record(z.string(), z.unknown())
      .optional()
      .openapi({ description: "The agent's `done.metadata` (stored assistant messages only)" }),
  })
  .openapi('ChatHistoryMessage');

export const ChatHistoryResponse = z
  .object({
    sessionId: z.string(),
    messages: z.array(HistoryMessage).openapi({ description: 'Oldest first' }),
    total: z.number().int().openapi({ description: 'How many messages the session has in all' }),
  })
  .openapi('ChatHistory');
