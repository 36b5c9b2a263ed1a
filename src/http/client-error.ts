import { type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { EdgeServerResponse } from './edge-response.ts';
import { ApiError } from './errors.ts';
import type { PathRules } from './paths.ts';
import { resolveRequestId } from './request-id.ts';

/** Node's own answers to what it refuses before a request reaches the app (unparseable HTTP…). */
const NODE_ANSWERS: Record<string, string> = {
  HPE_HEADER_OVERFLOW: 'HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\n\r\n',
  HPE_CHUNK_EXTENSIONS_OVERFLOW: 'HTTP/1.1 413 Payload Too Large\r\nConnection: close\r\n\r\n',
};
const NODE_BAD_REQUEST = 'HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n';

const TIMEOUT_MESSAGE = 'The request did not arrive in time; send it again.';

/**
 * The response under way on each connection, recorded by the server's request listener: Node's
 * `clientError` event hands over only the socket, and Node keeps its own link from a socket to its
 * response private.
 */
export class ResponsesInFlight {
  readonly #bySocket = new WeakMap<Duplex, ServerResponse>();

  track(request: IncomingMessage, response: ServerResponse): void {
    this.#bySocket.set(request.socket, response);
  }

  /** The socket's response that has not finished yet, if any. */
  of(socket: Duplex): ServerResponse | undefined {
    const response = this.#bySocket.get(socket);
    return response !== undefined && !response.writableFinished ? response : undefined;
  }
}

/**
 * The server's `clientError` handler. A request that outlived the server's `requestTimeout` (its
 * headers were read, its body never finished) is answered like every app answer: in the error envelope
 * of its path as the app routed it, with the request's `X-Request-Id` (the one the edge gave it, i.e.
 * the caller's when sane) and the path's own headers — 408 `REQUEST_TIMEOUT` in the backend envelope,
 * what the AI envelope makes of it under the AI prefix. What is not HTTP at all (a malformed request
 * line or header, headers over 16 KiB) gets Node's own bare answer, as without a handler: it has no
 * route and so no envelope. Nothing is written once a response has started; the connection closes.
 * The status sent is recorded on the request's response (`clientErrorStatus`), so the app logs and
 * counts that request with it (src/http/broken-request.ts).
 */
export function answerClientError(
  logger: Logger,
  options: { paths: PathRules; inFlight: ResponsesInFlight },
) {
  const { paths, inFlight } = options;
  return (error: Error & { code?: string }, socket: Duplex) => {
    const response = inFlight.of(socket);
    if (error.code === 'ECONNRESET' || !socket.writable || response?.headersSent) {
      socket.destroy();
      return;
    }
    // The edge's record of the request (so the answer matches its log line); none when its headers
    // never arrived.
    const edge = response instanceof EdgeServerResponse ? response : undefined;
    if (error.code !== 'ERR_HTTP_REQUEST_TIMEOUT') {
      const bare = NODE_ANSWERS[error.code ?? ''] ?? NODE_BAD_REQUEST;
      if (edge) edge.clientErrorStatus = Number(bare.slice('HTTP/1.1 '.length, 'HTTP/1.1 '.length + 3));
      socket.end(bare);
      return;
    }
    const path = edge?.routedPath ?? '';
    const requestId = edge?.edgeHeaders?.['x-request-id'] ?? resolveRequestId(undefined);
    const answer = paths.errorEnvelopeFor(path)(new ApiError('REQUEST_TIMEOUT', TIMEOUT_MESSAGE), requestId);
    const body = JSON.stringify(answer.body);
    const headers: Record<string, string> = {
      'content-type': 'application/json; charset=UTF-8',
      'content-length': String(Buffer.byteLength(body)),
      'x-request-id': requestId,
      'x-content-type-options': 'nosniff',
      ...paths.headersFor(path),
    };
    for (const name in answer.headers) headers[name.toLowerCase()] = answer.headers[name]!;
    headers.connection = 'close';
    logger.warn(
      { requestId, status: answer.status, reason: error.code },
      'request timed out before it arrived',
    );
    if (edge) edge.clientErrorStatus = answer.status;
    let head = `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? ''}\r\n`;
    for (const name in headers) head += `${name}: ${headers[name]}\r\n`;
    socket.end(`${head}\r\n${body}`);
  };
}
