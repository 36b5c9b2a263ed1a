import { OpenAPIHono } from '@hono/zod-openapi';
import type { ZodError } from 'zod';
import type { AppEnv } from './env.ts';
import { ApiError } from './errors.ts';

/** A readable one-line summary of a validation failure: `personal.email_address: Invalid email`. */
export function describeZodError(error: ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'The request is invalid.';
  const path = issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  const more = error.issues.length > 1 ? ` (and ${error.issues.length - 1} more problem(s))` : '';
  return `${path}${issue.message}${more}`;
}

/** A feature's sub-app: zod-openapi routes whose validation failures become the backend envelope. */
export function createRouter(): OpenAPIHono<AppEnv> {
  return new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (!result.success) throw new ApiError('VALIDATION_ERROR', describeZodError(result.error));
    },
  });
}
