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

/**
 * A whole-number query parameter (`page`, `limit`): digits only, then the range. A bare
 * `z.coerce.number()` would also take `0x10`, `1e1`, ` 5` and `5.0`. Above `max` is a 400, or with
 * `cap` the value is capped (a large page size is not an error). Described as the integer it becomes.
 */
export const wholeNumberParam = (options: {
  min: number;
  max: number;
  fallback: number;
  description?: string;
  cap?: boolean;
}) => {
  const { min, max, fallback, description, cap = false } = options;
  const range = z.coerce.number<string>().min(min, `must be at least ${min}`);
  return z
    .string()
    .regex(/^[0-9]+$/, 'must be a whole number')
    .pipe(cap ? range.transform((n) => Math.min(n, max)) : range.max(max, `must be at most ${max}`))
    .default(fallback)
    .openapi({
      param: { in: 'query' },
      type: 'integer',
      minimum: min,
      ...(cap ? {} : { maximum: max }),
      default: fallback,
      description,
      example: fallback,
    });
};
