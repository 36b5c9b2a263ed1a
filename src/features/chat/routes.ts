import { createRoute, z } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { requireJson } from '../../http/body.ts';
import { clientOrigin } from '../../http/client-ip.ts';
import type { AppEnv } from '../../http/env.ts';
import { RATE_LIMIT_HEADERS, RATE_LIMITED_HEADERS } from '../../http/error-responses.ts';
import { createRouter } from '../../http/openapi.ts';
import { rateLimit } from '../../http/rate-limit.ts';
import { requireHeaderSecret } from '../../http/secrets.ts';
import { sseResponse } from '../../http/sse.ts';
import { answerQuestion, type ChatContext, readHistory } from './chat.ts';
import { CHAT_LIMITS } from './limits.ts';
import { ChatHistoryResponse, ChatStreamRequest, HistoryQuery, SessionParams } from './schemas.ts';

export const CHAT_SHUTDOWN_MESSAGE = 'The chat is restarting; please ask your question again in a moment.';
const requireChatKey = requireHeaderSecret('X-Chat-Api-Key', (config) => config.secrets.chat);

/**
 * Questions per client IP per minute (CHAT_RATE_LIMIT): the chat key ships to browsers, so it is no
 * barrier on its own, and every question may cost a model call.
 */
const limitQuestions: MiddlewareHandler<AppEnv> = async function limitQuestions(c, next) {
  const perMinute = c.env.deps.config.chatRateLimitPerMinute;
  if (perMinute === 0) return next();
  return rateLimit({ name: 'chat', limit: perMinute, windowMs: 60_000 })(c, next);
};

const ErrorBody = z.object({
  success: z.literal(false),
  error: z.object({ code: z.string(), message: z.string(), requestId: z.string() }),
});
const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: ErrorBody } },
});
const security = [{ ChatApiKey: [] }];

const limits = CHAT_LIMITS.agent;
const streamRoute = createRoute({
  method: 'post',
  path: '/api/chat/stream',
  tags: ['Chat'],
  summary: 'Ask the sales assistant; the answer streams as server-sent events',
  description:
    'Relays the question to the sales-agent backend (WebSocket protocol v1, see docs/chat.md) or, when ' +
    'none is configured, to the built-in agent, and streams `token` `{content}` events, then one `done` ' +
    '`{content, metadata}` or `error` `{message}`. A `: ping` comment comes every 15 s. Limits: connect ' +
    `${limits.connectTimeoutMs / 1000} s, silence between agent frames ${limits.idleTimeoutMs / 1000} s, ` +
    `whole answer ${limits.maxDurationMs / 1000} s, agent frames ${limits.maxFrameBytes / 1024} KiB, answer ` +
    `${limits.maxAnswerChars} characters; each ends the stream with an \`error\` event. The question and the ` +
    'final answer are stored for the history (best-effort).',
  security,
  middleware: [requireChatKey, limitQuestions, requireJson] as const,
  request: { body: { required: true, content: { 'application/json': { schema: ChatStreamRequest } } } },
  responses: {
    200: {
      description: 'An SSE stream (`text/event-stream`)',
      headers: RATE_LIMIT_HEADERS,
      content: {
        'text/event-stream': {
          schema: z.string().openapi({
            example:
              'event: token\ndata: {"content":"Hello"}\n\nevent: done\ndata: {"content":"Hello","metadata":{}}\n\n',
          }),
        },
      },
    },
    400: errorResponse('`VALIDATION_ERROR`: a field is missing or too long'),
    401: errorResponse('`UNAUTHORIZED`: missing or wrong `X-Chat-Api-Key`'),
    415: errorResponse('`UNSUPPORTED_MEDIA_TYPE`: the body is not JSON'),
    429: {
      ...errorResponse('`RATE_LIMITED`: too many questions from this IP (CHAT_RATE_LIMIT per minute)'),
      headers: RATE_LIMITED_HEADERS,
    },
  },
});

const historyRoute = createRoute({
  method: 'get',
  path: '/api/chat/{sessionId}/history',
  tags: ['Chat'],
  summary: "A chat session's latest messages",
  description:
    "Reads the messages this service stored; when it has none, asks the agent backend for the session's " +
    'history (protocol v1 `history` message, 5 s bound). Messages come oldest first; `total` counts all of ' +
    "the session's messages.",
  security,
  middleware: [requireChatKey] as const,
  request: { params: SessionParams, query: HistoryQuery },
  responses: {
    200: { description: 'The history', content: { 'application/json': { schema: ChatHistoryResponse } } },
    400: errorResponse('`VALIDATION_ERROR`: `limit` is not a whole number from 1 to 200'),
    401: errorResponse('`UNAUTHORIZED`: missing or wrong `X-Chat-Api-Key`'),
  },
});

export function chatRoutes() {
  const router = createRouter();
  router.openAPIRegistry.registerComponent('securitySchemes', 'ChatApiKey', {
    type: 'apiKey',
    in: 'header',
    name: 'X-Chat-Api-Key',
  });
  return router
    .openapi(streamRoute, (c) => {
      const deps = c.env.deps;
      const body = c.req.valid('json');
      const ctx: ChatContext = { db: deps.db, salesAgent: deps.salesAgent, logger: c.env.logger };
      const question = {
        sessionId: body.sessionId,
        query: body.query,
        language: body.language?.trim() || null,
        clientIp: clientOrigin(c, deps.config.trustProxy).ip,
      };
      return sseResponse(
        c,
        async (writer) => {
          let ended = false;
          await answerQuestion(
            ctx,
            question,
            (e) => {
              if (e.event !== 'token') ended = true;
              return writer.send(e.event, e.data);
            },
            writer.signal,
          );
          // Cut short by this instance's shutdown: the visitor still gets the one final event.
          if (!ended && deps.shutdownSignal.aborted) {
            await writer.send('error', { message: CHAT_SHUTDOWN_MESSAGE });
          }
        },
        {
          shutdownSignal: deps.shutdownSignal,
          onError: (error) => c.env.logger.error({ err: error }, 'chat stream failed'),
        },
      );
    })
    .openapi(historyRoute, async (c) => {
      const deps = c.env.deps;
      const { sessionId } = c.req.valid('param');
      const { limit } = c.req.valid('query');
      const history = await readHistory(
        { db: deps.db, salesAgent: deps.salesAgent, logger: c.env.logger },
        { sessionId, limit, clientIp: clientOrigin(c, deps.config.trustProxy).ip, signal: c.req.raw.signal },
      );
      return c.json(history, 200);
    });
}
