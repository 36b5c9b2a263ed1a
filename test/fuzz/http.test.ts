/**
 * Hostile input below the router, over raw sockets: header abuse (huge, CR/LF, NUL, bad names), bad
 * Content-Length and Transfer-Encoding, odd request targets and methods, bodies cut short, and a few
 * slow bodies (bounded). Whoever answers (Node's parser or the app): never a 500, the app's answers in
 * their envelope, nothing written for a non-2xx answer, the server healthy after each case.
 */
import { connect } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostileString } from './arbitraries.ts';
import {
  type Answer,
  changes,
  type FuzzServer,
  orphans,
  problemWith,
  snapshot,
  startFuzzServer,
  stopFuzzServer,
  tablesOf,
} from './harness.ts';
import { RAW_RUNS, SEED } from './settings.ts';
import { record, tally } from './tally.ts';

let server: FuzzServer;
let tables: string[];
let port: number;

beforeAll(async () => {
  server = await startFuzzServer('sqlite');
  tables = await tablesOf(server);
  port = new URL(server.url).port ? Number(new URL(server.url).port) : 80;
}, 60_000);
afterAll(async () => {
  console.log(tally('raw http'));
  if (server) await stopFuzzServer(server);
}, 60_000);

/**
 * Writes `parts` (with `delayMs` between them) on a fresh socket, then reads until the server closes
 * or a complete response has arrived, or `waitMs` passes. Null when the server said nothing.
 */
async function raw(
  parts: Array<string | Buffer>,
  options: { delayMs?: number; waitMs?: number; endAfter?: boolean } = {},
) {
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => {});
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  const chunks: Buffer[] = [];
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  for (const part of parts) {
    if (socket.destroyed) break;
    socket.write(part);
    if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
  }
  if (options.endAfter) socket.end();
  const complete = async () => {
    const deadline = Date.now() + (options.waitMs ?? 5000);
    while (Date.now() < deadline && !socket.destroyed) {
      if (parseResponse(Buffer.concat(chunks))?.complete) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  await Promise.race([closed, complete()]);
  socket.destroy();
  const parsed = parseResponse(Buffer.concat(chunks));
  return parsed ? { ...parsed.answer, raw: Buffer.concat(chunks).toString('latin1') } : null;
}

function parseResponse(bytes: Buffer): { answer: Answer; complete: boolean } | null {
  const text = bytes.toString('utf8');
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) return null;
  const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
  const status = Number(statusLine?.split(' ')[1]);
  // Interim answers (100 Continue) come before the real one.
  if (status >= 100 && status < 200 && status !== 101)
    return parseResponse(bytes.subarray(Buffer.byteLength(text.slice(0, end + 4))));
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const i = line.indexOf(':');
    headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  let body = text.slice(end + 4);
  let complete = false;
  if (headers['content-length'] !== undefined) {
    const length = Number(headers['content-length']);
    const bodyBytes = bytes.subarray(Buffer.byteLength(text.slice(0, end + 4)));
    complete = bodyBytes.length >= length;
    // A pipelined second response (after a smuggling attempt) is not part of this body.
    body = bodyBytes.subarray(0, length).toString('utf8');
  } else if (headers['transfer-encoding'] === 'chunked') {
    complete = body.endsWith('0\r\n\r\n');
    body = dechunk(body);
  } else complete = status === 204 || status === 304;
  return { answer: { status, headers, text: body }, complete };
}

function dechunk(body: string): string {
  let out = '';
  let rest = body;
  for (;;) {
    const line = rest.indexOf('\r\n');
    if (line < 0) return out;
    const size = Number.parseInt(rest.slice(0, line), 16);
    if (!size) return out;
    out += rest.slice(line + 2, line + 2 + size);
    rest = rest.slice(line + 2 + size + 2);
  }
}

/** Node's own refusals (before the app): a bare status line, no envelope, never 500. */
const NODE_REFUSALS = new Set([400, 408, 413, 414, 417, 431, 501, 505]);

async function tryRaw(name: string, parts: Array<string | Buffer>, options: Parameters<typeof raw>[1] = {}) {
  const before = await snapshot(server, tables);
  const answer = await raw(parts, options);
  const after = await snapshot(server, tables);
  if (answer) {
    record('raw http', { method: 'RAW', path: name }, answer.status);
    expect(answer.status, `${name}: ${answer.raw.slice(0, 300)}`).not.toBe(500);
    if (answer.headers['x-request-id'] !== undefined) {
      const pathname = /^[A-Z]+ (\/\S*) /.exec(String(parts[0]))?.[1] ?? '/';
      const problem = problemWith(
        server,
        { method: 'RAW', path: pathname.startsWith('/') ? pathname : '/', headers: {} },
        answer,
      );
      expect(problem, `${name}: ${answer.raw.slice(0, 300)}`).toBeNull();
    } else {
      expect(NODE_REFUSALS.has(answer.status), `${name}: ${answer.raw.slice(0, 300)}`).toBe(true);
    }
  } else {
    record('raw http', { method: 'RAW', path: name }, 0);
  }
  if (!answer || answer.status < 200 || answer.status > 299) {
    expect(changes(before, after), `${name} wrote rows without a 2xx`).toEqual([]);
  }
  return answer;
}

async function healthy() {
  const health = await fetch(`${server.url}/health`);
  expect(health.status).toBe(200);
  expect(Object.values(await orphans(server)).every((n) => n === 0)).toBe(true);
}

const contact = JSON.stringify({
  name: 'Raw Tester',
  email: 'raw@example.com',
  subject: 'Hello',
  message: 'A message sent slowly.',
});
const head = (method: string, path: string, headers: string[], body = '') =>
  `${method} ${path} HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 203.0.113.${Math.floor(Math.random() * 250)}\r\n${headers.map((h) => `${h}\r\n`).join('')}\r\n${body}`;

describe('raw HTTP abuse', () => {
  it('header abuse: huge, many, CR/LF and NUL in values, bad names, bad lengths', {
    timeout: 300_000,
  }, async () => {
    const cases: Array<[string, string | Buffer]> = [
      ['huge header (64 KiB)', head('GET', '/health', [`X-Big: ${'a'.repeat(65_536)}`])],
      ['huge cookie', head('GET', '/api/leads', [`Cookie: ${'c=1; '.repeat(5000)}`])],
      [
        'many headers',
        head(
          'GET',
          '/health',
          Array.from({ length: 3000 }, (_, i) => `X-H${i}: ${i}`),
        ),
      ],
      ['bare LF in a value', head('GET', '/health', ['X-A: a\nInjected: 1'])],
      ['bare CR in a value', head('GET', '/health', ['X-A: a\rInjected: 1'])],
      ['NUL in a value', head('GET', '/health', ['X-A: a\u0000b'])],
      ['space in a header name', head('GET', '/health', ['Bad Name: 1'])],
      ['colon-less header line', head('GET', '/health', ['NoColonHere'])],
      ['obs-fold continuation', head('GET', '/health', ['X-A: a', ' folded'])],
      [
        'non-numeric Content-Length',
        head('POST', '/api/contact', ['Content-Type: application/json', 'Content-Length: abc'], contact),
      ],
      [
        'negative Content-Length',
        head('POST', '/api/contact', ['Content-Type: application/json', 'Content-Length: -1'], contact),
      ],
      [
        'two different Content-Lengths',
        head(
          'POST',
          '/api/contact',
          ['Content-Type: application/json', 'Content-Length: 5', 'Content-Length: 6'],
          contact,
        ),
      ],
      [
        'Content-Length and chunked',
        head(
          'POST',
          '/api/contact',
          [
            'Content-Type: application/json',
            `Content-Length: ${contact.length}`,
            'Transfer-Encoding: chunked',
          ],
          contact,
        ),
      ],
      [
        'unknown Transfer-Encoding',
        head('POST', '/api/contact', ['Content-Type: application/json', 'Transfer-Encoding: gzip'], contact),
      ],
      [
        'bad chunk size',
        head(
          'POST',
          '/api/contact',
          ['Content-Type: application/json', 'Transfer-Encoding: chunked'],
          'zz\r\n{}\r\n0\r\n\r\n',
        ),
      ],
      [
        'huge chunk size',
        head(
          'POST',
          '/api/contact',
          ['Content-Type: application/json', 'Transfer-Encoding: chunked'],
          'ffffffffffffffff\r\n{}\r\n0\r\n\r\n',
        ),
      ],
      [
        'Content-Length shorter than the body (smuggled request)',
        head(
          'POST',
          '/api/contact',
          ['Content-Type: application/json', 'Content-Length: 2'],
          `{}GET /admin/api/leads HTTP/1.1\r\nHost: x\r\n\r\n`,
        ),
      ],
      [
        'body on GET',
        head('GET', '/api/leads', ['Content-Type: application/json', 'Content-Length: 2'], '{}'),
      ],
      [
        'Expect: 100-continue',
        head(
          'POST',
          '/api/contact',
          ['Content-Type: application/json', `Content-Length: ${contact.length}`, 'Expect: 100-continue'],
          contact,
        ),
      ],
      [
        'unknown Expect',
        head(
          'POST',
          '/api/contact',
          ['Content-Type: application/json', `Content-Length: ${contact.length}`, 'Expect: nonsense'],
          contact,
        ),
      ],
      [
        'declared 2 GiB',
        head('POST', '/api/leads', ['Content-Type: application/json', 'Content-Length: 2147483648'], '{'),
      ],
      [
        'Content-Type with CRLF-free garbage',
        head(
          'POST',
          '/api/ai/refine',
          ['Content-Type: application/json; charset="\u00ff\u00fe"', 'Content-Length: 2'],
          '{}',
        ),
      ],
      [
        'Latin-1 bytes in a header',
        Buffer.from(head('GET', '/api/leads', ['X-Request-Id: caf\u00e9\u00ff']), 'latin1'),
      ],
      ['huge X-Request-Id', head('GET', '/health', [`X-Request-Id: ${'r'.repeat(10_000)}`])],
      ['Host missing', 'GET /health HTTP/1.1\r\n\r\n'],
      ['HTTP/1.0 without Host', 'GET /health HTTP/1.0\r\n\r\n'],
      ['HTTP/2 preface', 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'],
      ['HTTP/9.9', 'GET /health HTTP/9.9\r\nHost: x\r\n\r\n'],
      ['absolute-form target', head('GET', 'http://evil.example/health', [])],
      ['asterisk target', head('OPTIONS', '*', [])],
      ['target without slash', head('GET', 'health', [])],
      ['double slashes', head('GET', '//api//leads//', [])],
      ['bad percent escapes', head('GET', '/api/leads/%zz%?q=%ff%00', [])],
      [
        'raw UTF-8 and invalid bytes in the target',
        Buffer.concat([
          Buffer.from('GET /api/leads/\u00e9'),
          Buffer.from([0xff, 0xfe]),
          Buffer.from(' HTTP/1.1\r\nHost: x\r\n\r\n'),
        ]),
      ],
      ['dot segments to the admin API', head('GET', '/api/../admin/api/leads', [])],
      ['encoded dot segments to the admin API', head('GET', '/api/%2e%2e/admin/api/leads', [])],
      ['lower-case method', head('get', '/health', [])],
      ['unknown method', head('BREW', '/health', [])],
      ['known exotic method', head('PROPFIND', '/api/leads', [])],
      ['TRACE', head('TRACE', '/health', [])],
      ['CONNECT', 'CONNECT evil.example:443 HTTP/1.1\r\nHost: evil.example:443\r\n\r\n'],
      ['garbage', Buffer.from([0x16, 0x03, 0x01, 0x00, 0xa5, 0x01, 0x00])],
      ['only CRLFs', '\r\n\r\n\r\n\r\n'],
    ];
    for (const [name, bytes] of cases) {
      await tryRaw(name, [bytes], { endAfter: false });
      await healthy();
    }
  });

  it('generated header values and request targets', { timeout: 300_000 }, async () => {
    const headerValue = fc.oneof(
      hostileString.map((s) => s.slice(0, 2000)),
      fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b).toString('latin1')),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(
          'Content-Type',
          'X-Request-Id',
          'Origin',
          'X-Chat-Api-Key',
          'X-Admin-Api-Key',
          'Authorization',
          'X-Forwarded-For',
          'Accept',
          'Range',
          'If-None-Match',
          'Cookie',
        ),
        headerValue,
        fc.constantFrom(
          '/health',
          '/api/leads',
          '/api/ai/refine',
          '/admin/api/leads',
          '/api/contact',
          '/metrics',
          '/docs',
        ),
        async (name, value, path) => {
          const method = path === '/api/ai/refine' || path === '/api/contact' ? 'POST' : 'GET';
          const body = method === 'POST' ? '{"message":"hello there"}' : '';
          const bytes = Buffer.from(
            head(
              method,
              path,
              [
                `${name}: ${value}`,
                ...(body ? ['Content-Type: application/json', `Content-Length: ${body.length}`] : []),
              ],
              body,
            ),
            'latin1',
          );
          await tryRaw(`${name} on ${path}`, [bytes]);
        },
      ),
      { seed: SEED, numRuns: RAW_RUNS },
    );
    await healthy();
  });

  it('bodies cut short: the connection closes mid-body, nothing is half-written', {
    timeout: 120_000,
  }, async () => {
    const lead = JSON.stringify({
      personal: { name: 'Cut Short', email_address: 'cut@example.com' },
      steps: { service: 'build-website' },
    });
    for (const [path, body] of [
      ['/api/contact', contact],
      ['/api/leads', lead],
      ['/api/support/send', contact],
      ['/api/analytics/track', '{"type":"page_view","page":"/"}'],
    ] as const) {
      const start = head('POST', path, [
        'Content-Type: application/json',
        `Content-Length: ${body.length + 50}`,
      ]);
      await tryRaw(`${path} cut short`, [start, body.slice(0, body.length - 5)], {
        endAfter: true,
        waitMs: 1500,
      });
      await healthy();
    }
  });

  it('slow bodies (a few, bounded): a trickled valid body is served, a stalled one costs nothing', {
    timeout: 120_000,
  }, async () => {
    // A valid body sent one piece every 100 ms (2 s in all) is still a normal request.
    const pieces = contact.match(/[\s\S]{1,5}/g) ?? [];
    const start = head('POST', '/api/contact', [
      'Content-Type: application/json',
      `Content-Length: ${contact.length}`,
    ]);
    const trickled = await tryRaw(
      'trickled contact',
      [start, ...pieces.slice(0, 20), pieces.slice(20).join('')],
      { delayMs: 100, waitMs: 10_000 },
    );
    expect(trickled?.status).toBe(201);
    // A multipart upload that stalls half-way is refused by the upload time bound (UPLOAD_TIMEOUT_MS=5 s here).
    const boundary = 'slowb';
    const part = `--${boundary}\r\nContent-Disposition: form-data; name="fullName"\r\n\r\nSlow Poke\r\n`;
    const stalled = await tryRaw(
      'stalled ticket upload',
      [
        head('POST', '/api/support/tickets', [
          `Content-Type: multipart/form-data; boundary=${boundary}`,
          'Content-Length: 100000',
        ]),
        part,
      ],
      { waitMs: 20_000 },
    );
    expect(stalled?.status).toBe(408);
    // Headers that never finish: the connection is simply dropped by the client; the server stays up.
    await tryRaw('unfinished headers', ['GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: '], {
      delayMs: 500,
      waitMs: 500,
    });
    await healthy();
  });
});
