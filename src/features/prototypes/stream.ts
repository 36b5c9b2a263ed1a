import type { SseWriter } from '../../http/sse.ts';
import { errorPayload, limitsOf, type PrototypeContext } from './generation.ts';
import type { PrototypeLead } from './lead-port.ts';
import { ensureForStream, PrototypeRefusal } from './service.ts';
import { eventsAfter, isStale, latestAttempt, seqBeforeAttempt } from './store.ts';

/** `Last-Event-ID` (or `?lastEventId=`) as a sequence number; anything else means "from the start". */
export function parseLastEventId(value: string | undefined | null): number | null {
  if (!value || !/^\d{1,12}$/.test(value.trim())) return null;
  return Number(value.trim());
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * generate-stream: replays the stored events after the client's last id and follows new ones as the
 * generation (running in this or any other instance) writes them, until `complete` or a final
 * `error`. Starts or restarts the generation when there is none or it failed or went stale. The
 * stream only reads: a client that goes away stops the reading, never the generation.
 */
export async function followGeneration(
  ctx: PrototypeContext,
  lead: PrototypeLead,
  writer: SseWriter,
  lastEventId: number | null,
): Promise<void> {
  const limits = limitsOf(ctx);
  const ensure = async () => {
    try {
      return await ensureForStream(ctx, lead);
    } catch (error) {
      if (!(error instanceof PrototypeRefusal) || error.reason !== 'quota') throw error;
      await writer.send('error', errorPayload(null, lead.id, lead.language, 'RATE_LIMITED', false));
      return null;
    }
  };
  const attempt = await ensure();
  if (!attempt) return;
  let cursor = lastEventId ?? (await seqBeforeAttempt(ctx.db, attempt.id));
  const deadline = Date.now() + limits.streamMaxMs;
  let idlePolls = 0;
  while (!writer.signal.aborted && Date.now() < deadline) {
    const events = await eventsAfter(ctx.db, lead.id, cursor);
    for (const event of events) {
      const data = JSON.parse(event.data) as { retrying?: boolean };
      if (!(await writer.send(event.event, data, String(event.seq)))) return;
      cursor = event.seq;
      if (event.event === 'complete' || (event.event === 'error' && data.retrying === false)) return;
    }
    if (events.length > 0) {
      idlePolls = 0;
      continue;
    }
    if (idlePolls++ % 5 === 0) {
      const latest = await latestAttempt(ctx.db, lead.id);
      if (latest?.status === 'completed') {
        // Resumed after the end (the client has the `complete` event), unless it was just written.
        if ((await eventsAfter(ctx.db, lead.id, cursor, 1)).length === 0) return;
        continue;
      }
      if (latest && isStale(latest, Date.now(), limits.staleAfterMs)) {
        // Its instance died: take over (the lead still holds its quota while generating).
        lead.status = (await ctx.leads.get(lead.id))?.status ?? lead.status;
        if (!(await ensure())) return;
        continue;
      }
    }
    await sleep(limits.streamPollMs, writer.signal);
  }
}
