import type { IncomingHttpHeaders } from 'node:http';
import type { Duplex } from 'node:stream';
import { getPath } from 'hono/utils/url';
import type { Logger } from 'pino';
import type { EdgeHeaders } from './edge-response.ts';
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
  /** The response under way; the edge has put its headers on it once the app took the request. */
  _httpMessage?: { headersSent?: boolean; edgeHeaders?: EdgeHeaders };
  /** The request being read, once its headers are in (Node's HTTP parser). */
  parser?: { incoming?: { url?: string; headers?: IncomingHttpHeaders } | null } | null;
};

/**
 * The path the app would have routed the request target to: @hono/node-server's URL (absolute form
 * taken as is, dot segments resolved), then Hono's `getPath` (percent-decoded), so `/api/%61i/refine`
 * is an AI path and `/api/ai/../contact` is not. A target the adapter would refuse stays as sent.
 */
function routedPath(target: string): string {
  const absolute = target.startsWith('http://') || target.startsWith('https://');
  if (!absolute && !target.startsWith('/')) return target;
  try {
    return getPath({ url: new URL(absolute ? target : `http://localhost${target}`).href } as Request);
  } catch {
    return target;
  }
}

/**
 * The server's `clientError` handler. A request that outlived the server's `requestTimeout` (its
 * headers were read, its body never finished) is answered like every app answer: in the envelope of
 * its path as the app routes it, with the request's `X-Request-Id` (the one the edge gave it, i.e.
 * the caller's when sane) — 408 `REQUEST_TIMEOUT` on backend routes, 400 `invalid_request` under the
 * AI prefix (ai-api.md's table has no 408). What is not HTTP at all (a malformed request line or
 * header, headers over 16 KiB) gets Node's own bare answer, as without a handler: it has no route and
 * so no envelope. Nothing is written once a response has started; the connection closes.
 */
export function answerClientError(logger: Logger, options: { aiPrefix: string }) {
  return (error: Error & { code?: string }, socket: ClientSocket) => {
    if (error.code === 'ECONNRESET' || !socket.writable || socket._httpMessage?.headersSent) {
      socket.destroy();
      return;
    }
    if (error.code !== 'ERR_HTTP_REQUEST_TIMEOUT') {
      const answer = NODE_ANSWERS[error.code ?? ''] ?? NODE_BAD_REQUEST;
      answeredStatus.set(socket, Number(answer.slice('HTTP/1.1 '.length, 'HTTP/1.1 '.length + 3)));
      socket.end(answer);
      return;
    }
    const incoming = socket.parser?.incoming;
    const path = routedPath(incoming?.url ?? '');
    // The id the edge gave the request (so the answer matches its log line), else as the edge would.
    const callerId = incoming?.headers?.['x-request-id'];
    const requestId =
      socket._httpMessage?.edgeHeaders?.['x-request-id'] ??
      resolveRequestId(typeof callerId === 'string' ? callerId : undefined);
    const ai = path.startsWith(options.aiPrefix);
    const status = ai ? 400 : 408;
    const body = JSON.stringify(
      ai
        ? { error: { code: 'invalid_request', message: TIMEOUT_MESSAGE } }
        : errorEnvelope('REQUEST_TIMEOUT', TIMEOUT_MESSAGE, requestId),
    );
    logger.warn({ requestId, status, reason: error.code }, 'request timed out before it arrived');
    answeredStatus.set(socket, status);
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

/**
 * The status this handler wrote on a connection. The request the app was reading there fails with
 * its body broken off; the app's error handler (src/http/broken-request.ts) logs and counts that
 * request with this status, the one the client was sent, instead of a 500.
 */
const answeredStatus = new WeakMap<Duplex, number>();

export function statusAnsweredOn(socket: Duplex): number | undefined {
  return answeredStatus.get(socket);
}
