import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { type ErrorCode, errorEnvelope } from './errors.ts';
import { resolveRequestId } from './request-id.ts';

/** What Node's HTTP server reports below the app, and the envelope each gets. */
const ANSWERS: Record<string, { status: number; code: ErrorCode; message: string }> = {
  ERR_HTTP_REQUEST_TIMEOUT: {
    status: 408,
    code: 'REQUEST_TIMEOUT',
    message: 'The request did not arrive in time; send it again.',
  },
  HPE_HEADER_OVERFLOW: {
    status: 431,
    code: 'VALIDATION_ERROR',
    message: 'The request headers are too large.',
  },
  HPE_CHUNK_EXTENSIONS_OVERFLOW: {
    status: 413,
    code: 'PAYLOAD_TOO_LARGE',
    message: 'The chunk extensions of the request body are too large.',
  },
};
const MALFORMED = {
  status: 400,
  code: 'VALIDATION_ERROR',
  message: 'The request is not valid HTTP.',
} as const;

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  413: 'Payload Too Large',
  431: 'Request Header Fields Too Large',
};

/**
 * The server's `clientError` handler: what Node answers itself (a request that outlived
 * `requestTimeout`, unparseable HTTP, oversized headers) goes out in the backend envelope with an
 * `X-Request-Id`, like every other answer, instead of Node's bare status line. Answered only when
 * nothing of a response was sent on the socket yet; the connection is closed either way.
 */
export function answerClientError(logger: Logger) {
  return (error: Error & { code?: string }, socket: Duplex) => {
    const pending = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (error.code === 'ECONNRESET' || !socket.writable || pending?.headersSent) {
      socket.destroy();
      return;
    }
    const answer = ANSWERS[error.code ?? ''] ?? MALFORMED;
    const requestId = resolveRequestId(undefined);
    const body = JSON.stringify(errorEnvelope(answer.code, answer.message, requestId));
    logger.warn(
      { requestId, status: answer.status, reason: error.code },
      'request refused by the HTTP server',
    );
    socket.end(
      `HTTP/1.1 ${answer.status} ${REASONS[answer.status]}\r\n` +
        'Content-Type: application/json; charset=UTF-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${requestId}\r\n` +
        'X-Content-Type-Options: nosniff\r\n' +
        'Connection: close\r\n\r\n' +
        body,
    );
  };
}
