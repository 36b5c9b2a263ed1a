import { describe, expect, it } from 'vitest';
import { formatTraceparent, newSpanId, newTraceId, parseTraceparent, traceHeaders } from './trace-context.ts';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT = '00f067aa0ba902b7';

describe('traceparent (W3C Trace Context)', () => {
  it('reads a valid header: ids, the sampled flag, and tracestate with it', () => {
    expect(parseTraceparent(`00-${TRACE}-${PARENT}-01`)).toEqual({
      traceId: TRACE,
      spanId: PARENT,
      sampled: true,
    });
    expect(parseTraceparent(`00-${TRACE}-${PARENT}-00`, 'congo=t61rcWkgMzE')).toEqual({
      traceId: TRACE,
      spanId: PARENT,
      sampled: false,
      traceState: 'congo=t61rcWkgMzE',
    });
    // Flags other than `sampled` are kept out of the decision: 0x03 is sampled, 0x02 is not.
    expect(parseTraceparent(`00-${TRACE}-${PARENT}-03`)?.sampled).toBe(true);
    expect(parseTraceparent(`00-${TRACE}-${PARENT}-02`)?.sampled).toBe(false);
  });

  it('reads a later version by its first four fields, ignoring what that version added', () => {
    expect(parseTraceparent(`cc-${TRACE}-${PARENT}-01-what-the-future-will-be-like`)).toMatchObject({
      traceId: TRACE,
      spanId: PARENT,
    });
    expect(parseTraceparent(`cc-${TRACE}-${PARENT}-01`)).toMatchObject({ traceId: TRACE });
    // …but a later version still needs a `-` right after the flags.
    expect(parseTraceparent(`cc-${TRACE}-${PARENT}-01x`)).toBeNull();
  });

  it('ignores every invalid header (a new trace starts), and the tracestate with it', () => {
    for (const header of [
      undefined,
      '',
      `00-${TRACE}-${PARENT}-01 `, // version 00 is exactly 55 characters
      `00-${TRACE}-${PARENT}-01-extra`,
      `ff-${TRACE}-${PARENT}-01`, // version ff is invalid
      `0g-${TRACE}-${PARENT}-01`,
      `00-${TRACE.toUpperCase()}-${PARENT}-01`, // lower-case hex only
      `00-${TRACE}-${PARENT.toUpperCase()}-01`,
      `00-${'0'.repeat(32)}-${PARENT}-01`, // all-zero ids
      `00-${TRACE}-${'0'.repeat(16)}-01`,
      `00-${TRACE}-${PARENT}-0x`,
      `00_${TRACE}-${PARENT}-01`,
      `00-${TRACE.slice(1)}0-${PARENT.slice(1)}-01-`,
      `00-${TRACE}-${PARENT}-01, 00-${TRACE}-${PARENT}-01`, // two headers, joined by Node
    ]) {
      expect(parseTraceparent(header, 'congo=t61rcWkgMzE'), String(header)).toBeNull();
    }
  });

  it('drops a tracestate that is too long or holds control characters, keeping the parent', () => {
    expect(parseTraceparent(`00-${TRACE}-${PARENT}-01`, `a=${'x'.repeat(600)}`)).not.toHaveProperty(
      'traceState',
    );
    expect(parseTraceparent(`00-${TRACE}-${PARENT}-01`, 'a=b\u0001')).not.toHaveProperty('traceState');
  });

  it('writes version 00, and what it writes reads back', () => {
    const span = { traceId: newTraceId(), spanId: newSpanId(), sampled: true, traceState: 'k=v' };
    expect(formatTraceparent(span)).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    expect(parseTraceparent(formatTraceparent(span), 'k=v')).toEqual(span);
    expect(traceHeaders(span)).toEqual({ traceparent: formatTraceparent(span), tracestate: 'k=v' });
    expect(traceHeaders({ ...span, traceState: undefined, sampled: false })).toEqual({
      traceparent: `00-${span.traceId}-${span.spanId}-00`,
    });
  });

  it('makes ids of the right form, never all zero, and different each time', () => {
    const ids = Array.from({ length: 1000 }, () => [newTraceId(), newSpanId()] as const);
    for (const [trace, span] of ids) {
      expect(trace).toMatch(/^[0-9a-f]{32}$/);
      expect(span).toMatch(/^[0-9a-f]{16}$/);
    }
    expect(new Set(ids.map(([trace]) => trace)).size).toBe(1000);
  });
});
