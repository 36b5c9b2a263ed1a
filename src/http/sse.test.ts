import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { sseResponse } from './sse.ts';

describe('sseResponse', () => {
  it('a stream opened after shutdown began starts aborted, so its producer ends at once', async () => {
    let abortedAtStart: boolean | undefined;
    const app = new Hono().get('/stream', (c) =>
      sseResponse(
        c,
        async (writer) => {
          abortedAtStart = writer.signal.aborted;
        },
        { shutdownSignal: AbortSignal.abort() },
      ),
    );
    const res = await app.request('/stream');
    await res.text();
    expect(abortedAtStart).toBe(true);
  });
});
