import pino, { type Logger } from 'pino';
import type { Dependencies } from '../dependencies.ts';

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
 * IP) and the same figures into the Prometheus metrics. Made once per app by the edge.
 */
export function requestLogger(
  deps: Pick<Dependencies, 'logger' | 'metrics'>,
): (request: RequestRecord) => void {
  const writeLine = requestLineWriter(deps.logger);
  return (request) => {
    const { method, route, status } = request;
    const elapsedMs = performance.now() - request.startedAt;
    writeLine(request, Math.round(elapsedMs * 100) / 100);
    // Unmatched paths share one label so scanners cannot blow up the metric's cardinality.
    deps.metrics.observeRequest(method, route ?? 'unmatched', status, elapsedMs / 1000);
  };
}

const {
  chindingsSym,
  endSym,
  formattersSym,
  hooksSym,
  lsCacheSym,
  messageKeySym,
  mixinSym,
  nestedKeySym,
  serializersSym,
  streamSym,
  stringifiersSym,
  timeSym,
} = pino.symbols;

/** The fields of the request line (and its message key): a serializer on any of them reshapes it. */
const LINE_FIELDS = ['requestId', 'method', 'route', 'status', 'durationMs'];

/** What a pino logger keeps for writing a line (`pino.symbols`: what its own serialiser reads). */
interface LoggerInternals {
  chindings: string;
  end: string;
  lsCache: Record<number, string>;
  messageKey: string;
  stream: pino.DestinationStream;
  time: () => string;
}

/** Reads pino's state for the template, or null when the logger reshapes its lines in any way. */
function internalsOf(logger: Logger): LoggerInternals | null {
  const at = logger as unknown as Record<symbol, unknown>;
  const stream = at[streamSym] as (pino.DestinationStream & Record<symbol, unknown>) | undefined;
  const reshaping =
    Boolean(at[mixinSym]) ||
    Boolean(logger.msgPrefix) ||
    Boolean(at[nestedKeySym]) ||
    (at[formattersSym] as { log?: unknown } | undefined)?.log !== undefined ||
    (at[hooksSym] as { streamWrite?: unknown } | undefined)?.streamWrite !== undefined ||
    (at[hooksSym] as { logMethod?: unknown } | undefined)?.logMethod !== undefined ||
    // Redaction installs stringifiers; serializers replace values.
    Reflect.ownKeys((at[stringifiersSym] as object | undefined) ?? {}).length > 0 ||
    [...LINE_FIELDS, at[messageKeySym] as string].some(
      (field) => (at[serializersSym] as Record<string, unknown> | undefined)?.[field] !== undefined,
    ) ||
    stream === undefined ||
    stream[Symbol.for('pino.metadata')] === true;
  // A pino whose internals no longer look like this (a future version) is simply used as it is.
  const known =
    typeof at[chindingsSym] === 'string' &&
    typeof at[endSym] === 'string' &&
    typeof (at[lsCacheSym] as Record<number, unknown> | undefined)?.[logger.levels.values.info!] ===
      'string' &&
    typeof at[messageKeySym] === 'string' &&
    typeof at[timeSym] === 'function';
  if (reshaping || !known) return null;
  return {
    get chindings() {
      return at[chindingsSym] as string;
    },
    end: at[endSym] as string,
    get lsCache() {
      return at[lsCacheSym] as Record<number, string>;
    },
    messageKey: at[messageKeySym] as string,
    stream,
    time: () => (at[timeSym] as () => string).call(logger),
  };
}

/** What `resolveRequestId` lets through: written between quotes as it is. */
const PLAIN_ID = /^[A-Za-z0-9._-]*$/;

/** Keys of which a JSON form is remembered (routes are patterns, methods tokens: few of each). */
const MAX_REMEMBERED_JSON = 256;

/**
 * Writes the request line exactly as `logger.info({requestId, method, route, status, durationMs},
 * 'request')` would (same bytes, same destination, same level check), from a fixed template: pino's
 * generic serialiser (key loop, per-value escaping, message formatting) was the largest part of a
 * small request's CPU after the socket write, ~2.5 µs of ~20 µs on `/health`. The request id is
 * written as it is when it is plain (`resolveRequestId` lets nothing else through; anything else is
 * JSON-escaped, so no caller can break the line); method and route are serialised once each. A
 * logger configured with anything that changes pino's lines (mixin, formatters, hooks, redaction,
 * serializers of these fields, nesting, a message prefix, a stream that wants metadata) goes through
 * pino. A test holds the two outputs equal.
 */
export function requestLineWriter(logger: Logger): (request: RequestRecord, durationMs: number) => void {
  const internals = internalsOf(logger);
  if (internals === null) {
    return ({ requestId, method, route, status }, durationMs) =>
      logger.info({ requestId, method, route, status, durationMs }, 'request');
  }
  const info = logger.levels.values.info!;
  const jsonOf = new Map<string | null, string>();
  const json = (value: string | null) => {
    let text = jsonOf.get(value);
    if (text === undefined) {
      text = JSON.stringify(value);
      if (jsonOf.size < MAX_REMEMBERED_JSON) jsonOf.set(value, text);
    }
    return text;
  };
  const ending = `,${JSON.stringify(internals.messageKey)}:"request"${internals.end}`;
  const { stream } = internals;
  return ({ requestId, method, route, status }, durationMs) => {
    if (logger.levelVal > info) return;
    stream.write(
      `${internals.lsCache[info]}${internals.time()}${internals.chindings},"requestId":${PLAIN_ID.test(requestId) ? `"${requestId}"` : JSON.stringify(requestId)},"method":${json(method)},"route":${json(route)},"status":${status},"durationMs":${durationMs}${ending}`,
    );
  };
}
