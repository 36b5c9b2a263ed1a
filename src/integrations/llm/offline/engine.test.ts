import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { AI_TUNING_SETS, messagesOf, readAiSet } from '../../../../eval/sets.ts';
import { AI_LIMITS } from '../../../features/ai/limits.ts';
import { RecommendResponseSchema, RefineResponseSchema } from '../../../features/ai/schemas.ts';
import { recommendPlan, refineMessage } from '../../../features/ai/service.ts';
import { engineModel } from './engine.ts';
import { readMessage } from './model.ts';
import { isSingleVerb, isTraceable, mentionsMoney } from './phrases.ts';
import { predictSections } from './sections.ts';
import { purposeClauses, tagTokens } from './tagger.ts';
import { fold, fragments } from './text.ts';

const messages = AI_TUNING_SETS.flatMap((name) => messagesOf(readAiSet(name)));
const ctx = {
  llm: null,
  search: { search: async () => [] },
  wizardUrl: 'https://site.test/wizard',
  logger: pino({ level: 'silent' }),
};
const folded = (text: string) => ` ${fold(text).replace(/\s+/g, ' ').trim()} `;

describe('offline engine on every tuning message', () => {
  it.each(messages.map((c) => [c.id, c] as const))(
    '%s answers within the documented schema',
    async (_id, c) => {
      const recommendation = RecommendResponseSchema.parse(
        await recommendPlan({ message: c.message, locale: c.locale }, ctx),
      );
      expect(recommendation.language).toBe(c.locale.startsWith('es') ? 'es' : 'en');
      expect(recommendation.rationale.signals.length).toBeGreaterThanOrEqual(AI_LIMITS.signalsMin);
      if (recommendation.recommendedPath === 'Technical Review')
        expect(recommendation.confidence).toBe('low');
      // Signals are traceable to the visitor's words; detected needs are phrases of theirs, not verbs.
      for (const signal of recommendation.rationale.signals)
        expect(isTraceable(signal, c.message)).toBe(true);
      for (const need of recommendation.detectedNeeds) {
        expect(folded(c.message)).toContain(folded(need));
        expect(isSingleVerb(need)).toBe(false);
      }

      const refinement = RefineResponseSchema.parse(
        await refineMessage({ message: c.message, locale: c.locale }, ctx),
      );
      // The refine summary and every section item are the visitor's own words.
      expect(c.message.replace(/\s+/g, ' ').trim()).toContain(refinement.summary);
      for (const section of refinement.sections) {
        for (const item of section.items) expect(folded(c.message)).toContain(folded(item));
      }
    },
  );
});

describe('what counts as quoting the visitor', () => {
  const message = 'We want online ordering for our bakery, with delivery, and tengo como 500 lucas';
  it('a quote with a label or the message’s own words around it; never a statement wrapped around one', () => {
    expect(isTraceable('online ordering', message)).toBe(true);
    expect(isTraceable('Message: “online ordering for our bakery”', message)).toBe(true);
    expect(isTraceable('Mentions “online ordering” and delivery', message)).toBe(true);
    expect(isTraceable('“online ordering”: no project, goal or feature named yet', message)).toBe(false);
    expect(isTraceable('“for our bakery”: aún no nombra un proyecto', message)).toBe(false);
    expect(isTraceable('“online ordering for pizza”', message)).toBe(false);
    expect(isTraceable('The message gives few details about the project.', message)).toBe(false);
  });

  it('reads a budget in regional words with an amount', () => {
    for (const text of [
      'tengo como 500 lucas',
      'unos 2 palos',
      'hasta 300 pavos',
      '1000 dólares',
      '20 mil de lana',
    ]) {
      expect(mentionsMoney(text), text).toBe(true);
    }
    for (const text of ['los palos de golf', 'lana merino', 'dos lucas'])
      expect(mentionsMoney(text), text).toBe(false);
  });
});

describe('offline engine answers', () => {
  it('is deterministic', async () => {
    const c = messages[0]!;
    const a = await recommendPlan({ message: c.message, locale: c.locale }, ctx);
    const b = await recommendPlan({ message: c.message, locale: c.locale }, ctx);
    expect(a).toEqual(b);
  });

  it('quotes a message that names little in its own words only, never a statement about it', async () => {
    const vague = await recommendPlan({ message: 'hi there' }, ctx);
    expect(vague.rationale.signals).toEqual(['hi', 'there']);
    const spanish = await recommendPlan({ message: 'hola', locale: 'es' }, ctx);
    expect(spanish.rationale.signals).toEqual(['hola', 'Mensaje: “hola”']);
    // One clause: the phrase that made its section is the second piece of evidence.
    const launch = await recommendPlan(
      { message: 'We need to launch our MVP before demo day in 5 weeks' },
      ctx,
    );
    expect(launch.rationale.signals).toEqual([
      'To launch our MVP before demo day in 5 weeks',
      'launch our MVP',
    ]);
    for (const answer of [vague, spanish, launch]) {
      for (const signal of answer.rationale.signals) {
        expect(signal).not.toMatch(/named yet|no nombra/);
      }
    }
  });

  it('does not ask for what the wizard confirmed, nor take a piece of a word for a need', async () => {
    const given = await recommendPlan(
      {
        message: 'we want to start soon',
        fields: {
          service: 'infrastructure-scale',
          industry: 'technology',
          audience: 'b2b',
          features: ['SSO'],
        },
      },
      ctx,
    );
    expect(given.missingInformation).not.toEqual(
      expect.arrayContaining([expect.stringMatching(/industry|audience|features/)]),
    );
    const spanish = await recommendPlan(
      { message: 'queremos empezar pronto', locale: 'es', fields: { industry: 'retail', audience: 'b2c' } },
      ctx,
    );
    expect(spanish.missingInformation.join(' ')).not.toMatch(/sector|público/);
    const slow = await recommendPlan({ message: "Our website is old and also it's slow." }, ctx);
    expect(slow.detectedNeeds).not.toContain('s slow');
  });

  it('lets the wizard answers decide when the text says nothing, and the text win when it says launch', async () => {
    const vague = await recommendPlan(
      { message: 'When can we talk?', fields: { service: 'workflow-automation' } },
      ctx,
    );
    expect(vague.recommendedPath).toBe('Custom');
    const launch = await recommendPlan(
      {
        message: 'It is an MVP for our investor demo day in March; we only need the core flow working.',
        fields: { service: 'build-website', initialChoice: 'create' },
      },
      ctx,
    );
    expect(launch.recommendedPath).toBe('Launch');
  });

  it('does not ask for what the message said', async () => {
    const out = await recommendPlan(
      {
        message:
          'We need a new website for our bakery with online ordering, a menu and a photo gallery. Budget is $3,000 and it must be live by May.',
      },
      ctx,
    );
    expect(out.missingInformation).not.toContain('key features');
    expect(out.missingInformation).not.toContain('budget range');
    expect(out.missingInformation).not.toContain('timeline');
    expect(out.detectedNeeds.length).toBeGreaterThan(0);
  });

  it('reads a purpose clause as the goal, not the work asked for', () => {
    const goals = (message: string) => {
      const reading = readMessage(message);
      return predictSections(engineModel(), reading).spans.goal.map((s) => s.text);
    };
    expect(goals('We are a school club and want an app for pupils to swap second-hand textbooks.')).toEqual([
      'swap second-hand textbooks',
    ]);
    expect(
      goals('Somos una ONG. Queremos una web nueva para recibir donaciones desde el extranjero.'),
    ).toEqual(['recibir donaciones desde el extranjero']);
    expect(purposeClauses('We want to build a website.', tagTokens('We want to build a website.'))).toEqual(
      [],
    );
    expect(purposeClauses('Move it to the cloud.', tagTokens('Move it to the cloud.'))).toEqual([]);
    expect(purposeClauses('¿Qué tecnología usar?', tagTokens('¿Qué tecnología usar?'))).toEqual([]);
    expect(
      purposeClauses('Seria, que transmita confianza.', tagTokens('Seria, que transmita confianza.')),
    ).toEqual([[2, 3]]);
  });

  it('reads software architecture as no sector, and an architecture firm as `other`', async () => {
    const industry = async (message: string) => (await refineMessage({ message }, ctx)).fields.industry;
    for (const message of [
      'We need an architecture review of our platform.',
      'Should we rewrite our app in React or keep the PHP stack? We need an architecture review.',
      'Buscamos asesoria sobre la arquitectura de nuestro sistema de pagos.',
    ]) {
      expect(await industry(message), message).toBeNull();
    }
    for (const message of [
      'We are an architecture firm in Leeds and need a new portfolio website.',
      'Somos un estudio de arquitectura en Lima y queremos una web para mostrar proyectos.',
    ]) {
      expect(await industry(message), message).toBe('other');
    }
  });

  it('answers a one-word message and a 2000-character message', async () => {
    for (const message of ['x', '?', 'website '.repeat(250).trim()]) {
      RecommendResponseSchema.parse(await recommendPlan({ message }, ctx));
      RefineResponseSchema.parse(await refineMessage({ message }, ctx));
    }
  });
});

describe('text helpers', () => {
  it('fold keeps offsets aligned with the original', () => {
    const text = 'Página 👋 ÉXITO señal';
    const out = fold(text);
    expect(out.length).toBe(text.length);
    expect(out.indexOf('exito')).toBe(text.indexOf('ÉXITO'));
  });

  it('splits clauses at punctuation and conjunctions', () => {
    expect(fragments('A website, then an app. But first SEO').map((f) => f.text)).toEqual([
      'A website',
      'then an app',
      'first SEO',
    ]);
  });
});
