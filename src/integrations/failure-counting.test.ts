import { describe, expect, it } from 'vitest';
import { countingAgentFailures, countingLlmFailures, countingPageSpeedFailures } from './failure-counting.ts';
import { LlmError } from './llm/llm-client.ts';
import { type PageSpeedEngine, PageSpeedError } from './pagespeed/report.ts';
import type { AgentEvent, SalesAgent } from './sales-agent/sales-agent.ts';

function counter() {
  const counts: Record<string, number> = {};
  return {
    counts,
    recordOutboundError(service: string) {
      counts[service] = (counts[service] ?? 0) + 1;
    },
  };
}

const ask = { messages: [{ role: 'user' as const, content: 'hi' }] };

describe('failed outside calls are counted by service', () => {
  it('the model: a failed completion or stream counts once, another error or a success not at all', async () => {
    const failures = counter();
    let fail: Error | null = new LlmError('boom');
    const llm = countingLlmFailures(
      {
        model: 'm',
        complete: async () => {
          if (fail) throw fail;
          return 'ok';
        },
        async *stream() {
          yield 'a';
          if (fail) throw fail;
        },
      },
      failures,
    );
    expect(llm.model).toBe('m');
    await expect(llm.complete(ask)).rejects.toThrow('boom');
    await expect(
      (async () => {
        for await (const _ of llm.stream(ask));
      })(),
    ).rejects.toThrow('boom');
    const cancelled = new AbortController();
    cancelled.abort();
    await expect(llm.complete({ ...ask, signal: cancelled.signal })).rejects.toThrow('boom');
    fail = new TypeError('a bug, not the model');
    await expect(llm.complete(ask)).rejects.toThrow(TypeError);
    fail = null;
    await expect(llm.complete(ask)).resolves.toBe('ok');
    expect(failures.counts).toEqual({ llm: 2 });
  });

  it('the sales agent: an answer ending in an error event counts, and every event still arrives', async () => {
    const failures = counter();
    const events: AgentEvent[] = [
      { type: 'token', content: 'Hel' },
      { type: 'error', message: 'The agent is unavailable.', reason: 'unavailable' },
    ];
    const agent: SalesAgent = {
      kind: 'websocket',
      async *ask() {
        yield* events;
      },
      history: async () => null,
    };
    const counted = countingAgentFailures(agent, failures);
    const seen: AgentEvent[] = [];
    const query = {
      sessionId: 's',
      query: 'hi',
      language: null,
      clientIp: null,
      signal: new AbortController().signal,
    };
    for await (const event of counted.ask(query)) seen.push(event);
    expect(seen).toEqual(events);
    expect(counted.kind).toBe('websocket');
    await expect(counted.history('s', { limit: 5, clientIp: null })).resolves.toBeNull();
    expect(failures.counts).toEqual({ sales_agent: 1 });
  });

  it('PageSpeed Insights: its own failures count, a page that could not load or a refused URL not', async () => {
    const failures = counter();
    let error: Error = new PageSpeedError('PageSpeed Insights did not answer in time.', { upstream: true });
    const engine: PageSpeedEngine = {
      name: 'pagespeed-insights',
      analyze: async () => {
        throw error;
      },
    };
    const counted = countingPageSpeedFailures(engine, failures);
    const options = { url: 'https://example.com/', strategy: 'mobile' as const };
    await expect(counted.analyze(options)).rejects.toBe(error);
    error = new PageSpeedError('Lighthouse could not load the page (NO_FCP).', { permanent: true });
    await expect(counted.analyze(options)).rejects.toBe(error);
    error = new PageSpeedError('refused', { refused: true, permanent: true });
    await expect(counted.analyze(options)).rejects.toBe(error);
    expect(failures.counts).toEqual({ pagespeed: 1 });
    expect(counted.name).toBe('pagespeed-insights');
  });
});
