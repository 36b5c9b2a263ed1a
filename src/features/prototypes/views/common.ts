import { errorResponse } from '../../../http/error-responses.ts';
import { ApiError } from '../../../http/errors.ts';
import { LEAD_ID_MAX_LENGTH } from '../schemas.ts';
import { PrototypeRefusal } from '../service.ts';

export const leadErrors = {
  400: errorResponse(`\`VALIDATION_ERROR\`: an id longer than ${LEAD_ID_MAX_LENGTH} characters`),
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
