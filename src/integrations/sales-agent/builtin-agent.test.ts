import { describe, expect, it } from 'vitest';
import type { SearchHit, SearchIndex } from '../../search/search-index.ts';
import type { CompletionRequest, LlmClient } from '../llm/llm-client.ts';
import { type BuiltinAgentSources, BuiltinSalesAgent } from './builtin-agent.ts';
import { answerLanguage } from './language.ts';
import type { AgentEvent } from './sales-agent.ts';

/** A tiny index: a chunk matches when it shares a word of four letters or more with the query. */
class WordIndex implements SearchIndex {
  readonly queries: string[] = [];
  readonly chunks: Omit<SearchHit, 'score'>[];
  constructor(chunks: Omit<SearchHit, 'score'>[]) {
    this.chunks = chunks;
  }
  async search(query: string, options: { limit?: number } = {}): Promise<SearchHit[]> {
    this.queries.push(query);
    const words = new Set(query.toLowerCase().match(/\p{L}{4,}/gu) ?? []);
    return this.chunks
      .map((chunk) => ({
        ...chunk,
        score: (chunk.text.toLowerCase().match(/\p{L}{4,}/gu) ?? []).filter((w) => words.has(w)).length,
      }))
      .filter((hit) => hit.score > 0)
      .sort((a, b) => b.score - a.score)
      .slice(0, options.limit ?? 10);
  }
}

const CHUNKS = [
  {
    source: 'https://agency.example/services/ecommerce',
    url: 'https://agency.example/services/ecommerce',
    title: 'Online stores',
    text: 'We build online stores on Shopify and custom stacks. A typical store launches in six to ten weeks.',
  },
  {
    source: 'https://agency.example/es/servicios/tiendas',
    url: 'https://agency.example/es/servicios/tiendas',
    title: 'Tiendas online',
    text: 'Construimos tiendas online a medida. Una tienda típica se lanza en seis a diez semanas.',
  },
  {
    source: 'faq.md',
    url: null,
    title: null,
    text: 'Maintenance plans cover updates, backups and monitoring for every website we build.',
  },
];

const WIZARD = 'https://agency.example/wizard';

/** A language model that streams the given deltas (or fails), recording what it was asked. */
class ScriptedModel implements LlmClient {
  readonly model = 'scripted-1';
  readonly requests: CompletionRequest[] = [];
  readonly deltas: string[];
  readonly failAfter: number | null;
  constructor(deltas: string[], failAfter: number | null = null) {
    this.deltas = deltas;
    this.failAfter = failAfter;
  }
  async complete(): Promise<string> {
    return this.deltas.join('');
  }
  async *stream(request: CompletionRequest): AsyncIterable<string> {
    this.requests.push(request);
    for (const [i, delta] of this.deltas.entries()) {
      if (this.failAfter === i) throw new Error('model went away');
      yield delta;
    }
    if (this.failAfter === this.deltas.length) throw new Error('model went away');
  }
}

async function collect(
  sources: BuiltinAgentSources,
  query: string,
  language: string | null = null,
): Promise<AgentEvent[]> {
  const agent = new BuiltinSalesAgent({ sources, wizardUrl: WIZARD });
  const events: AgentEvent[] = [];
  for await (const event of agent.ask({
    sessionId: 's',
    query,
    language,
    clientIp: null,
    signal: new AbortController().signal,
  })) {
    events.push(event);
  }
  return events;
}

function finalOf(events: AgentEvent[]) {
  const last = events.at(-1);
  if (last?.type !== 'done') throw new Error(`expected done, got ${JSON.stringify(last)}`);
  const tokens = events.slice(0, -1);
  expect(tokens.every((e) => e.type === 'token')).toBe(true);
  expect(tokens.map((e) => (e.type === 'token' ? e.content : '')).join('')).toBe(last.content);
  return last;
}

describe('the built-in agent, offline', () => {
  it('answers in English from the index, streaming tokens, citing the chunks and pointing to the wizard', async () => {
    const index = new WordIndex(CHUNKS);
    const events = await collect({ search: index }, 'How long does an online store take to build?');
    expect(events.length).toBeGreaterThan(10);
    const done = finalOf(events);
    expect(done.content).toContain('A typical store launches in six to ten weeks.');
    expect(done.content).toContain(WIZARD);
    expect(done.content).toMatch(/can only quote/);
    expect(done.metadata).toMatchObject({
      agent: 'builtin',
      engine: 'offline',
      language: 'en',
      wizardUrl: WIZARD,
    });
    const sources = done.metadata.sources as { ref: number; source: string; title: string | null }[];
    expect(sources[0]).toMatchObject({ ref: 1, title: 'Online stores', source: CHUNKS[0]!.source });
    expect(done.content).toContain('[1]');
  });

  it.each([
    ['the browser language', '¿Cuánto tardan en lanzar una tienda?', 'es-ES'],
    ['the words of the question', '¿Cuánto tardan en lanzar una tienda online?', null],
  ])('answers in Spanish from %s', async (_name, query, language) => {
    const done = finalOf(await collect({ search: new WordIndex(CHUNKS) }, query, language));
    expect(done.metadata.language).toBe('es');
    expect(done.content).toContain('Una tienda típica se lanza');
    expect(done.content).toContain('asistente de proyecto');
    expect(done.content).toContain(WIZARD);
  });

  it('says honestly when the index has nothing, and still points to the wizard', async () => {
    const done = finalOf(await collect({ search: new WordIndex(CHUNKS) }, 'quantum blockchain?'));
    expect(done.content).toMatch(/couldn't find anything/);
    expect(done.content).toContain(WIZARD);
    expect(done.metadata.sources).toEqual([]);
  });

  it('answers without an index, and when the index fails', async () => {
    expect(finalOf(await collect({}, 'Hola, ¿qué hacen?')).metadata.language).toBe('es');
    const broken: SearchIndex = {
      search: () => Promise.reject(new Error('index offline')),
    };
    expect(finalOf(await collect({ search: broken }, 'online store')).content).toContain(WIZARD);
  });

  it('stops streaming when the visitor leaves', async () => {
    const controller = new AbortController();
    const agent = new BuiltinSalesAgent({ sources: { search: new WordIndex(CHUNKS) }, wizardUrl: WIZARD });
    const events: AgentEvent[] = [];
    for await (const event of agent.ask({
      sessionId: 's',
      query: 'online stores',
      language: 'en',
      clientIp: null,
      signal: controller.signal,
    })) {
      events.push(event);
      if (events.length === 3) controller.abort();
    }
    expect(events).toHaveLength(3);
  });

  it('guesses the language of a question', () => {
    expect(answerLanguage(null, 'Necesito una página web para mi empresa')).toBe('es');
    expect(answerLanguage(null, 'I need a website for my company')).toBe('en');
    expect(answerLanguage('EN-us', '¿Hola?')).toBe('en');
    expect(answerLanguage('fr', 'Bonjour')).toBe('en');
  });
});

describe('the built-in agent, with a language model', () => {
  it('streams the model, grounded in the retrieved chunks, and cites the ones it used', async () => {
    const model = new ScriptedModel(['Stores take ', 'six to ten weeks [1]. ', 'Start here: ', WIZARD]);
    const done = finalOf(
      await collect(
        { search: new WordIndex(CHUNKS), llm: model },
        'How long for an online store? Maintenance?',
        'en',
      ),
    );
    expect(done.content).toBe(`Stores take six to ten weeks [1]. Start here: ${WIZARD}`);
    expect(done.metadata).toMatchObject({ engine: 'llm', model: 'scripted-1', language: 'en' });
    expect((done.metadata.sources as { ref: number }[]).map((s) => s.ref)).toEqual([1]);
    const [system, user] = model.requests[0]!.messages;
    expect(system!.role).toBe('system');
    expect(system!.content).toContain('A typical store launches in six to ten weeks.');
    expect(system!.content).toContain(WIZARD);
    expect(user).toEqual({ role: 'user', content: 'How long for an online store? Maintenance?' });
    expect(model.requests[0]!.signal).toBeInstanceOf(AbortSignal);
  });

  it('cites every chunk it was given when the model cites none', async () => {
    const done = finalOf(
      await collect({ search: new WordIndex(CHUNKS), llm: new ScriptedModel(['Sure.']) }, 'online store'),
    );
    expect((done.metadata.sources as unknown[]).length).toBeGreaterThan(0);
  });

  it('falls back to the offline answer when the model fails before answering', async () => {
    const done = finalOf(
      await collect({ search: new WordIndex(CHUNKS), llm: new ScriptedModel(['never'], 0) }, 'online store'),
    );
    expect(done.metadata).toMatchObject({ engine: 'offline', fallbackReason: 'language model unavailable' });
    expect(done.content).toContain(WIZARD);
  });

  it('ends with an error when the model fails mid-answer', async () => {
    const events = await collect({ llm: new ScriptedModel(['Half an ', 'answer'], 1) }, 'online store');
    expect(events).toEqual([
      { type: 'token', content: 'Half an ' },
      { type: 'error', reason: 'internal', message: 'The answer was interrupted; please try again.' },
    ]);
  });
});
