import { createRoute, z } from '@hono/zod-openapi';
import { getBlob } from '../../db/blob-store.ts';
import { errorResponses } from '../../http/error-responses.ts';
import { ApiError } from '../../http/errors.ts';
import { createRouter } from '../../http/openapi.ts';
import { requireHeaderSecret } from '../../http/secrets.ts';

/** Where an operator downloads a ticket's file (the personal-data export links each file here). */
export const ticketFilePath = (ticketId: string, position: number) =>
  `/admin/api/support/tickets/${encodeURIComponent(ticketId)}/files/${position}`;

const downloadRoute = createRoute({
  method: 'get',
  path: '/admin/api/support/tickets/{ticketId}/files/{position}',
  operationId: 'downloadTicketFile',
  tags: ['Admin'],
  security: [{ AdminApiKey: [] }],
  summary: "One of a ticket's files, as uploaded (for the operator and the personal-data export)",
  description:
    'Requires `X-Admin-Api-Key`. Sent as an attachment (never rendered by the browser) with the type ' +
    'checked from its bytes at upload, under `Content-Security-Policy: sandbox`.',
  middleware: [requireHeaderSecret('X-Admin-Api-Key', (config) => config.secrets.admin)] as const,
  request: {
    params: z.object({
      ticketId: z.string().max(64).openapi({ example: 'TICKET-20261121-7K2M9Q' }),
      position: z
        .string()
        .regex(/^\d{1,2}$/, 'must be a whole number')
        .transform(Number)
        .openapi({ example: '1' }),
    }),
  },
  responses: {
    200: {
      description: 'The file, with the type its bytes were checked to have at upload (`text/plain` for text)',
      content: { '*/*': { schema: z.string().openapi({ format: 'binary' }) } },
    },
    ...errorResponses({ 400: 'VALIDATION_ERROR', 401: 'UNAUTHORIZED', 404: 'NOT_FOUND' }),
  },
});

/** `filename="…"` for old clients (ASCII only) and `filename*` (RFC 6266) with the real name. */
function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

export function ticketFileRoutes() {
  return createRouter().openapi(downloadRoute, async (c) => {
    const { ticketId, position } = c.req.valid('param');
    const db = c.env.deps.db;
    const file = await db
      .selectFrom('support_attachments')
      .select(['blob_id', 'filename', 'content_type'])
      .where('ticket_id', '=', ticketId)
      .where('position', '=', position)
      .executeTakeFirst();
    const bytes = file ? await getBlob(db, file.blob_id) : null;
    if (!file || !bytes) throw new ApiError('NOT_FOUND', 'This ticket has no such file.');
    return c.body(new Uint8Array(bytes), 200, {
      'Content-Type': file.content_type,
      'Content-Disposition': contentDisposition(file.filename),
      'Content-Security-Policy': "sandbox; default-src 'none'",
      'Cache-Control': 'no-store',
    }) as never;
  });
}
