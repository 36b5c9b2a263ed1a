import busboy from 'busboy';
import { describe, expect, it } from 'vitest';
import { multipartBoundary, multipartPartCounter } from './multipart-parts.ts';

const part = (disposition: string, body = 'x') =>
  `--B\r\nContent-Disposition: form-data; ${disposition}\r\n\r\n${body}\r\n`;

/** Parts busboy reports with an event, for the same bytes. */
function busboyEvents(body: string): Promise<number> {
  return new Promise((resolve) => {
    let events = 0;
    const parser = busboy({ headers: { 'content-type': 'multipart/form-data; boundary=B' } });
    parser.on('field', () => events++);
    parser.on('file', (_name, stream) => {
      events++;
      stream.resume();
    });
    parser.on('close', () => resolve(events));
    parser.end(Buffer.from(body, 'latin1'));
  });
}

/** The count for `body` fed in two pieces split at every offset, and in one-byte pieces. */
function countsOverSplits(body: string): Set<number> {
  const bytes = Buffer.from(body, 'latin1');
  const counts = new Set<number>();
  for (let at = 0; at <= bytes.length; at++) {
    const counter = multipartPartCounter('B');
    counter.push(bytes.subarray(0, at));
    counter.push(bytes.subarray(at));
    counts.add(counter.parts);
  }
  const byteByByte = multipartPartCounter('B');
  for (const byte of bytes) byteByByte.push(Uint8Array.of(byte));
  counts.add(byteByByte.parts);
  return counts;
}

describe('multipartPartCounter', () => {
  it.each([
    ['two fields', `${part('name="a"')}${part('name="b"')}--B--\r\n`, 2, 2],
    ['a preamble', `junk\r\n--B-not-a-delimiter\r\n${part('name="a"')}--B--\r\n`, 1, 1],
    ['an epilogue that looks like parts', `${part('name="a"')}--B--\r\n${part('name="b"')}`, 1, 1],
    ['a delimiter-like line inside a value', `${part('name="a"', 'x\r\n--Bx\r\n--B-')}--B--\r\n`, 1, 1],
    [
      'a part busboy drops (undecodable filename*)',
      `${part('name="f"; filename*=x-bogus\'\'a.png')}--B--\r\n`,
      1,
      0,
    ],
    ['a part with no Content-Disposition', '--B\r\nContent-Type: text/plain\r\n\r\nx\r\n--B--\r\n', 1, 0],
  ])('%s: the same count wherever the chunks split', async (_case, body, expected, events) => {
    expect(countsOverSplits(body)).toEqual(new Set([expected]));
    expect(await busboyEvents(body)).toBe(events);
  });
});

describe('multipartBoundary', () => {
  it('reads a quoted or a bare boundary', () => {
    expect(multipartBoundary('multipart/form-data; boundary=abc')).toBe('abc');
    expect(multipartBoundary('multipart/form-data; charset=utf-8; boundary="a b:c"')).toBe('a b:c');
    expect(multipartBoundary('multipart/form-data')).toBeNull();
  });
});
