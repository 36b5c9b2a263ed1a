import { OpenAPIHono } from '@hono/zod-openapi';
import { describeZodError } from '../text/validation-message.ts';
import type { AppEnv } from './env.ts';
import { ApiError } from './errors.ts';

/** A feature's sub-app: zod-openapi routes whose validation failures become the backend envelope. */
export function createRouter(): OpenAPIHono<AppEnv> {
  return new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (!result.success) throw new ApiError('VALIDATION_ERROR', describeZodError(result.error));
    },
  });
}
