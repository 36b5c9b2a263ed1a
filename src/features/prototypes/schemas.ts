import { z } from '@hono/zod-openapi';
import { PROTOTYPE_LIMITS } from './limits.ts';

/** No lead id is longer (they are UUIDs); a longer one is refused before any lookup. */
export const LEAD_ID_MAX_LENGTH = 128;

export const LeadIdParams = z.object({
  id: z
    .string()
    .min(1)
    .max(LEAD_ID_MAX_LENGTH)
    // Lead ids are UUIDs, written lower-case; a UUID is the same id in either case.
    .transform((id) => id.toLowerCase())
    .openapi({
      param: { name: 'id', in: 'path' },
      description: 'The lead id (UUID)',
      example: '7f9c2b1e-1d4a-4a8e-9a57-0c1b9a3f5e21',
    }),
});

export const StartGenerationResponse = z
  .object({
    success: z.literal(true),
    status: z
      .literal('started')
      .openapi({ description: 'Always `started`: the generation runs (or already ran) in the background.' }),
    generatedAt: z.string().openapi({
      description: 'When the running attempt started (ISO 8601).',
      example: '2026-11-21T10:15:30.000Z',
    }),
    previewUrl: z
      .string()
      .openapi({ example: 'https://api.example.com/api/leads/7f9c2b1e-1d4a-4a8e-9a57-0c1b9a3f5e21/preview' }),
    leadId: z.string(),
    attempt: z
      .number()
      .int()
      .openapi({ description: 'The attempt number (1 for the first generation of this lead).', example: 1 }),
    alreadyRunning: z.boolean().openapi({
      description: 'True when a generation was already running and is returned instead of starting another.',
    }),
  })
  .openapi('StartGenerationResponse');

export const GenerationResult = z
  .object({
    success: z.literal(true),
    status: z.literal('completed'),
    leadId: z.string(),
    attempt: z.number().int(),
    generator: z.string().openapi({ description: '`builtin`, `llm` or `v0`', example: 'builtin' }),
    generatedAt: z.string().openapi({ description: 'When the attempt started (ISO 8601).' }),
    completedAt: z.string().nullable(),
    previewUrl: z.string(),
    documentUrl: z
      .string()
      .nullable()
      .openapi({ description: 'The generated HTML document (served sandboxed); null for a hosted demo.' }),
    demoUrl: z
      .string()
      .nullable()
      .openapi({ description: 'The v0 demo URL, when the v0 generator made it.' }),
  })
  .openapi('PrototypeGenerationResult');

export const STREAM_DESCRIPTION = [
  'A `text/event-stream` of the lead’s prototype generation. Each event has an `id:` (the lead’s event',
  'sequence number); reconnecting with `Last-Event-ID` (or `?lastEventId=`) resumes after it, on any instance,',
  'because progress lives in the database. Without one, the stream replays the current attempt from its start.',
  'The stream starts a generation when there is none yet, and restarts one that failed or went stale (no',
  `progress or heartbeat for ${PROTOTYPE_LIMITS.staleAfterMs / 1000} s). It ends after \`complete\` or a final \`error\`;`,
  `a \`: ping\` comment comes every 15 s; after ${PROTOTYPE_LIMITS.streamMaxMs / 60000} minutes the server closes it (reconnect to resume).`,
  'A client that disconnects does not stop the generation. Events:',
  '',
  '- `progress` `{leadId, attempt, step, percent, message, at}` — `step` is `queued`, `analysing`, `generating` or',
  '  `rendering`; `percent` 0–99 never decreases within an attempt; `message` is in the lead’s language.',
  '- `complete` `{leadId, attempt, status: "completed", generator, kind, previewUrl, documentUrl, demoUrl, completedAt, message}`',
  '  — `documentUrl` is the generated document (null for a v0 demo), `demoUrl` the v0 demo (null otherwise).',
  '- `error` `{leadId, attempt, code, message, retrying}` — `code` is `GENERATION_FAILED`, `RATE_LIMITED` (monthly',
  '  quota reached when a restart was needed) or `STREAM_FAILED` (the stream itself failed; the lead was enqueued to',
  '  PrototypeQueue). `retrying: true` means PrototypeQueue will try again: keep listening; `false` ends the stream.',
].join('\n');
