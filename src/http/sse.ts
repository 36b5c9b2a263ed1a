import type { Context } from 'hono';
import { type SSEStreamingApi, streamSSE } from 'hono/streaming';

export const SSE_PING_INTERVAL_MS = 15_000;

export interface SseWriter {
  /** Sends one event; `data` is JSON-encoded. Resolves false once the client has gone. */
  send(event: string, data: unknown, id?: string): Promise<boolean>;
  /** Aborted when the client disconnects or the server shuts down. */
  readonly signal: AbortSignal;
  readonly stream: SSEStreamingApi;
}

/**
 * The one way the service streams server-sent events: proper headers for proxies
 * (`Cache-Control: no-store`, `X-Accel-Buffering: no`), a `: ping` comment every 15 s, an `error`
 * event with `{message}` when the producer throws, and the stream closed in every case. `no-store`
 * rather than Hono's `no-cache`: every stream carries a person's conversation or their prototype's
 * progress, which no cache may keep (docs/privacy.md).
 */
export function sseResponse(
  c: Context,
  produce: (writer: SseWriter) => Promise<void>,
  options: { pingIntervalMs?: number; shutdownSignal?: AbortSignal; onError?: (error: unknown) => void } = {},
): Response {
  c.header('X-Accel-Buffering', 'no');
  const response = streamSSE(c, async (stream) => {
    const controller = new AbortController();
    const abort = () => controller.abort();
    stream.onAbort(abort);
    options.shutdownSignal?.addEventListener('abort', abort, { once: true });
    // A request that arrives once shutdown has begun: its listener would never fire.
    if (options.shutdownSignal?.aborted) abort();
    const ping = setInterval(() => {
      if (!stream.closed && !stream.aborted) void stream.write(': ping\n\n').catch(abort);
    }, options.pingIntervalMs ?? SSE_PING_INTERVAL_MS);
    const writer: SseWriter = {
      signal: controller.signal,
      stream,
      async send(event, data, id) {
        if (stream.closed || stream.aborted) return false;
        try {
          await stream.writeSSE({ event, data: JSON.stringify(data), ...(id === undefined ? {} : { id }) });
          return true;
        } catch {
          abort();
          return false;
        }
      },
    };
    try {
      await produce(writer);
    } catch (error) {
      options.onError?.(error);
      await writer.send('error', { message: 'The stream failed; please retry.' });
    } finally {
      clearInterval(ping);
      options.shutdownSignal?.removeEventListener('abort', abort);
    }
  });
  response.headers.set('Cache-Control', 'no-store');
  return response;
}
