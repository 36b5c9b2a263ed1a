import { randomFillSync } from 'node:crypto';

/**
 * W3C Trace Context (https://www.w3.org/TR/trace-context/): the `traceparent` header read and written,
 * `tracestate` carried along. Nothing here knows OpenTelemetry: the default path uses these alone.
 */

/** Where a span sits in a trace: what a `traceparent` header says. */
export interface SpanContext {
  /** 32 lower-case hex digits, not all zero. */
  readonly traceId: string;
  /** 16 lower-case hex digits, not all zero. */
  readonly spanId: string;
  /** The `sampled` flag: whether the caller (or we) record this trace. */
  readonly sampled: boolean;
  /** The caller's `tracestate`, passed on unchanged. */
  readonly traceState?: string;
}

const HEX_LOWER = /^[0-9a-f]+$/;
const ZEROS = /^0+$/;
/** `version-traceid-parentid-flags` of version 00. */
const VERSION_00_LENGTH = 55;
/** The spec's bound on `tracestate` (32 members of up to 256 characters would be more). */
const MAX_TRACE_STATE_LENGTH = 512;
/** tracestate list members: printable ASCII, no control characters. */
const TRACE_STATE = /^[\x20-\x7e]*$/;

/**
 * The parent of an incoming request, or null when `traceparent` is missing or invalid (the request
 * then starts a new trace, as the spec says, and `tracestate` is dropped with it). Valid: a version
 * of two lower-case hex digits other than `ff`; for version 00 exactly 55 characters, for a later
 * version at least that and a `-` after them (fields added by future versions are ignored); a trace
 * id of 32 and a parent id of 16 lower-case hex digits, neither all zero; two hex digits of flags.
 * Two `traceparent` headers (which Node joins with a comma) are invalid.
 */
export function parseTraceparent(
  traceparent: string | null | undefined,
  tracestate?: string | null,
): SpanContext | null {
  if (!traceparent || traceparent.length < VERSION_00_LENGTH) return null;
  const version = traceparent.slice(0, 2);
  if (!HEX_LOWER.test(version) || version === 'ff') return null;
  if (
    version === '00'
      ? traceparent.length !== VERSION_00_LENGTH
      : traceparent[VERSION_00_LENGTH] !== undefined && traceparent[VERSION_00_LENGTH] !== '-'
  ) {
    return null;
  }
  if (traceparent[2] !== '-' || traceparent[35] !== '-' || traceparent[52] !== '-') return null;
  const traceId = traceparent.slice(3, 35);
  const spanId = traceparent.slice(36, 52);
  const flags = traceparent.slice(53, 55);
  if (!HEX_LOWER.test(traceId) || ZEROS.test(traceId)) return null;
  if (!HEX_LOWER.test(spanId) || ZEROS.test(spanId)) return null;
  if (!HEX_LOWER.test(flags)) return null;
  const sampled = (Number.parseInt(flags, 16) & 1) === 1;
  const traceState =
    tracestate && tracestate.length <= MAX_TRACE_STATE_LENGTH && TRACE_STATE.test(tracestate)
      ? tracestate
      : undefined;
  return traceState === undefined ? { traceId, spanId, sampled } : { traceId, spanId, sampled, traceState };
}

/** The `traceparent` header (version 00) naming `span` as the parent. */
export function formatTraceparent(span: SpanContext): string {
  return `00-${span.traceId}-${span.spanId}-${span.sampled ? '01' : '00'}`;
}

/** The headers that carry `span` to an outside service. */
export function traceHeaders(span: SpanContext): Record<string, string> {
  const headers: Record<string, string> = { traceparent: formatTraceparent(span) };
  if (span.traceState) headers.tracestate = span.traceState;
  return headers;
}

/** A new trace id: 32 random hex digits (never all zero). */
export function newTraceId(): string {
  const id = randomHex(16);
  return id === ZERO_TRACE_ID ? newTraceId() : id;
}

/** A new span id: 16 random hex digits (never all zero). */
export function newSpanId(): string {
  const id = randomHex(8);
  return id === ZERO_SPAN_ID ? newSpanId() : id;
}

const ZERO_TRACE_ID = '0'.repeat(32);
const ZERO_SPAN_ID = '0'.repeat(16);

/**
 * Random bytes are drawn from a pool that crypto refills when it runs out: one hex conversion of a
 * slice per id, about 0.1 µs (per-id `randomBytes`, or `Math.random().toString(16)` pieces as some
 * tracers do, cost over 1.5 µs, a tenth of a small request).
 */
const POOL_BYTES = 8192;
const pool = Buffer.allocUnsafe(POOL_BYTES);
let used = POOL_BYTES;

function randomHex(bytes: number): string {
  if (used + bytes > POOL_BYTES) {
    randomFillSync(pool);
    used = 0;
  }
  const hex = pool.toString('hex', used, used + bytes);
  used += bytes;
  return hex;
}
