/** Generators of hostile input: values, JSON bodies, raw bodies, multipart bodies, query strings, headers. */
import fc from 'fast-check';
import { FormData } from 'undici';
import type { Operation } from './harness.ts';
import { authFor, exampleOf } from './harness.ts';

/** Percent-encodes the UTF-8 bytes of any string (lone surrogates included, as U+FFFD). */
export function pct(value: string): string {
  return [...Buffer.from(value, 'utf8')]
    .map((b) =>
      /[A-Za-z0-9\-_.~]/.test(String.fromCharCode(b))
        ? String.fromCharCode(b)
        : `%${b.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');
}

/** Nested arrays `depth` deep, as JSON text (built without recursion). */
export const nestedArrays = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
export const nestedObjects = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    '\uD800',
    'a\uDFFFb',
    '\uFEFF',
    '\u202Eevil',
    '<script>alert(1)</script>',
    '"><img src=x onerror=alert(1)>',
    "' OR 1=1 --",
    '; drop table leads; --',
    '../../etc/passwd',
    '..\\..\\windows',
    ['$', '{jndi:ldap://x/a}'].join(''),
    '{{7*7}}',
    '%00',
    '%ff',
    '\r\nX-Injected: 1',
    'http://127.0.0.1:22/',
    'http://169.254.169.254/latest/meta-data/',
    'file:///etc/passwd',
    'javascript:alert(1)',
    '__proto__',
    'constructor',
    'fuzz@example.com',
    'a@b',
    'landing',
    'application',
  ),
  fc.integer({ min: 1, max: 200_000 }).map((n) => 'x'.repeat(n)),
  fc.integer({ min: 1, max: 20_000 }).map((n) => 'é🙂'.repeat(n)),
);

export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostileString },
  fc.constantFrom(null, true, false, 0, -1, 1e308, -1e308, 2 ** 53 + 2, 0.5, -0),
  fc.jsonValue({ maxDepth: 3 }),
  fc.array(hostileString, { maxLength: 60 }),
  fc.dictionary(hostileString, hostileString, { maxKeys: 5 }),
  fc.integer({ min: 1, max: 2000 }).map((d) => JSON.parse(nestedArrays(d)) as unknown),
);

/** The paths of an example object's fields (`a`, `a.b`), to mutate or drop one. */
export function fieldPaths(value: unknown, prefix: string[] = []): string[][] {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return [];
  return Object.entries(value).flatMap(([k, v]) => [[...prefix, k], ...fieldPaths(v, [...prefix, k])]);
}

function setPath(target: unknown, path: string[], value: unknown, remove = false): unknown {
  const copy = structuredClone(target) as Record<string, unknown>;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string, unknown>;
  const last = path.at(-1) as string;
  if (remove) delete node[last];
  else node[last] = value;
  return copy;
}

const RAW_BODIES: Array<string | Buffer> = [
  '',
  '{',
  '{"message":',
  'null',
  '[]',
  '"text"',
  '123',
  '{"a":1,"a":2}',
  '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}',
  '1e999999',
  '{"message":1e999999}',
  '\uFEFF{"message":"bom"}',
  'message=hello&email=a%40b.c',
  '<xml>not json</xml>',
  Buffer.from([0xff, 0xfe, 0xfd, 0x00, 0xc0, 0xaf]),
  Buffer.concat([
    Buffer.from('{"message":"'),
    Buffer.from([0xc3, 0x28, 0xa0, 0xa1, 0xf0, 0x28, 0x8c, 0xbc]),
    Buffer.from('"}'),
  ]),
  Buffer.from('{"message":"nul\u0000byte","name":"\u0000"}'),
  Buffer.from('{"message":"a"}\u0000\u0000\u0000'),
  Buffer.from('\u0000'.repeat(2048)),
];

export interface BodyCase {
  kind: string;
  contentType: string | null;
  body: Buffer | string | undefined;
}

const JSON_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'application/vnd.api+json',
];
const OTHER_TYPES = [
  'text/plain',
  'text/plain;charset=UTF-8',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=xyz',
  'application/jsonx',
  'application/json; charset=latin1',
  'image/png',
  '',
];

/** A JSON route's body: the example, or the example broken one way or another, or garbage. */
export function jsonBody(op: Operation): fc.Arbitrary<BodyCase> {
  const example = op.body ? exampleOf(op.body.schema) : {};
  const paths = fieldPaths(example);
  const json = (kind: string, value: fc.Arbitrary<unknown>) =>
    fc
      .tuple(value, fc.constantFrom(...JSON_TYPES))
      .map(([v, contentType]): BodyCase => ({ kind, contentType, body: JSON.stringify(v) ?? 'null' }));
  const cases: Array<fc.Arbitrary<BodyCase>> = [
    json('example', fc.constant(example)),
    json(
      'extra fields',
      fc
        .dictionary(hostileString, hostileValue, { maxKeys: 8 })
        .map((extra) => ({ ...extra, ...(example as object) })),
    ),
    json('whole body', hostileValue),
    fc
      .tuple(fc.constantFrom(...RAW_BODIES), fc.constantFrom(...JSON_TYPES, ...OTHER_TYPES))
      .map(([body, contentType]): BodyCase => ({ kind: 'raw', contentType, body })),
    fc.tuple(fc.integer({ min: 1, max: 100_000 }), fc.boolean()).map(
      ([depth, arrays]): BodyCase => ({
        kind: 'deep',
        contentType: 'application/json',
        body: arrays ? nestedArrays(depth) : nestedObjects(depth),
      }),
    ),
    fc.constantFrom(512 * 1024, 1024 * 1024 + 1, 3 * 1024 * 1024).map(
      (size): BodyCase => ({
        kind: 'huge',
        contentType: 'application/json',
        body: JSON.stringify({ ...(example as object), message: 'm'.repeat(size) }),
      }),
    ),
    fc
      .constantFrom(...OTHER_TYPES, null)
      .map((contentType): BodyCase => ({ kind: 'wrong type', contentType, body: JSON.stringify(example) })),
  ];
  if (paths.length > 0) {
    cases.push(
      json(
        'field mutated',
        fc.tuple(fc.constantFrom(...paths), hostileValue).map(([p, v]) => setPath(example, p, v)),
      ),
      json(
        'field dropped',
        fc.constantFrom(...paths).map((p) => setPath(example, p, undefined, true)),
      ),
    );
  }
  return fc.oneof(...cases);
}

/** A multipart body: the schema's fields with hostile values and files, or a broken multipart. */
export function multipartBody(op: Operation): fc.Arbitrary<BodyCase> {
  const example = (op.body ? exampleOf(op.body.schema) : {}) as Record<string, unknown>;
  const fieldNames = Object.keys(example).filter((k) => k !== 'attachments');
  const file = fc.record({
    name: fc.oneof(
      hostileString,
      fc.constantFrom('a.png', 'report.pdf', '../../x.txt', 'a\u0000.png', 'x'.repeat(500)),
    ),
    type: fc.constantFrom(
      'image/png',
      'application/pdf',
      'text/plain',
      'application/x-msdownload',
      'x/y',
      '',
    ),
    bytes: fc.oneof(
      fc.uint8Array({ maxLength: 2048 }),
      fc.constant(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13])),
      fc.constant(new Uint8Array(Buffer.from('%PDF-1.4\n%fuzz\n'))),
      fc.constant(new Uint8Array(Buffer.from('MZ\x90\x00'))),
    ),
  });
  const wellFormed = fc
    .tuple(
      fc.record(
        Object.fromEntries(
          fieldNames.map((k) => [k, fc.oneof(fc.constant(String(example[k] ?? 'x')), hostileString)]),
        ),
        { requiredKeys: [] },
      ),
      fc.dictionary(fc.string({ maxLength: 20 }), hostileString, { maxKeys: 3 }),
      fc.array(file, { maxLength: 7 }),
    )
    .map(([fields, extra, files]): BodyCase => {
      const form = new FormData();
      for (const [k, v] of Object.entries({ ...extra, ...fields })) form.append(k, v);
      for (const f of files) form.append('attachments', new Blob([f.bytes], { type: f.type }), f.name);
      return { kind: 'multipart', contentType: null, body: form as unknown as string };
    });
  const broken = fc
    .constantFrom(
      ['multipart/form-data; boundary=b', '--b\r\nContent-Disposition: form-data; name="email"\r\n\r\nx'],
      [
        'multipart/form-data; boundary=b',
        '--b\r\nContent-Disposition: form-data; name="attachments"; filename="a.png"\r\n\r\n\u0000\u0000',
      ],
      ['multipart/form-data', '--b\r\n\r\n--b--'],
      ['multipart/form-data; boundary=', '----\r\n'],
      [
        'multipart/form-data; boundary=b',
        '--b\r\nContent-Disposition: form-data\r\n\r\nno name\r\n--b--\r\n',
      ],
      [
        'multipart/form-data; boundary=b',
        `--b\r\nContent-Disposition: form-data; name="${'n'.repeat(5000)}"\r\n\r\nv\r\n--b--\r\n`,
      ],
      ['multipart/form-data; boundary=b', Buffer.from([0xff, 0xfe, 0x00, 0x2d, 0x2d, 0x62])],
      ['application/json', '{"fullName":"x"}'],
    )
    .map(
      ([contentType, body]): BodyCase => ({
        kind: 'multipart broken',
        contentType: contentType as string,
        body,
      }),
    );
  return fc.oneof(wellFormed, broken);
}

const SPECIAL_SEGMENTS = [
  '%00',
  '%ff',
  '%zz',
  '%',
  '..',
  '%2e%2e',
  '.',
  '%2F',
  '%252F',
  '%C0%AF',
  '0',
  '-1',
  '99999999999999999999',
  'null',
  'undefined',
];

export const pathSegment: fc.Arbitrary<string> = fc.oneof(
  fc.uuid(),
  fc.constantFrom(...SPECIAL_SEGMENTS),
  hostileString.map((s) => pct(s.slice(0, 400))),
);

export function queryString(op: Operation): fc.Arbitrary<string> {
  const name = fc.oneof(
    { weight: 3, arbitrary: op.query.length ? fc.constantFrom(...op.query) : fc.constant('q') },
    fc.constantFrom('all', 'limit', 'page', 'cache', 'q', 'search', 'email', '__proto__', 'a[]', 'a[b]'),
    hostileString.map((s) => pct(s.slice(0, 50))),
  );
  const value = fc.oneof(
    fc.constantFrom(
      'true',
      'false',
      '0',
      '-1',
      '1e9',
      '100000000000000000000',
      '',
      '%00',
      '%ff',
      '%zz',
      '%',
      'NaN',
      '2026-13-45',
      'a@b.c',
    ),
    hostileString.map((s) => pct(s.slice(0, 600))),
  );
  return fc
    .array(fc.tuple(name, value), { maxLength: 6 })
    .map((pairs) => (pairs.length ? `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}` : ''));
}

const printable = fc.string({
  unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
  maxLength: 300,
});

/** Headers a client controls: request id, origin, secret (right, wrong, huge), forwarded IP, agent. */
export function headersFor(pathname: string): fc.Arbitrary<Record<string, string>> {
  const auth = authFor(pathname);
  return fc
    .record(
      {
        requestId: fc.oneof(printable, fc.constant('r'.repeat(4000))),
        origin: fc.constantFrom(
          'http://localhost:5173',
          'https://evil.example',
          'null',
          'http://localhost:5173.evil.example',
        ),
        secret: fc.oneof(
          { weight: 2, arbitrary: fc.constant('right') },
          fc.constant('wrong'),
          fc.constant('huge'),
          printable,
        ),
        ip: fc.oneof(
          { weight: 5, arbitrary: fc.ipV4() },
          fc.ipV6(),
          fc.constantFrom('garbage', '', '1.2.3.4, 5.6.7.8', '999.1.1.1', `${'1.1.1.1,'.repeat(500)}1.1.1.1`),
        ),
        agent: fc.oneof(
          printable,
          fc.constantFrom('Googlebot/2.1', 'curl/8', 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130'),
        ),
        accept: fc.constantFrom('*/*', 'text/event-stream', 'text/html', 'application/json', ''),
      },
      { requiredKeys: ['ip'] },
    )
    .map((h) => {
      const headers: Record<string, string> = { 'x-forwarded-for': h.ip };
      if (h.requestId !== undefined) headers['x-request-id'] = h.requestId;
      if (h.origin) headers.origin = h.origin;
      if (h.agent !== undefined) headers['user-agent'] = h.agent;
      if (h.accept !== undefined) headers.accept = h.accept;
      if (auth && h.secret !== undefined) {
        const [name, right] = auth;
        const value =
          h.secret === 'right'
            ? right
            : h.secret === 'wrong'
              ? `${right}x`
              : h.secret === 'huge'
                ? 'k'.repeat(4000)
                : h.secret;
        headers[name] = value;
      }
      return headers;
    });
}
