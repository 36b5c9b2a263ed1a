import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { errorEnvelope } from './errors.ts';
import { resolveRequestId } from './request-id.ts';

/** Node's own answers to what it refuses before a request reaches the app (unparseable HTTP…). */
const NODE_ANSWERS: Record<string, string> = {
  HPE_HEADER_OVERFLOW: 'HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\n\r\n',
  HPE_CHUNK_EXTENSIONS_OVERFLOW: 'HTTP/1.1 413 Payload Too Large\r\nConnection: close\r\n\r\n',
};
const NODE_BAD_REQUEST = 'HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n';

const TIMEOUT_MESSAGE = 'The request did not arrive in time; send it again.';

type ClientSocket = Duplex & {
  _httpMessage?: { headersSent?: boolean };
  /** The request being read, once its headers are in (Node's HTTP parser). */
  parser?: { incoming?: { url?: string } | null } | null;
};

/**
 * The server's `clientError` handler. A request that outlived the server's `requestTimeout` (its
 * headers were read, its body never finished) is answered like every app answer: in the envelope of
 * its path, with an `X-Request-Id` — 408 `REQUEST_TIMEOUT` on backend routes, 400 `invalid_request`
 * under the AI prefix (ai-api.md's table has no 408). What is not HTTP at all (a malformed request
 * line or header, headers over 16 KiB) gets Node's own bare answer, as without a handler: it has no
 * route and so no envelope. Nothing is written once a response has started; the connection closes.
 */
export function answerClientError(logger: Logger, options: { aiPrefix: string }) {
  return (error: Error & { code?: string }, socket: ClientSocket) => {
    if (error.code === 'ECONNRESET' || !socket.writable || socket._httpMessage?.headersSent) {
      socket.destroy();
      return;
    }
    if (error.code !== 'ERR_HTTP_REQUEST_TIMEOUT') {
      socket.end(NODE_ANSWERS[error.code ?? ''] ?? NODE_BAD_REQUEST);
      return;
    }
    const path = socket.parser?.incoming?.url ?? '';
    const requestId = resolveRequestId(undefined);
    const ai = path.startsWith(options.aiPrefix);
    const status = ai ? 400 : 408;
    const body = JSON.stringify(
      ai
        ? { error: { code: 'invalid_request', message: TIMEOUT_MESSAGE } }
        : errorEnvelope('REQUEST_TIMEOUT', TIMEOUT_MESSAGE, requestId),
    );
    logger.warn({ requestId, status, reason: error.code }, 'request timed out before it arrived');
    socket.end(
      `HTTP/1.1 ${status} ${ai ? 'Bad Request' : 'Request Timeout'}\r\n` +
        'Content-Type: application/json; charset=UTF-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${requestId}\r\n` +
        'X-Content-Type-Options: nosniff\r\n' +
        (ai ? 'Cache-Control: no-store\r\n' : '') +
        'Connection: close\r\n\r\n' +
        body,
    );
  };
}
