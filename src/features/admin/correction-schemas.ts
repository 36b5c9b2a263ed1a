import { z } from '@hono/zod-openapi';

/** What the admin shows of a classification decision and its corrections (leads, support messages). */

export const CLASSES = ['lead', 'spam', 'vendor'] as const;

export const ClassifierScore = z.number().nullable().openapi({
  description:
    "The built-in classifier's probability (0–1) of the class it returned; null when the language model decided or the record predates scores",
  example: 0.93,
});

export const ClassifierReasons = z.array(z.string()).openapi({
  description:
    "What decided, strongest first (the built-in classifier's features, or the model's reason); empty for records stored before reasons were kept",
  example: ['mentions backlinks or link building', 'names link-spam tools'],
});

export const CorrectionSchema = z
  .object({
    at: z.string().openapi({ example: '2026-11-21T09:00:00.000Z' }),
    from: z.enum(CLASSES),
    to: z.enum(CLASSES),
    fromStatus: z.string().openapi({ example: 'spam' }),
    toStatus: z.string().openapi({ example: 'new' }),
    started: z
      .array(z.string())
      .openapi({ description: 'Side effects this correction queued', example: ['confirmation e-mail'] }),
    stopped: z
      .array(z.string())
      .openapi({ description: 'Side effects queued earlier, not run yet, and cancelled', example: [] }),
    kept: z.array(z.string()).openapi({
      description: 'Side effects that had already run and stay (an e-mail sent, a CRM deal created)',
      example: ['CRM deal #1234 (delete it in the CRM if unwanted)'],
    }),
  })
  .openapi('ClassificationCorrection');

/** A stored correction as the API shows it. */
export function correctionView(c: {
  from: (typeof CLASSES)[number];
  to: (typeof CLASSES)[number];
  fromStatus: string;
  toStatus: string;
  effects: { started: string[]; stopped: string[]; kept: string[] };
  createdAt: number;
}): z.infer<typeof CorrectionSchema> {
  return {
    at: new Date(c.createdAt).toISOString(),
    from: c.from,
    to: c.to,
    fromStatus: c.fromStatus,
    toStatus: c.toStatus,
    started: c.effects.started,
    stopped: c.effects.stopped,
    kept: c.effects.kept,
  };
}
