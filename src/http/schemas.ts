import { z } from '@hono/zod-openapi';

/** An optional trimmed string of at most `max` characters; empty, null or missing becomes undefined. */
export const optionalText = (max: number, description: string, example?: string) =>
  z
    .string()
    .trim()
    .max(max, `must be at most ${max} characters`)
    .nullish()
    .transform((v) => (v ? v : undefined))
    .openapi({ description, example });

/** A required trimmed, non-empty string of at most `max` characters. */
export const requiredText = (max: number, description: string, example: string) =>
  z
    .string()
    .trim()
    .min(1, 'is required')
    .max(max, `must be at most ${max} characters`)
    .openapi({ description, example });
