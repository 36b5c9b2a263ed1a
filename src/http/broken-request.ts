import type { IncomingMessage, ServerResponse } from 'node:http';
import { EdgeServerResponse } from './edge-response.ts';

/**
 * For a request whose body never arrived whole (the client broke it off, or sent it malformed: an
 * invalid chunk, a body stalled past the request timeout), the status the client was sent: Node's
 * `clientError` answer (400, 408 or 413, recorded on the response by client-error.ts), or 400 when
 * the client left without one. Null for a request that arrived whole: its errors are the app's.
 *
 * Whatever the handler then fails with (the body stream's `Error: aborted`) is the client's doing:
 * logged as what it was and counted with the status sent, never as a 500.
 */
export function brokenRequestStatus(
  incoming: IncomingMessage | undefined,
  outgoing: ServerResponse | undefined,
): number | null {
  if (incoming === undefined || incoming.complete) return null;
  if (!incoming.destroyed && incoming.errored === null) return null;
  return (outgoing instanceof EdgeServerResponse ? outgoing.clientErrorStatus : undefined) ?? 400;
}
