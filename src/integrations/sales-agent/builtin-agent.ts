import type { Logger } from 'pino';
import type { SearchHit, SearchIndex } from '../../search/search-index.ts';
import type { LlmClient } from '../llm/llm-client.ts';
import { type AnswerLanguage, answerLanguage } from './language.ts';
import { SALES_AGENT_LIMITS } from './limits.ts';
import type { AgentEvent, AgentQuery, HistoryMessage, SalesAgent } from './sales-agent.ts';

/** Where the built-in agent finds its knowledge; read at each question (the deps object fits). */
export interface BuiltinAgentSources {
  readonly search?: SearchIndex | null;
  readonly llm?: LlmClient | null;
}

export interface BuiltinAgentOptions {
  sources: BuiltinAgentSources;
  wizardUrl: string;
  logger?: Logger;
  /** How many chunks of the index ground an answer. */
  maxChunks?: number;
  maxDurationMs?: number;
}

/** A chunk the answer may cite, numbered as the model and the visitor see it (`[1]`, `[2]` …). */
export interface CitedChunk {
  ref: number;
  source: string;
  title: string | null;
  url: string | null;
  score: number;
}

const SEARCH_QUERY_CHARS = 1000;
const EXCERPT_CHARS = 280;
const LLM_MAX_TOKENS = 700;

const OFFLINE_TEXT: Record<
  AnswerLanguage,
  { intro: string; none: string; honesty: string; wizard: (url: string) => string }
> = {
  en: {
    intro: 'Here is what our published material says about that:',
    none: "I couldn't find anything about that in our published material, and I'd rather not guess.",
    honesty: "I'm the site's automatic assistant and can only quote what we have published.",
    wizard: (url) =>
      `For a recommendation and an estimate tailored to your project, start the project wizard: ${url}`,
  },
  es: {
    intro: 'Esto es lo que dice nuestro material publicado al respecto:',
    none: 'No encontré nada sobre eso en nuestro material publicado y prefiero no adivinar.',
    honesty: 'Soy el asistente automático del sitio y solo puedo citar lo que hemos publicado.',
    wizard: (url) =>
      `Para una recomendación y un presupuesto a la medida de tu proyecto, empieza el asistente de proyecto: ${url}`,
  },
};

function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= EXCERPT_CHARS) return flat;
  const cut = flat.slice(0, EXCERPT_CHARS);
  const sentenceEnd = Math.max(cut.lastIndexOf('. '), cut.lastIndexOf('? '), cut.lastIndexOf('! '));
  if (sentenceEnd > EXCERPT_CHARS / 2) return cut.slice(0, sentenceEnd + 1);
  return `${cut.slice(0, cut.lastIndexOf(' ') > 0 ? cut.lastIndexOf(' ') : cut.length)}…`;
}

function cite(hits: SearchHit[]): CitedChunk[] {
  return hits.map((hit, i) => ({
    ref: i + 1,
    source: hit.source,
    title: hit.title,
    url: hit.url,
    score: hit.score,
  }));
}

/** Splits text into word-sized tokens that concatenate back to exactly the text. */
function* wordTokens(text: string): Generator<string> {
  for (const match of text.matchAll(/\s*\S+/g)) yield match[0];
}

function systemPrompt(language: string | null, wizardUrl: string, hits: SearchHit[]): string {
  const context = hits.length
    ? hits.map((hit, i) => `[${i + 1}] ${hit.title ?? hit.source}\n${hit.text.trim()}`).join('\n\n')
    : '(nothing relevant was found)';
  return [
    "You are the sales assistant on a software agency's website. You help visitors understand what the",
    'agency builds (websites, web and mobile applications, e-commerce, AI features), how projects work,',
    'and which next step fits them. Be warm, concise and concrete; a few short paragraphs at most.',
    'Ground every factual claim about the agency in the numbered context below and cite it as [n].',
    'If the context does not cover the question, say so honestly; never invent prices, dates, clients',
    `or guarantees. For a tailored plan and estimate, point the visitor to the project wizard: ${wizardUrl}`,
    language
      ? `Answer in the visitor's language (browser language: ${language}).`
      : "Answer in the language of the visitor's message.",
    '',
    'Context:',
    context,
  ].join('\n');
}

/**
 * The agent that answers when no sales-agent backend is configured: it retrieves chunks from the
 * search index and answers with the language model when one is configured, or offline by quoting the
 * best chunks and pointing to the wizard. It streams tokens like the relay and cites the chunks it
 * used in `metadata.sources`.
 */
export class BuiltinSalesAgent implements SalesAgent {
  readonly kind = 'builtin' as const;
  readonly #options: BuiltinAgentOptions;

  constructor(options: BuiltinAgentOptions) {
    this.#options = options;
  }

  ask(query: AgentQuery): AsyncIterable<AgentEvent> {
    return this.#answer(query);
  }

  async history(): Promise<HistoryMessage[] | null> {
    // The built-in agent keeps no memory of its own: the persisted history is the whole story.
    return null;
  }

  async #retrieve(query: string): Promise<SearchHit[]> {
    const index = this.#options.sources.search;
    if (!index) return [];
    try {
      return await index.search(query.slice(0, SEARCH_QUERY_CHARS), {
        limit: this.#options.maxChunks ?? 4,
      });
    } catch (error) {
      this.#options.logger?.warn({ err: error }, 'search failed; answering without context');
      return [];
    }
  }

  async *#answer(query: AgentQuery): AsyncGenerator<AgentEvent> {
    const hits = await this.#retrieve(query.query);
    if (query.signal.aborted) return;
    const language = answerLanguage(query.language, query.query);
    const llm = this.#options.sources.llm;
    let fallbackReason: string | undefined;
    if (llm) {
      const outcome = yield* this.#answerWithModel(llm, query, hits, language);
      if (outcome === 'finished') return;
      fallbackReason = 'language model unavailable';
    }
    yield* this.#answerOffline(query, hits, language, fallbackReason);
  }

  async *#answerWithModel(
    llm: LlmClient,
    query: AgentQuery,
    hits: SearchHit[],
    language: AnswerLanguage,
  ): AsyncGenerator<AgentEvent, 'finished' | 'fallback'> {
    const maxDurationMs = this.#options.maxDurationMs ?? SALES_AGENT_LIMITS.maxDurationMs;
    const signal = AbortSignal.any([query.signal, AbortSignal.timeout(maxDurationMs)]);
    const parts: string[] = [];
    let chars = 0;
    try {
      const deltas = llm.stream({
        messages: [
          { role: 'system', content: systemPrompt(query.language, this.#options.wizardUrl, hits) },
          { role: 'user', content: query.query },
        ],
        maxTokens: LLM_MAX_TOKENS,
        temperature: 0.3,
        signal,
      });
      for await (const delta of deltas) {
        if (query.signal.aborted) return 'finished';
        if (delta === '') continue;
        chars += delta.length;
        if (chars > SALES_AGENT_LIMITS.maxAnswerChars) {
          yield {
            type: 'error',
            reason: 'answer_too_long',
            message: 'The answer was too long and was stopped.',
          };
          return 'finished';
        }
        parts.push(delta);
        yield { type: 'token', content: delta };
      }
    } catch (error) {
      if (query.signal.aborted) return 'finished';
      this.#options.logger?.warn({ err: error }, 'language model failed in the built-in agent');
      if (parts.length === 0) return 'fallback';
      yield { type: 'error', reason: 'internal', message: 'The answer was interrupted; please try again.' };
      return 'finished';
    }
    if (parts.length === 0) return 'fallback';
    const content = parts.join('');
    const all = cite(hits);
    const referenced = new Set([...content.matchAll(/\[(\d{1,2})\]/g)].map((m) => Number(m[1])));
    const used = all.filter((chunk) => referenced.has(chunk.ref));
    yield {
      type: 'done',
      content,
      metadata: {
        agent: 'builtin',
        engine: 'llm',
        model: llm.model,
        language: query.language ?? language,
        sources: used.length > 0 ? used : all,
        wizardUrl: this.#options.wizardUrl,
      },
    };
    return 'finished';
  }

  async *#answerOffline(
    query: AgentQuery,
    hits: SearchHit[],
    language: AnswerLanguage,
    fallbackReason: string | undefined,
  ): AsyncGenerator<AgentEvent> {
    const text = OFFLINE_TEXT[language];
    const used = hits.slice(0, 3);
    const paragraphs = used.length
      ? [
          text.intro,
          used.map((hit, i) => `- ${hit.title ?? hit.source}: ${excerpt(hit.text)} [${i + 1}]`).join('\n'),
          `${text.honesty} ${text.wizard(this.#options.wizardUrl)}`,
        ]
      : [`${text.none} ${text.honesty}`, text.wizard(this.#options.wizardUrl)];
    const content = paragraphs.join('\n\n');
    for (const token of wordTokens(content)) {
      if (query.signal.aborted) return;
      yield { type: 'token', content: token };
    }
    yield {
      type: 'done',
      content,
      metadata: {
        agent: 'builtin',
        engine: 'offline',
        language,
        sources: cite(used),
        wizardUrl: this.#options.wizardUrl,
        ...(fallbackReason ? { fallbackReason } : {}),
      },
    };
  }
}
