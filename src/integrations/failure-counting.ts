import { type CompletionRequest, type LlmClient, LlmError } from './llm/llm-client.ts';
import { type PageSpeedEngine, PageSpeedError } from './pagespeed/report.ts';
import type { AgentEvent, AgentQuery, SalesAgent } from './sales-agent/sales-agent.ts';

/** Where a failed call to an outside service is counted (`outbound_errors_total{service}`). */
export interface OutboundFailures {
  recordOutboundError(service: string): void;
}

/**
 * The model client, each failed call (it threw, timed out, or answered nothing usable) counted as
 * `llm`, whichever feature made it and whatever it then did (a 502, the built-in fallback).
 */
export function countingLlmFailures(llm: LlmClient, failures: OutboundFailures): LlmClient {
  // A call the caller cancelled (the visitor left) is no failure of the model.
  const counted = (error: unknown, request: CompletionRequest) => {
    if (error instanceof LlmError && !request.signal?.aborted) failures.recordOutboundError('llm');
    return error;
  };
  return {
    get model() {
      return llm.model;
    },
    async complete(request: CompletionRequest) {
      try {
        return await llm.complete(request);
      } catch (error) {
        throw counted(error, request);
      }
    },
    async *stream(request: CompletionRequest) {
      try {
        yield* llm.stream(request);
      } catch (error) {
        throw counted(error, request);
      }
    },
  };
}

/** The sales-agent backend, each answer that ended in an error event counted as `sales_agent`. */
export function countingAgentFailures(agent: SalesAgent, failures: OutboundFailures): SalesAgent {
  return {
    kind: agent.kind,
    async *ask(query: AgentQuery): AsyncIterable<AgentEvent> {
      for await (const event of agent.ask(query)) {
        if (event.type === 'error') failures.recordOutboundError('sales_agent');
        yield event;
      }
    },
    history: (sessionId, options) => agent.history(sessionId, options),
  };
}

/**
 * PageSpeed Insights, each analysis that failed on Google's side (no answer in time, an invalid key, a
 * quota, a fault) counted as `pagespeed`; not a page that could not be loaded, nor a refused URL.
 */
export function countingPageSpeedFailures(
  engine: PageSpeedEngine,
  failures: OutboundFailures,
): PageSpeedEngine {
  return {
    name: engine.name,
    async analyze(options) {
      try {
        return await engine.analyze(options);
      } catch (error) {
        if (error instanceof PageSpeedError && error.upstream) failures.recordOutboundError('pagespeed');
        throw error;
      }
    },
  };
}
