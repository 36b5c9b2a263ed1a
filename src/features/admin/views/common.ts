import type { z } from '@hono/zod-openapi';
import { errorResponses } from '../../../http/error-responses.ts';
import type { OutboxMessage } from '../../../integrations/mail/index.ts';
import { ADMIN_LIMITS } from '../limits.ts';

/** What every admin API route shares in its documentation and answers. */
export const json = <T extends z.ZodType>(schema: T, description: string) => ({
  200: { description, content: { 'application/json': { schema } } },
});

export const security = [{ AdminApiKey: [] }];
export const tags = ['Admin'];
export const apiErrors = (extra: Record<number, string> = {}) =>
  errorResponses({ 401: 'UNAUTHORIZED: missing or wrong X-Admin-Api-Key', ...extra });

export const previewPath = (id: string) => `/api/leads/${encodeURIComponent(id)}/preview`;
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** An e-mail of the outbox; its text cut to a preview in lists (the lead detail shows it whole). */
export function messageView(m: OutboxMessage, fullText: boolean) {
  return {
    id: m.id,
    idempotencyKey: m.idempotencyKey,
    transport: m.transport,
    status: m.status,
    from: m.from,
    to: m.to,
    cc: m.cc,
    bcc: m.bcc,
    replyTo: m.replyTo,
    subject: m.subject,
    text:
      fullText || m.text.length <= ADMIN_LIMITS.bodyPreview
        ? m.text
        : `${m.text.slice(0, ADMIN_LIMITS.bodyPreview)}…`,
    attachments: m.attachments.map((a) => ({
      filename: a.filename,
      contentType: a.contentType,
      size: a.size,
    })),
    attempts: m.attempts,
    lastError: m.lastError,
    createdAt: new Date(m.createdAt).toISOString(),
    sentAt: iso(m.sentAt),
  };
}
