import { z } from '@hono/zod-openapi';
import { ApiError } from '../../../http/errors.ts';
import { PrototypeRefusal } from '../service.ts';

const ErrorBody = z.object({
  success: z.literal(false),
  error: z.object({ code: z.string(), message: z.string(), requestId: z.string() }),
});
export const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: ErrorBody } },
});
export const leadErrors = {
  404: errorResponse('`NOT_FOUND`: no lead has this id'),
  409: errorResponse('`CONFLICT`: the lead is classified spam or vendor, or did not ask for a prototype'),
};

/** A refusal from the logic as the HTTP error the contract names. */
export function toApiError(error: unknown): unknown {
  if (!(error instanceof PrototypeRefusal)) return error;
  if (error.reason === 'not_found') return new ApiError('NOT_FOUND', error.message);
  if (error.reason === 'quota' && error.quota) {
    return new ApiError('RATE_LIMITED', error.message, {
      headers: { 'Retry-After': String(error.quota.retryAfterSeconds) },
      details: { resetDate: error.quota.resetDate, limit: error.quota.limit },
    });
  }
  return new ApiError('CONFLICT', error.message);
}
