import { randomUUID } from 'node:crypto';

const SANE_REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** The caller's `X-Request-Id` when it is sane (`[A-Za-z0-9._-]{1,128}`), otherwise a new UUID. */
export function resolveRequestId(incoming: string | undefined): string {
  return incoming && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}
