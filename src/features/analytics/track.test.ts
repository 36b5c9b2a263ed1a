import fc from 'fast-check';
import { isbot } from 'isbot';
import { describe, expect, it } from 'vitest';
import { normalizeIp } from '../../http/client-ip.ts';
import { isBotAgent } from './bots.ts';
import { AnalyticsRefusal } from './errors.ts';
import { ANALYTICS_LIMITS as L } from './limits.ts';
import { pagePath } from './page.ts';
import { propertiesProblem } from './schemas.ts';
import {
  buildEventRow,
  parseTrackBody,
  referrerParts,
  utcDay,
  validateTrack,
  validateTrackWithSchema,
} from './track.ts';

const verdict = (fn: () => unknown) => {
  try {
    return { ok: true, value: fn() };
  } catch (error) {
    if (error instanceof AnalyticsRefusal) return { ok: false, value: error.reason };
    throw error;
  }
};

describe('track body rules', () => {
  it('the hot-path validator agrees with the documented zod schema', () => {
    const text = fc.oneof(
      fc.string({ maxLength: 8 }),
      fc.constantFrom(
        '',
        '  ',
        'page_view',
        '/pricing',
        'x'.repeat(L.typeLength + 1),
        'a\u0001b',
        'mailto:alice@example.com',
        'https://agency.example/x',
        ' javascript:alert(1)',
        // What the URL parser strips before it reads the scheme, and a URL it refuses.
        '\u0001mailto:alice@example.com',
        'mail\tto:alice@example.com',
        'https://alice:secret@exa mple.com/?e=a@b.c',
        'a\u009b31mb',
        // Characters are code points, as zod and JSON Schema count them: 64 emoji are 128 UTF-16 units.
        '\u{1F600}'.repeat(L.typeLength),
        '\u{1F600}'.repeat(L.typeLength + 1),
        '\u{1F600}'.repeat(L.titleLength),
      ),
      fc.string({ minLength: 2040, maxLength: 2060 }),
    );
    const field = fc.oneof(text, fc.constant(undefined), fc.constant(null), fc.integer());
    const props = fc.oneof(
      fc.constant(undefined),
      fc.constant(null),
      fc.constant([1]),
      fc.dictionary(fc.string({ maxLength: 70 }), fc.jsonValue({ maxDepth: 4 }), { maxKeys: 35 }),
    );
    fc.assert(
      fc.property(
        fc.record(
          {
            type: field,
            page: field,
            url: field,
            referrer: field,
            title: field,
            sessionId: field,
            properties: props,
          },
          { requiredKeys: [] },
        ),
        (body) => {
          const fast = verdict(() => validateTrack(body as Record<string, unknown>));
          const schema = verdict(() => validateTrackWithSchema(body));
          expect(fast.ok).toBe(schema.ok);
          // toEqual treats an absent key like undefined; the schema leaves absent properties undefined.
          const norm = (v: unknown) => ({
            ...(v as object),
            properties: (v as { properties?: unknown }).properties ?? null,
          });
          if (fast.ok) expect(norm(fast.value)).toEqual(norm(schema.value));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('bounds properties by keys, depth, key and string length, and size', () => {
    expect(propertiesProblem({ plan: 'pro', n: 1, nested: { a: [1, 2] } })).toBeNull();
    expect(
      propertiesProblem(
        Object.fromEntries(Array.from({ length: L.properties.keys + 1 }, (_, i) => [`k${i}`, i])),
      ),
    ).toMatch(/keys/);
    expect(propertiesProblem({ a: { b: { c: { d: 1 } } } })).toMatch(/deeper/);
    expect(propertiesProblem({ ['k'.repeat(L.properties.keyLength + 1)]: 1 })).toMatch(/key longer/);
    expect(propertiesProblem({ s: 'x'.repeat(L.properties.stringLength + 1) })).toMatch(/string longer/);
    const big = Object.fromEntries(
      Array.from({ length: 10 }, (_, i) => [`k${i}`, 'x'.repeat(L.properties.stringLength)]),
    );
    expect(propertiesProblem(big)).toMatch(/bytes/);
  });

  it('keeps only the path of a page, and the origin+path of an external referrer', () => {
    expect(pagePath('https://agency.example/pricing?email=a@b.c#top')).toBe('/pricing');
    expect(pagePath('/blog/post?utm_source=x')).toBe('/blog/post');
    expect(pagePath('pricing')).toBe('/pricing');
    expect(referrerParts('https://www.google.com/search?q=secret', '/x', ['agency.example'])).toEqual({
      referrer: 'https://www.google.com/search',
      host: 'google.com',
    });
    expect(referrerParts('https://www.agency.example/a', '/x', ['agency.example']).host).toBeNull();
    expect(referrerParts('https://shop.example/a', 'https://shop.example/b', []).host).toBeNull();
    expect(referrerParts('javascript:alert(1)', '/x', [])).toEqual({ referrer: null, host: null });
    // A fully qualified host (the root's dot) is the same host: grouped and compared as such.
    expect(referrerParts('https://www.bing.com./search?q=x', '/x', []).host).toBe('bing.com');
    expect(referrerParts('https://agency.example./a', '/x', ['agency.example']).host).toBeNull();
    // A host that is nothing once bared is no referral (no empty-named row).
    for (const bare of ['http://./x', 'http://www../']) expect(referrerParts(bare, '/x', []).host).toBeNull();
    expect(referrerParts('not a url', '/x', [])).toEqual({ referrer: null, host: null });
    // A host within a DNS name's length counts; a longer one is no host (and could not be a rollup key).
    const label = 'a'.repeat(61);
    const longest = `${[label, label, label, label].join('.')}.bcdef`;
    expect(longest).toHaveLength(L.referrerHostLength);
    expect(referrerParts(`https://${longest}/x`, '/x', []).host).toBe(longest);
    expect(referrerParts(`https://${longest}d/x`, '/x', [])).toEqual({ referrer: null, host: null });
  });

  it('a page is a path or an http(s) URL: other schemes would store an address or a number as the page', () => {
    for (const page of [
      'mailto:alice@example.com',
      'tel:+573000000000',
      'javascript:alert(1)',
      'data:text/html,x',
      // The URL parser drops leading controls and spaces, and tabs and newlines anywhere, first.
      '\u0001mailto:alice@example.com',
      '\u0000 tel:+573000000000',
      'mail\tto:alice@example.com',
      'java\nscript:alert(1)',
      // A URL the parser refuses would be stored whole: host, credentials, query and all.
      'https://alice:secret@exa mple.com/?email=alice@example.com',
      'http://a\u0000b/x',
      '//alice:secret@exa mple.com/x',
    ]) {
      expect(() => validateTrack({ page }), page).toThrow(/must be a path or an http\(s\) URL/);
      expect(() => validateTrack({ url: page }), page).toThrow(/url: must be a path/);
    }
    for (const page of [
      '/pricing',
      'pricing',
      'https://agency.example/x',
      'HTTP://agency.example/',
      '//cdn/x',
    ]) {
      expect(validateTrack({ page }).page, page).toBe(page);
    }
  });

  it('counts characters as code points, like the documented schema (an emoji is one character)', () => {
    const emoji = '\u{1F600}';
    expect(validateTrack({ page: '/', type: emoji.repeat(L.typeLength) }).type).toBe(
      emoji.repeat(L.typeLength),
    );
    expect(() => validateTrack({ page: '/', type: emoji.repeat(L.typeLength + 1) })).toThrow(
      /type: must be at most/,
    );
    expect(validateTrack({ page: '/', title: emoji.repeat(L.titleLength) }).title).toHaveLength(
      2 * L.titleLength,
    );
    expect(() => validateTrack({ page: '/', title: emoji.repeat(L.titleLength + 1) })).toThrow(/title/);
    expect(validateTrack({ page: `/${emoji.repeat(L.pageLength - 1)}` }).page).toBeDefined();
    expect(validateTrack({ page: '/', sessionId: emoji.repeat(L.sessionIdLength) }).sessionId).toBeDefined();
    const s = emoji.repeat(L.properties.stringLength);
    expect(propertiesProblem({ s })).toBeNull();
    expect(propertiesProblem({ s: `${s}x` })).toMatch(/string longer/);
    // A lone surrogate is one character, as zod counts it.
    expect(validateTrack({ page: '/', type: '\ud800'.repeat(L.typeLength) }).type).toHaveLength(L.typeLength);
  });

  it('an event type is printable: C0, DEL and C1 controls are refused', () => {
    for (const type of ['a\u0001b', 'a\u007fb', 'a\u009b31mb', 'a\u0085b']) {
      expect(() => validateTrack({ page: '/', type }), JSON.stringify(type)).toThrow(/control characters/);
      expect(() => validateTrackWithSchema({ page: '/', type }), JSON.stringify(type)).toThrow(
        /control characters/,
      );
    }
    expect(validateTrack({ page: '/', type: 'añadir_al_carrito \u{1F6D2}' }).type).toBe(
      'añadir_al_carrito \u{1F6D2}',
    );
  });

  it('one parse of the page gives what the two separate parses gave (path against a base, host alone)', () => {
    const pathAgainstBase = (value: string) => {
      try {
        return new URL(value, 'http://relative.invalid/').pathname || '/';
      } catch {
        return value.split(/[?#]/)[0] || '/';
      }
    };
    const hostAlone = (value: string) => {
      try {
        return new URL(value).hostname.toLowerCase() || null;
      } catch {
        return null;
      }
    };
    const agrees = (value: string) => {
      expect(pagePath(value), value).toBe(pathAgainstBase(value));
      const referrer = 'https://Shop.Example/from';
      expect(referrerParts(referrer, value, []).host, value).toBe(
        hostAlone(value)?.replace(/^www\./, '') === 'shop.example' ? null : 'shop.example',
      );
    };
    for (const value of [
      'http:/pricing',
      'HTTP:pricing?x=1',
      'http:foo/bar',
      'https:pricing',
      '//shop.example/x',
      'https://SHOP.example/b?q',
      'mailto:a@b.c',
      'javascript:alert(1)',
      'http://relative.invalid/x',
      '/a/b#c',
      'pricing',
      'http://[bad',
    ])
      agrees(value);
    fc.assert(fc.property(fc.oneof(fc.webUrl(), fc.string()), agrees));
  });

  it('refuses deeply nested JSON anywhere in the body without overflowing the stack', async () => {
    const deep = `{"type":"x","page":"/","extra":${'['.repeat(3000)}${']'.repeat(3000)}}`;
    await expect(parseTrackBody('text/plain', new TextEncoder().encode(deep))).rejects.toMatchObject({
      reason: 'invalid',
      message: expect.stringMatching(/nested/),
    });
  });

  it('counts nesting, not brackets: many shallow containers pass, brackets inside strings do not count', async () => {
    const shallow = { type: 'x', page: '/', a: [[1], [2], [3], [4], [5], [6], [7], [8], [9], [10]] };
    await expect(
      parseTrackBody('application/json', new TextEncoder().encode(JSON.stringify(shallow))),
    ).resolves.toMatchObject({ type: 'x' });
    const text = JSON.stringify({ type: 'x', page: '/', title: '{'.repeat(500) });
    await expect(parseTrackBody('text/plain', new TextEncoder().encode(text))).resolves.toMatchObject({
      title: '{'.repeat(500),
    });
  });

  it('reads the text as TextDecoder does: a leading BOM dropped, invalid bytes as U+FFFD', async () => {
    const json = new TextEncoder().encode('{"type":"x","page":"/","title":"caf\u00e9 \u2713"}');
    const withBom = new Uint8Array([0xef, 0xbb, 0xbf, ...json]);
    await expect(parseTrackBody('text/plain;charset=UTF-8', withBom)).resolves.toMatchObject({
      title: 'café ✓',
    });
    const invalid = new TextEncoder().encode('{"type":"x","page":"/","title":"a?b"}');
    invalid[invalid.indexOf(63)] = 0xff; // the "?" becomes a lone invalid byte
    const expected = (JSON.parse(new TextDecoder().decode(invalid)) as { title: string }).title;
    await expect(parseTrackBody('', invalid)).resolves.toMatchObject({ title: expected });
    expect(expected).toBe('a\ufffdb');
  });
});

describe('the per-event shortcuts agree with the full computation', () => {
  it('utcDay: the remembered day ends exactly at UTC midnight', () => {
    const midnight = Date.UTC(2026, 10, 21);
    const instants = [
      midnight - 1,
      midnight,
      midnight + 1,
      midnight + 86_399_999,
      midnight + 86_400_000,
      midnight - 1,
    ];
    for (const ms of instants) expect(utcDay(ms)).toBe(new Date(ms).toISOString().slice(0, 10));
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4_102_444_800_000 }), (ms) => {
        expect(utcDay(ms)).toBe(new Date(ms).toISOString().slice(0, 10));
      }),
    );
  });

  it("isBotAgent: isbot's verdict, remembered or not; an empty user agent is a bot", () => {
    const agents = [
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36',
      'Googlebot/2.1 (+http://www.google.com/bot.html)',
      'curl/8.5.0',
      `Mozilla/5.0 ${'x'.repeat(600)}`,
    ];
    for (let round = 0; round < 2; round++) {
      for (const agent of agents) expect(isBotAgent(agent), agent.slice(0, 40)).toBe(isbot(agent));
    }
    expect(isBotAgent('')).toBe(true);
    for (let i = 0; i < 2500; i++) expect(isBotAgent(`Agent/${i}`)).toBe(isbot(`Agent/${i}`));
  });

  it('normalizeIp: the dotted-quad shortcut prints what the full parse prints', () => {
    fc.assert(
      fc.property(fc.ipV4(), fc.boolean(), (ip, mapped) => {
        expect(normalizeIp(mapped ? `::ffff:${ip}` : ip)).toBe(ip);
      }),
    );
    for (const [given, expected] of [
      ['010.0.0.1', '8.0.0.1'],
      [' 1.2.3.4 ', '1.2.3.4'],
      ['::FFFF:1.2.3.4', '1.2.3.4'],
      ['1.2.3.256', null],
      ['2001:db8::1', '2001:db8::1'],
      ['', null],
    ] as const) {
      expect(normalizeIp(given), given).toBe(expected);
    }
  });

  it('event ids are time-ordered UUIDs', () => {
    const row = (now: number) =>
      buildEventRow(
        {
          type: 'page_view',
          page: '/a',
          url: undefined,
          referrer: null,
          title: null,
          properties: null,
          sessionId: null,
        },
        {
          now,
          country: null,
          visitorHash: 'h',
          siteHosts: ['agency.example'],
          client: { device: null, browser: null, os: null },
        },
      ).row;
    const ids = Array.from({ length: 50 }, (_, i) => row(Date.UTC(2026, 10, 21) + i).id);
    expect(
      ids.every((id) => /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(id)),
    ).toBe(true);
    expect([...ids].sort()).toEqual(ids);
  });
});
