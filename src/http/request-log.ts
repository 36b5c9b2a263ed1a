import type { Infrastructure } from '../infrastructure.ts';

export interface RequestRecord {
  requestId: string;
  method: string;
  /** The matched route pattern, or null when no route answered (404, 405, preflights). */
  route: string | null;
  status: number;
  /** `performance.now()` when the request reached the edge. */
  startedAt: number;
}

/**
 * The one line per request (request id, method, matched route, status, duration; never the client
 * IP), written through the service logger like every other line (so its level, redaction and
 * serializers apply), and the same figures into the Prometheus metrics. Made once per app by the edge.
 */
export function requestLogger(
  deps: Pick<Infrastructure, 'logger' | 'metrics'>,
): (request: RequestRecord) => void {
  const { logger, metrics } = deps;
  return (request) => {
    const { requestId, method, route, status } = request;
    const elapsedMs = performance.now() - request.startedAt;
    logger.info(
      { requestId, method, route, status, durationMs: Math.round(elapsedMs * 100) / 100 },
      'request',
    );
    // Unmatched paths share one label so scanners cannot blow up the metric's cardinality.
    metrics.observeRequest(method, route ?? 'unmatched', status, elapsedMs / 1000);
  };
}
