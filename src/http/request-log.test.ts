import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../logger.ts';
import { type RequestRecord, requestLineWriter } from './request-log.ts';

/** Lines written to a destination, with pino's epoch time made fixed so two writers compare equal. */
function capture() {
  const raw: string[] = [];
  return {
    raw,
    stream: { write: (line: string) => raw.push(line) },
    timeless: () => raw.map((line) => line.replace(/"time":\d+/, '"time":0')),
  };
}

const records: [RequestRecord, number][] = [
  [{ requestId: 'a1b2', method: 'GET', route: '/health', status: 200, startedAt: 0 }, 0.12],
  [
    {
      requestId: '6f1c8a52-3a0f-4a8e-9a43-0c7c1a4e5d10',
      method: 'POST',
      route: null,
      status: 404,
      startedAt: 0,
    },
    12,
  ],
  [{ requestId: 'x', method: 'DELETE', route: '/docs/assets/:file{[a-z.-]+}', status: 405, startedAt: 0 }, 0],
  [{ requestId: 'Z._-9', method: 'PATCH', route: '/api/leads/:id', status: 500, startedAt: 0 }, 1234.5],
  // Never produced by resolveRequestId, but a caller passing one must not break the line.
  [{ requestId: 'a"b\\c\r\n{', method: 'GET', route: '/health', status: 200, startedAt: 0 }, 1],
];

describe('request line: the template writes what pino writes', () => {
  it('same bytes as logger.info for the service logger (base, epoch time)', () => {
    const viaPino = capture();
    const viaTemplate = capture();
    const pinoLogger = createLogger('info', viaPino.stream);
    const write = requestLineWriter(createLogger('info', viaTemplate.stream));
    for (const [{ requestId, method, route, status }, durationMs] of records) {
      pinoLogger.info({ requestId, method, route, status, durationMs }, 'request');
    }
    for (const [record, durationMs] of records) write(record, durationMs);
    expect(viaTemplate.raw).toHaveLength(records.length);
    expect(viaTemplate.timeless()).toEqual(viaPino.timeless());
    for (const line of viaTemplate.raw) expect(JSON.parse(line)).toMatchObject({ level: 30, msg: 'request' });
  });

  it('same bytes for a child logger with its own bindings and a renamed message key', () => {
    const viaPino = capture();
    const viaTemplate = capture();
    const options = { base: { service: 's', pid: 1 }, messageKey: 'message' };
    const pinoLogger = pino(options, viaPino.stream).child({ component: 'edge "q"' });
    const write = requestLineWriter(pino(options, viaTemplate.stream).child({ component: 'edge "q"' }));
    const [record, durationMs] = records[0]!;
    pinoLogger.info({ ...record, startedAt: undefined, durationMs }, 'request');
    write(record, durationMs);
    expect(viaTemplate.timeless()).toEqual(viaPino.timeless());
  });

  it('follows the level: nothing below it, and a later level change is seen', () => {
    const out = capture();
    const logger = createLogger('warn', out.stream);
    const write = requestLineWriter(logger);
    write(records[0]![0], 1);
    expect(out.raw).toEqual([]);
    logger.level = 'info';
    write(records[0]![0], 1);
    expect(out.raw).toHaveLength(1);
  });

  it('redaction, serializers of its fields and a logMethod hook: the line still is what pino writes', () => {
    const configs: pino.LoggerOptions[] = [
      { redact: ['requestId'] },
      { serializers: { route: (route: string) => `route:${route}` } },
      { messageKey: 'message', serializers: { message: () => 'changed' } },
      {
        hooks: {
          logMethod(args, method) {
            method.apply(this, [{ ...(args[0] as object), hooked: true }, ...args.slice(1)] as never);
          },
        },
      },
    ];
    for (const options of configs) {
      const viaPino = capture();
      const viaTemplate = capture();
      const [record, durationMs] = records[0]!;
      const { requestId, method, route, status } = record;
      pino(options, viaPino.stream).info({ requestId, method, route, status, durationMs }, 'request');
      requestLineWriter(pino(options, viaTemplate.stream))(record, durationMs);
      expect(viaTemplate.timeless(), JSON.stringify(Object.keys(options))).toEqual(viaPino.timeless());
    }
  });

  it('a logger whose lines pino reshapes (mixin, formatters) is written through pino', () => {
    const out = capture();
    const logger = pino(
      { mixin: () => ({ instance: 'i-1' }), formatters: { level: (label) => ({ level: label }) } },
      out.stream,
    );
    requestLineWriter(logger)(records[0]![0], 1);
    expect(JSON.parse(out.raw[0]!)).toMatchObject({ instance: 'i-1', level: 'info', route: '/health' });
  });
});
