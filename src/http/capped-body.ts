import type { Context } from 'hono';
import type { AppEnv } from './env.ts';
import { ApiError } from './errors.ts';

export interface BodyCap {
  maxBytes: number;
  /** The message of the 413 for a body over `maxBytes`. */
  tooLargeMessage: string;
}

/**
 * Reads the request body, refusing more than `maxBytes` (a declared Content-Length before reading,
 * a chunked body as it arrives). On the Node server it reads the socket's IncomingMessage directly:
 * for a hot route excluded from the app-wide body limit, whose Web-stream wrapping costs more than
 * the rest of the request (analytics track). In-process (`app.request`) it reads the Request.
 */
export async function readCappedBody(c: Context<AppEnv>, cap: BodyCap): Promise<Uint8Array> {
  const { maxBytes } = cap;
  // The unread rest of the body makes the connection unusable: tell the client not to reuse it.
  const tooLarge = () =>
    new ApiError('PAYLOAD_TOO_LARGE', cap.tooLargeMessage, { headers: { Connection: 'close' } });
  const declared = Number(c.req.header('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge();
  const incoming = c.env.incoming;
  if (!incoming) {
    const bytes = new Uint8Array(await c.req.arrayBuffer());
    if (bytes.byteLength > maxBytes) throw tooLarge();
    return bytes;
  }
  return new Promise<Uint8Array>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      incoming.off('error', onError);
      incoming.off('aborted', onAborted);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        cleanup();
        incoming.pause();
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
    };
    const onError = (error: Error) => {
      cleanup();
      reject(new ApiError('VALIDATION_ERROR', 'The request body could not be read.', { cause: error }));
    };
    const onAborted = () => onError(new Error('aborted'));
    incoming.on('data', onData);
    incoming.on('end', onEnd);
    incoming.on('error', onError);
    incoming.on('aborted', onAborted);
  });
}
