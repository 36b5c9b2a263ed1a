import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../logger.ts';
import type { Metrics } from '../metrics.ts';
import { requestLogger } from './request-log.ts';

function capture() {
  const lines: Record<string, unknown>[] = [];
  return { lines, stream: { write: (line: string) => lines.push(JSON.parse(line)) } };
}

function metricsSpy() {
  const observed: unknown[][] = [];
  return {
    observed,
    metrics: { observeRequest: (...args: unknown[]) => observed.push(args) } as unknown as Metrics,
  };
}

describe('the request line', () => {
  it('is one service-logger line with id, method, route, status and duration; the metrics get the same', () => {
    const out = capture();
    const { observed, metrics } = metricsSpy();
    const log = requestLogger({ logger: createLogger('info', out.stream), metrics });
    log({ requestId: 'a1b2', method: 'GET', route: '/health', status: 200, startedAt: performance.now() });
    log({ requestId: 'c3', method: 'POST', route: null, status: 404, startedAt: performance.now() });
    expect(out.lines).toEqual([
      expect.objectContaining({ level: 30, service: 'agency-backend', msg: 'request', requestId: 'a1b2' }),
      expect.objectContaining({ method: 'POST', route: null, status: 404, requestId: 'c3' }),
    ]);
    expect(Object.keys(out.lines[0]!)).toEqual([
      'level',
      'time',
      'service',
      'pid',
      'hostname',
      'requestId',
      'method',
      'route',
      'status',
      'durationMs',
      'msg',
    ]);
    expect(out.lines[0]!.durationMs).toEqual(expect.any(Number));
    // Unmatched paths share one label.
    expect(observed.map((args) => args.slice(0, 3))).toEqual([
      ['GET', '/health', 200],
      ['POST', 'unmatched', 404],
    ]);
  });

  it('follows the level (metrics are still counted), and what the logger is configured with applies', () => {
    const out = capture();
    const { observed, metrics } = metricsSpy();
    const logger = pino(
      { level: 'warn', mixin: () => ({ instance: 'i-1' }), redact: ['requestId'] },
      out.stream,
    );
    const log = requestLogger({ logger, metrics });
    log({ requestId: 'secret-ish', method: 'GET', route: '/health', status: 200, startedAt: 0 });
    expect(out.lines).toEqual([]);
    expect(observed).toHaveLength(1);
    logger.level = 'info';
    log({ requestId: 'secret-ish', method: 'GET', route: '/health', status: 200, startedAt: 0 });
    expect(out.lines).toEqual([
      expect.objectContaining({ instance: 'i-1', requestId: '[Redacted]', route: '/health' }),
    ]);
  });
});
