import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completion, startLlmStandIn } from '../../../test/support/llm-stand-in.ts';
import { type StandIn, sendJson } from '../../../test/support/stand-in.ts';
import { createTestApp, type TestContext } from '../../../test/support/test-app.ts';
import { ApiError } from '../../http/errors.ts';
import { parseModelJson } from '../../integrations/llm/parse-json.ts';
import type { SqlSearchIndex } from '../../search/sql-search-index.ts';
import { AI_LIMITS } from './limits.ts';
import { PLANS } from './plans.ts';
import { recommendPrompt, refinePrompt } from './prompts.ts';
import { aiErrorEnvelope } from './routes.ts';
import { RecommendResponseSchema, RefineResponseSchema } from './schemas.ts';

const ORIGIN = 'http://localhost:5173';
let offline: TestContext;

beforeAll(async () => {
  offline = await createTestApp();
});
afterAll(async () => {
  await offline.close();
});

const post = (t: TestContext, path: string, body: unknown, headers: Record<string, string> = {}) =>
  t.app.request(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

async function expectAiError(res: Response, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.headers.get('cache-control')).toBe('no-store');
  const body = await res.json();
  expect(body).toEqual({ error: { code, message: expect.any(String) } });
  expect(body.error.message.length).toBeGreaterThan(0);
  return body;
}

describe('routing, envelope and headers', () => {
  it.each(['/api/ai/recommend-plan', '/api/ai/refine'])(
    '405 with Allow: POST, OPTIONS on GET %s',
    async (path) => {
      for (const method of ['GET', 'PUT', 'DELETE', 'PATCH']) {
        const res = await offline.app.request(path, { method });
        await expectAiError(res, 405, 'method_not_allowed');
        expect(res.headers.get('allow')).toBe('POST, OPTIONS');
      }
    },
  );

  it('405 with Allow: GET, OPTIONS on POST /api/ai/search-test', async () => {
    const res = await post(offline, '/api/ai/search-test', {});
    await expectAiError(res, 405, 'method_not_allowed');
    expect(res.headers.get('allow')).toBe('GET, OPTIONS');
  });

  it('404 not_found for unknown paths under /api/ai/', async () => {
    for (const path of ['/api/ai/nope', '/api/ai/', '/api/ai/recommend-plan/extra']) {
      await expectAiError(await offline.app.request(path), 404, 'not_found');
      await expectAiError(await post(offline, path, { message: 'x' }), 404, 'not_found');
    }
  });

  it('OPTIONS answers 204 with CORS preflight headers and no-store', async () => {
    const res = await offline.app.request('/api/ai/recommend-plan', {
      method: 'OPTIONS',
      headers: {
        origin: ORIGIN,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(res.headers.get('access-control-allow-methods')).toBe('POST, OPTIONS');
    expect(res.headers.get('access-control-allow-headers')).toMatch(/Content-Type/);
    // A browser instrumented with OpenTelemetry sends the trace context across origins.
    expect(res.headers.get('access-control-allow-headers')).toMatch(/\btraceparent\b/);
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('a preflight asking for another method than POST is 405', async () => {
    const res = await offline.app.request('/api/ai/refine', {
      method: 'OPTIONS',
      headers: { origin: ORIGIN, 'access-control-request-method': 'DELETE' },
    });
    await expectAiError(res, 405, 'method_not_allowed');
    expect(res.headers.get('allow')).toBe('POST, OPTIONS');
  });

  it('OPTIONS on search-test advertises GET, OPTIONS', async () => {
    const res = await offline.app.request('/api/ai/search-test', {
      method: 'OPTIONS',
      headers: { origin: ORIGIN },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('allow')).toBe('GET, OPTIONS');
  });

  it('echoes only allowed origins, never a wildcard', async () => {
    for (const origin of [ORIGIN, 'http://localhost:3000']) {
      const res = await post(offline, '/api/ai/refine', { message: 'a website' }, { origin });
      expect(res.headers.get('access-control-allow-origin')).toBe(origin);
    }
    const evil = await post(
      offline,
      '/api/ai/refine',
      { message: 'a website' },
      { origin: 'https://evil.example' },
    );
    expect(evil.status).toBe(200);
    expect(evil.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('every success carries no-store and JSON', async () => {
    const res = await post(offline, '/api/ai/recommend-plan', { message: 'We need a website' });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
  });

  it('leaves the backend envelope alone outside /api/ai/', async () => {
    const res = await offline.app.request('/api/nothing-here');
    expect((await res.json()).success).toBe(false);
    expect(res.headers.get('cache-control')).toBeNull();
  });
});

describe('the AI envelope of a passing outage', () => {
  it('answers 503 service_unavailable with Retry-After, not 500, while the database is away', () => {
    const outage = new ApiError(
      'NOT_CONFIGURED',
      'The service is briefly unavailable; please try again in a moment.',
      {
        headers: { 'Retry-After': '5' },
      },
    );
    expect(aiErrorEnvelope(outage, 'req-1')).toEqual({
      status: 503,
      body: { error: { code: 'service_unavailable', message: outage.message } },
      headers: { 'Retry-After': '5' },
    });
  });
});

describe('request validation (400 invalid_request)', () => {
  const long = (n: number) => 'x'.repeat(n);
  const cases: [string, string, unknown, Record<string, string>?][] = [
    ['wrong content type', '/api/ai/recommend-plan', { message: 'hi' }, { 'content-type': 'text/plain' }],
    [
      'form content type',
      '/api/ai/refine',
      'message=hi',
      { 'content-type': 'application/x-www-form-urlencoded' },
    ],
    ['malformed JSON', '/api/ai/recommend-plan', '{"message": '],
    ['array body', '/api/ai/recommend-plan', [1, 2]],
    ['string body', '/api/ai/refine', '"hello"'],
    ['null body', '/api/ai/refine', 'null'],
    ['missing message', '/api/ai/recommend-plan', {}],
    ['numeric message', '/api/ai/refine', { message: 42 }],
    ['empty message', '/api/ai/recommend-plan', { message: '' }],
    ['blank message', '/api/ai/refine', { message: '   \n\t ' }],
    ['oversize message', '/api/ai/recommend-plan', { message: long(AI_LIMITS.messageMax + 1) }],
    ['oversize locale', '/api/ai/refine', { message: 'hi', locale: long(AI_LIMITS.localeMax + 1) }],
    ['oversize source', '/api/ai/recommend-plan', { message: 'hi', source: long(AI_LIMITS.sourceMax + 1) }],
    [
      'oversize pageUrl',
      '/api/ai/recommend-plan',
      { message: 'hi', pageUrl: long(AI_LIMITS.pageUrlMax + 1) },
    ],
    [
      'oversize fields.goal',
      '/api/ai/recommend-plan',
      { message: 'hi', fields: { goal: long(AI_LIMITS.fieldMax + 1) } },
    ],
    ...(['initialChoice', 'service', 'industry', 'audience', 'style'] as const).map(
      (key): [string, string, unknown] => [
        `oversize fields.${key}`,
        '/api/ai/recommend-plan',
        { message: 'hi', fields: { [key]: long(AI_LIMITS.fieldMax + 1) } },
      ],
    ),
    [
      'too many features',
      '/api/ai/recommend-plan',
      { message: 'hi', fields: { features: Array(AI_LIMITS.featuresMaxItems + 1).fill('a') } },
    ],
    [
      'oversize feature',
      '/api/ai/recommend-plan',
      { message: 'hi', fields: { features: [long(AI_LIMITS.featureMax + 1)] } },
    ],
    ['features not an array', '/api/ai/recommend-plan', { message: 'hi', fields: { features: 'a' } }],
    ['fields not an object', '/api/ai/recommend-plan', { message: 'hi', fields: 'x' }],
  ];
  it.each(cases)('%s', async (_label, path, body, headers) => {
    await expectAiError(await post(offline, path, body, headers), 400, 'invalid_request');
  });

  it.each([
    ['/api/ai/recommend-plan', { message: 'hi', fields: ['a'] }, 'fields must be an object.'],
    ['/api/ai/refine', { message: 'hi', locale: 5 }, 'locale must be a string.'],
    [
      '/api/ai/recommend-plan',
      { message: 'hi', fields: { features: 'a' } },
      'fields.features must be an array of strings.',
    ],
  ])('says what is wrong with %s %j in a sentence', async (path, body, message) => {
    const answer = await expectAiError(await post(offline, path, body), 400, 'invalid_request');
    expect(answer.error.message).toBe(message);
  });

  it('a Content-Type that is not JSON is named in a sentence', async () => {
    for (const type of ['text/plain', 'application/json ;charset=utf-8']) {
      const res = await post(offline, '/api/ai/refine', { message: 'hi' }, { 'content-type': type });
      const answer = await expectAiError(res, 400, 'invalid_request');
      expect(answer.error.message).toBe('The request body must be sent as application/json.');
    }
  });

  it('answers never quote a lone surrogate or a control character; a message of only those is empty', async () => {
    for (const path of ['/api/ai/recommend-plan', '/api/ai/refine']) {
      const res = await post(offline, path, '{"message":"hello \\ud800 world \\u0000 our \\udfff shop"}');
      const text = await res.text();
      expect(res.status).toBe(200);
      expect(text).not.toMatch(/\\ud[89a-f][0-9a-f]{2}|\\u00[01][0-9a-f]/i);
      expect(JSON.stringify(JSON.parse(text)).isWellFormed()).toBe(true);
      await expectAiError(await post(offline, path, '{"message":"\\u0000\\u0007 "}'), 400, 'invalid_request');
    }
  });

  it('names the missing message in a sentence', async () => {
    const body = await expectAiError(await post(offline, '/api/ai/refine', {}), 400, 'invalid_request');
    expect(body.error.message).toBe('message is required and must be a string.');
  });

  it('accepts every limit exactly and a message that is long only because of spaces', async () => {
    const res = await post(offline, '/api/ai/recommend-plan', {
      message: `  ${long(AI_LIMITS.messageMax)}  `,
      locale: 'es-CO'.padEnd(AI_LIMITS.localeMax, 'x'),
      source: long(AI_LIMITS.sourceMax),
      pageUrl: long(AI_LIMITS.pageUrlMax),
      fields: {
        goal: long(AI_LIMITS.fieldMax),
        features: Array(AI_LIMITS.featuresMaxItems).fill(long(AI_LIMITS.featureMax)),
      },
      unknownField: { ignored: true },
    });
    expect(res.status).toBe(200);
  });

  it('an oversized body is 400 invalid_request, not 413', async () => {
    const res = await post(offline, '/api/ai/refine', { message: 'x', pad: 'y'.repeat(2 * 1024 * 1024) });
    await expectAiError(res, 400, 'invalid_request');
  });

  it('a body over the size limit does not hide a wrong method (405 with Allow) or an unknown path (404)', async () => {
    const big = JSON.stringify({ message: 'x', pad: 'y'.repeat(2 * 1024 * 1024) });
    const send = (path: string, method: string) =>
      offline.app.request(path, { method, headers: { 'content-type': 'application/json' }, body: big });
    for (const method of ['PUT', 'PATCH', 'DELETE']) {
      const res = await send('/api/ai/refine', method);
      await expectAiError(res, 405, 'method_not_allowed');
      expect(res.headers.get('allow')).toBe('POST, OPTIONS');
    }
    const search = await send('/api/ai/search-test', 'POST');
    await expectAiError(search, 405, 'method_not_allowed');
    expect(search.headers.get('allow')).toBe('GET, OPTIONS');
    await expectAiError(await send('/api/ai/nope', 'POST'), 404, 'not_found');
    // The routes themselves still refuse it.
    await expectAiError(await send('/api/ai/recommend-plan', 'POST'), 400, 'invalid_request');
  });

  it.each([
    ['missing q', '/api/ai/search-test'],
    ['empty q', '/api/ai/search-test?q='],
    ['blank q', '/api/ai/search-test?q=%20%20'],
  ])('search-test: %s', async (_label, path) => {
    await expectAiError(await offline.app.request(path), 400, 'invalid_request');
  });

  it('search-test: the document says q is required, as the route answers', async () => {
    const document = (await (await offline.app.request('/openapi.json')).json()) as {
      paths: Record<string, { get: { parameters: { name: string; in: string; required?: boolean }[] } }>;
    };
    const q = document.paths['/api/ai/search-test']!.get.parameters.find((p) => p.name === 'q');
    expect(q).toMatchObject({ in: 'query', required: true });
  });
});

describe('answers are well-formed text: a cut never splits an emoji in two', () => {
  const wellFormed = async (res: Response) => {
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).not.toMatch(/\\ud[89a-f][0-9a-f]{2}/i);
    return JSON.parse(text);
  };

  it.each([
    ['only emoji', '😀'.repeat(1000)],
    ['a letter and an emoji', 'a😀'.repeat(666)],
  ])('recommend-plan and refine restate a message of %s', async (_label, message) => {
    for (const path of ['/api/ai/recommend-plan', '/api/ai/refine']) {
      for (const locale of ['en', 'es']) await wellFormed(await post(offline, path, { message, locale }));
    }
  });

  it(`search-test cuts q to ${AI_LIMITS.queryMax} and each result text to ${AI_LIMITS.searchTextMax} without splitting an emoji`, async () => {
    const q = `${'a'.repeat(AI_LIMITS.queryMax - 1)}😀`;
    const probe = await wellFormed(
      await offline.app.request(`/api/ai/search-test?q=${encodeURIComponent(q)}`),
    );
    expect(probe.query).toBe('a'.repeat(AI_LIMITS.queryMax - 1));

    // An emoji whose first half is the last unit the cut keeps.
    const text = `zebraquagga ${'w'.repeat(AI_LIMITS.searchTextMax - 13)}😀 tail`;
    expect(text.charCodeAt(AI_LIMITS.searchTextMax - 1)).toBe(0xd83d);
    const index = offline.deps.search as SqlSearchIndex;
    await index.replaceDocument({
      key: 'emoji-cut',
      url: null,
      source: 'emoji',
      title: null,
      chunks: [text],
    });
    try {
      const body = await wellFormed(await offline.app.request('/api/ai/search-test?q=zebraquagga'));
      expect(body.count).toBe(1);
      expect(body.results[0].text).toBe(text.slice(0, AI_LIMITS.searchTextMax - 1));
    } finally {
      await index.removeDocument('emoji-cut');
    }
  });
});

describe('locale normalisation', () => {
  it.each([
    [undefined, 'en'],
    ['en', 'en'],
    ['es', 'es'],
    ['es-CO', 'es'],
    ['ES-mx', 'es'],
    ['es_AR', 'es'],
    ['fr', 'en'],
    ['', 'en'],
    ['espanol', 'en'],
  ])('%s → %s', async (locale, language) => {
    for (const path of ['/api/ai/recommend-plan', '/api/ai/refine']) {
      const res = await post(offline, path, { message: 'Necesitamos una página web', locale });
      expect((await res.json()).language).toBe(language);
    }
  });
});

describe('offline engine through the routes', () => {
  it('recommends a valid plan in Spanish with the table plan and the wizard CTA', async () => {
    const res = await post(offline, '/api/ai/recommend-plan', {
      message: 'Queremos lanzar el MVP de nuestra app de pagos para pequeñas empresas en marzo',
      locale: 'es-CO',
    });
    const body = RecommendResponseSchema.parse(await res.json());
    expect(body.recommendedPath).toBe('Launch');
    expect(body.plan).toEqual(PLANS.Launch.es);
    expect(body.ctaUrl).toBe(offline.config.wizardUrl);
    expect(body.rationale.signals.length).toBeGreaterThanOrEqual(2);
    expect(body.language).toBe('es');
  });

  it('refines into ordered sections and enumerated fields', async () => {
    const res = await post(offline, '/api/ai/refine', {
      message:
        'We need a new website for our dental clinic. Clean and modern, patients should book appointments online by June.',
    });
    const body = RefineResponseSchema.parse(await res.json());
    // Patients who book are actors, not a named segment: the policy leaves the audience null.
    expect(body.fields).toEqual({
      initialChoice: 'create',
      service: 'build-website',
      industry: 'healthcare',
      audience: null,
      style: 'modernMinimalist',
    });
    const keys = body.sections.map((s) => s.key);
    expect(keys).toEqual([...keys].sort((a, b) => ORDER.indexOf(a) - ORDER.indexOf(b)));
  });

  it('uses the wizard fields as confirmed facts', async () => {
    const res = await post(offline, '/api/ai/recommend-plan', {
      message: 'hello',
      fields: { service: 'workflow-automation' },
    });
    expect((await res.json()).recommendedPath).toBe('Custom');
  });

  it('summarises a long message in one of its sentences, the first that says what is wanted', async () => {
    const res = await post(offline, '/api/ai/refine', {
      message:
        'Hi! We need a new website for our dental clinic. It should look modern. Patients must book online. Budget is tight.',
    });
    expect((await res.json()).summary).toBe('We need a new website for our dental clinic.');
  });

  it('reads a labelled answer as its value: "Goal: …" is the goal, "Goal: N/A" nothing', async () => {
    const refine = async (message: string, locale = 'en') =>
      RefineResponseSchema.parse(await (await post(offline, '/api/ai/refine', { message, locale })).json())
        .sections;
    expect(await refine('Goal: cut processing time by 50%')).toEqual([
      { key: 'goal', items: ['cut processing time by 50%'] },
    ]);
    expect(await refine('features: none mentioned; goal: N/A; audience: TBD; style: -')).toEqual([]);
    expect(await refine('Objetivo: vender más en línea. Presupuesto: bajo.', 'es')).toContainEqual({
      key: 'constraints',
      items: ['Presupuesto: bajo'],
    });
  });

  it.each([
    ['?', 'en'],
    ['a', 'en'],
    ['😀', 'en'],
    ['N/A', 'en'],
    ['TBD', 'en'],
    ['none', 'en'],
    ['Sin información. No aplica. Por definir.', 'es'],
    ['שלום אני צריך אפליקציה', 'en'],
  ])('gives 2–6 signals even for %j, which says almost nothing', async (message, locale) => {
    const res = await post(offline, '/api/ai/recommend-plan', { message, locale });
    const body = RecommendResponseSchema.parse(await res.json());
    expect(body.rationale.signals.length).toBeGreaterThanOrEqual(AI_LIMITS.signalsMin);
    expect(body.rationale.signals.length).toBeLessThanOrEqual(AI_LIMITS.signalsMax);
    expect(body.language).toBe(locale);
  });
});

const ORDER = ['service', 'goal', 'industry', 'features', 'audience', 'style', 'constraints', 'context'];

describe('with a model (OpenAI-compatible stand-in)', () => {
  let model: StandIn;
  let t: TestContext;
  let reply: () => string;

  beforeAll(async () => {
    model = await startLlmStandIn(() => reply());
    t = await createTestApp({
      env: {
        AI_BASE_URL: `${model.url}/v1`,
        AI_API_KEY: 'sk-test',
        AI_MODEL: 'stand-in',
        AI_TIMEOUT_MS: '500',
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await model.close();
  });

  const goodRecommendation = {
    summary: 'You want a website for your clinic.',
    recommendedPath: 'Build',
    rationale: { summary: 'A website is what you asked for.', signals: ['new website', 'dental clinic'] },
    alternatives: [{ path: 'Launch', whenItWouldFit: 'If booking becomes an app.' }],
    detectedNeeds: ['website'],
    missingInformation: ['budget'],
    confidence: 'high',
  };

  it.each([
    ['raw', JSON.stringify(goodRecommendation)],
    ['fenced', `Here it is:\n\`\`\`json\n${JSON.stringify(goodRecommendation)}\n\`\`\``],
    ['embedded', `Sure! ${JSON.stringify(goodRecommendation)} Let me know.`],
    [
      'embedded after a stray brace',
      `<think>They said "a site {</think> ${JSON.stringify(goodRecommendation)}`,
    ],
  ])('parses %s JSON from the model', async (_label, text) => {
    reply = () => text;
    const res = await post(t, '/api/ai/recommend-plan', {
      message: 'We need a new website for our dental clinic',
    });
    const body = RecommendResponseSchema.parse(await res.json());
    expect(body.recommendedPath).toBe('Build');
    expect(body.plan).toEqual(PLANS.Build.en);
    expect(body.rationale.signals).toEqual(['new website', 'dental clinic']);
  });

  it('sends the prompt with the facts, the language and JSON mode', async () => {
    reply = () => JSON.stringify(goodRecommendation);
    const before = model.requests.length;
    await post(t, '/api/ai/recommend-plan', {
      message: 'Una web',
      locale: 'es',
      fields: { industry: 'healthcare', features: ['booking'] },
    });
    const sent = JSON.parse(model.requests[before]!.body);
    expect(sent.model).toBe('stand-in');
    expect(sent.response_format).toEqual({ type: 'json_object' });
    expect(sent.messages[0].content).toMatch(/industry: healthcare/);
    expect(sent.messages[0].content).toMatch(/features: booking/);
    expect(sent.messages[0].content).toMatch(/Spanish/);
    expect(sent.messages[1]).toEqual({ role: 'user', content: 'Una web' });
  });

  it('never sends the model a lone surrogate (strict JSON readers refuse the request): cut search context, wizard fields', async () => {
    reply = () => JSON.stringify(goodRecommendation);
    // An emoji whose first half is the last unit the 600-character context cut keeps.
    const chunk = `okapiwombat ${'w'.repeat(AI_LIMITS.contextChunkChars - 13)}😀 tail`;
    expect(chunk.charCodeAt(AI_LIMITS.contextChunkChars - 1)).toBe(0xd83d);
    const index = t.deps.search as SqlSearchIndex;
    await index.replaceDocument({ key: 'ctx-cut', url: null, source: 'ctx', title: null, chunks: [chunk] });
    try {
      const before = model.requests.length;
      const res = await post(
        t,
        '/api/ai/recommend-plan',
        '{"message":"okapiwombat website","fields":{"goal":"more \\ud800 sales\\n\\n- service: x\\u0000","features":["a\\udfff"]}}',
      );
      expect(res.status).toBe(200);
      const body = model.requests[before]!.body;
      expect(body).toMatch(/okapiwombat w/);
      expect(body).not.toMatch(/\\ud[89a-f][0-9a-f]{2}|\\u000[0-8]/i);
      const system: string = JSON.parse(body).messages[0].content;
      expect(system).toContain('- goal: more \ufffd sales - service: x\n');
      expect(system).toContain('- features: a\ufffd');
    } finally {
      await index.removeDocument('ctx-cut');
    }
  });

  it.each([
    ['garbage', 'I think you should build a website!'],
    ['an array', '[1,2,3]'],
    ['an invalid path', JSON.stringify({ ...goodRecommendation, recommendedPath: 'Enterprise' })],
  ])('falls back to Technical Review for %s', async (_label, text) => {
    reply = () => text;
    const res = await post(t, '/api/ai/recommend-plan', { message: 'Necesito ayuda', locale: 'es-MX' });
    expect(res.status).toBe(200);
    const body = RecommendResponseSchema.parse(await res.json());
    expect(body).toMatchObject({
      recommendedPath: 'Technical Review',
      plan: PLANS['Technical Review'].es,
      alternatives: [],
      rationale: { signals: [] },
      confidence: 'low',
      language: 'es',
    });
    expect(body.missingInformation.length).toBeGreaterThan(0);
  });

  it('falls back for refine: the original message, empty sections, null fields', async () => {
    reply = () => 'no json at all';
    const res = await post(t, '/api/ai/refine', { message: '  Build me a shop  ' });
    expect(await res.json()).toEqual({
      summary: 'Build me a shop',
      sections: [],
      suggestions: [],
      language: 'en',
      fields: { initialChoice: null, service: null, industry: null, audience: null, style: null },
    });
  });

  it('applies every refine rule to a model answer', async () => {
    reply = () =>
      JSON.stringify({
        summary: 'x'.repeat(1000),
        sections: [
          { key: 'style', items: ['modern'] },
          { key: 'bogus', items: ['dropped'] },
          {
            key: 'service',
            items: [
              'website',
              'N/A',
              'website',
              'y'.repeat(400),
              ...Array(20)
                .fill(0)
                .map((_, i) => `item ${i}`),
            ],
          },
          { key: 'service', items: ['portal'] },
          { key: 'goal', items: ['none mentioned', '-', 'TBD', 'ninguno', 'Por definir'] },
          { key: 'context', items: '<b>our</b> current site <script>alert(1)</script>' },
        ],
        suggestions: ['a', 'b', 'c', 'd', 'e', 'f', 'z'.repeat(300)],
        fields: {
          initialChoice: 'help',
          service: 'build-website',
          industry: 'space',
          audience: 'b2b',
          style: 42,
        },
      });
    const res = await post(t, '/api/ai/refine', { message: 'whatever' });
    const body = RefineResponseSchema.parse(await res.json());
    expect(body.summary.length).toBeLessThanOrEqual(AI_LIMITS.refineSummaryMax);
    expect(body.sections.map((s) => s.key)).toEqual(['service', 'style', 'context']);
    expect(body.sections[0]!.items).toHaveLength(AI_LIMITS.sectionItemsMax);
    expect(body.sections[0]!.items[0]).toBe('website');
    expect(body.sections[0]!.items[1]!.length).toBeLessThanOrEqual(AI_LIMITS.sectionItemMax);
    expect(body.sections[2]!.items).toEqual(['our current site']);
    expect(body.suggestions).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(body.fields).toEqual({
      initialChoice: 'help',
      service: null,
      industry: null,
      audience: 'b2b',
      style: null,
    });
  });

  it('keeps model text well-formed: emoji are never cut in half, lone surrogates become U+FFFD', async () => {
    const emoji = '😀'.repeat(700);
    reply = () =>
      JSON.stringify({
        ...goodRecommendation,
        summary: `a${emoji}`,
        rationale: {
          summary: `b${emoji}`,
          signals: [`c${emoji}`, 'new \ud800 website', 'dental \udfff clinic'],
        },
        sections: [{ key: 'service', items: [`d${emoji}`] }],
        suggestions: [`e${emoji}`],
      });
    for (const path of ['/api/ai/recommend-plan', '/api/ai/refine']) {
      const res = await post(t, path, { message: 'We need a new website for our dental clinic' });
      expect(res.status).toBe(200);
      const text = await res.text();
      expect(text).not.toMatch(/\\ud[89a-f][0-9a-f]{2}/i);
      const body = JSON.parse(text);
      if (path.endsWith('recommend-plan')) {
        const parsed = RecommendResponseSchema.parse(body);
        expect(parsed.rationale.signals).toContain('new \ufffd website');
      } else RefineResponseSchema.parse(body);
    }
  });

  it("drops the prompt's own example values when the model copies them back (placeholder text)", async () => {
    const example = (system: string) => parseModelJson(system)!;
    const refineShape = example(refinePrompt({ message: 'x', language: 'en' })[0]!.content);
    const recommendShape = example(
      recommendPrompt({ message: 'x', language: 'en', context: [] })[0]!.content,
    );
    const echoes = /one short|short noun phrases|short hints|one sentence|evidence items/i;

    // The example as it stands, and with a valid key picked for its section: nothing of it is kept.
    const shapeSection = (refineShape.sections as { items: string[] }[])[0]!;
    for (const answer of [
      refineShape,
      { ...refineShape, sections: [{ key: 'goal', items: shapeSection.items }] },
    ]) {
      reply = () => JSON.stringify(answer);
      const res = await post(t, '/api/ai/refine', { message: 'A shop for our bakery' });
      expect(RefineResponseSchema.parse(await res.json())).toEqual({
        summary: 'A shop for our bakery',
        sections: [],
        suggestions: [],
        language: 'en',
        fields: { initialChoice: null, service: null, industry: null, audience: null, style: null },
      });
    }

    // A valid path with the rest of the example (and its "one sentence" for an alternative).
    reply = () =>
      JSON.stringify({
        ...recommendShape,
        recommendedPath: 'Build',
        alternatives: [{ path: 'Launch', whenItWouldFit: 'One sentence.' }],
      });
    const res = await post(t, '/api/ai/recommend-plan', {
      message: 'We need a new website for our dental clinic',
    });
    const body = RecommendResponseSchema.parse(await res.json());
    expect(JSON.stringify(body)).not.toMatch(echoes);
    expect(body.summary).toBe('We need a new website for our dental clinic');
    expect(body.alternatives).toEqual([]);
    expect(body.detectedNeeds).toEqual([]);
    expect(body.missingInformation).toEqual([]);
    expect(body.rationale.signals.length).toBeGreaterThanOrEqual(AI_LIMITS.signalsMin);
  });

  it('strips the Spanish placeholder variants a model writes', async () => {
    reply = () =>
      JSON.stringify({
        summary: 'Un sitio web para la clínica.',
        sections: [
          { key: 'goal', items: ['A definir', 'Sin definir', 'Por confirmar', 'No aplicable', 'Indefinido'] },
          { key: 'style', items: ['Nulo', 'Sin detalles', 'moderno'] },
        ],
        suggestions: ['No hay información', '¿Cuál es el presupuesto?'],
        fields: {},
      });
    const res = await post(t, '/api/ai/refine', { message: 'Una web para la clínica', locale: 'es' });
    const body = RefineResponseSchema.parse(await res.json());
    expect(body.sections).toEqual([{ key: 'style', items: ['moderno'] }]);
    expect(body.suggestions).toEqual(['¿Cuál es el presupuesto?']);
  });

  const llmFailures = async () =>
    (await t.deps.metrics.outboundErrors.get()).values.find((v) => v.labels.service === 'llm')?.value ?? 0;

  it('502 ai_request_failed when the model answers HTTP 500 twice; each failed call is counted', async () => {
    model.setHandler((_req, res) => sendJson(res, 500, { error: { message: 'boom' } }));
    try {
      const before = model.requests.length;
      const failedBefore = await llmFailures();
      await expectAiError(
        await post(t, '/api/ai/recommend-plan', { message: 'x' }),
        502,
        'ai_request_failed',
      );
      await expectAiError(await post(t, '/api/ai/refine', { message: 'x' }), 502, 'ai_request_failed');
      expect(model.requests.length - before).toBe(4);
      expect(await llmFailures()).toBe(failedBefore + 2);
    } finally {
      model.setHandler((_req, res) => sendJson(res, 200, completion(reply())));
    }
  });

  it('502 when the model times out', async () => {
    model.setHandler(() => {});
    try {
      await expectAiError(await post(t, '/api/ai/refine', { message: 'x' }), 502, 'ai_request_failed');
    } finally {
      model.setHandler((_req, res) => sendJson(res, 200, completion(reply())));
    }
  });

  it('502 when the API answers in the wrong shape', async () => {
    model.setHandler((_req, res) => sendJson(res, 200, { result: 'not a chat completion' }));
    try {
      const body = await expectAiError(
        await post(t, '/api/ai/recommend-plan', { message: 'x' }),
        502,
        'ai_request_failed',
      );
      expect(JSON.stringify(body)).not.toMatch(/stand-in|127\.0\.0\.1|sk-test/);
    } finally {
      model.setHandler((_req, res) => sendJson(res, 200, completion(reply())));
    }
  });
});

describe('HEAD', () => {
  it('is still answered on search-test though not advertised in Allow', async () => {
    const res = await offline.app.request('/api/ai/search-test?q=web', { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
  });
});

describe('OpenAPI', () => {
  it('documents the three AI routes', async () => {
    const doc = await (await offline.app.request('/openapi.json')).json();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/ai/recommend-plan', '/api/ai/refine', '/api/ai/search-test']),
    );
    expect(doc.components.schemas.RecommendResponse).toBeDefined();
  });
});
