import type { Language, PlanPath } from './vocabulary.ts';

/** The offline engine's fixed wording, in both languages (everything else it says is the visitor's). */
export type Dimension = 'goal' | 'audience' | 'features' | 'timeline' | 'budget' | 'industry';

export interface Texts {
  summary: (need: string, sector: string) => string;
  /** What each path means for the visitor, as the object of "You are looking for …". */
  pathNeed: Record<Exclude<PlanPath, 'Technical Review'>, string>;
  summaryQuote: (words: string) => string;
  why: Record<PlanPath, string>;
  youMentioned: (needs: string[]) => string;
  whenItFits: Record<PlanPath, string>;
  dimension: Record<Dimension, string>;
  suggestion: Record<Dimension, string>;
}

export const TEXT: Record<Language, Texts> = {
  en: {
    summary: (need, sector) => `You are looking for ${need}${sector ? ` (${sector})` : ''}.`,
    pathNeed: {
      Build: 'a new website or app built for your business',
      Launch: 'help taking a product to market',
      Scale: 'help growing or improving a product you already run',
      Custom: 'custom software that fits how your business works',
    },
    summaryQuote: (words) => `You wrote: “${words}”.`,
    why: {
      Build: 'Build fits because what you describe is a website to design and build.',
      Launch: 'Launch fits because you want to take a new application or product to its first release.',
      Scale:
        'Scale fits because you describe an existing product or site that needs to grow, run faster or be looked after.',
      Custom: 'Custom fits because you need software shaped around your own processes and systems.',
      'Technical Review':
        'A Technical Review fits best because the request is open or asks for an expert assessment before deciding what to build.',
    },
    youMentioned: (needs) => `You mentioned ${needs.map((n) => `“${n}”`).join(' and ')}.`,
    whenItFits: {
      Build: 'If what you need first is a website or landing page.',
      Launch: 'If the goal is to release a new app or product to users.',
      Scale: 'If an existing product needs performance, infrastructure, SEO, maintenance or more developers.',
      Custom: 'If the work is mostly integrations, automation or internal tools.',
      'Technical Review': 'If you would like an expert assessment before committing budget.',
    },
    dimension: {
      goal: 'main goal',
      audience: 'target audience',
      features: 'key features',
      timeline: 'timeline',
      budget: 'budget range',
      industry: 'industry',
    },
    suggestion: {
      goal: 'What is the main goal of the project?',
      audience: 'Who will use it: businesses, consumers, or a specific group?',
      features: 'Which key features must it have?',
      timeline: 'Is there a deadline or launch date?',
      budget: 'Do you have a budget range in mind?',
      industry: 'Which industry is your business in?',
    },
  },
  es: {
    summary: (need, sector) => `Busca ${need}${sector ? ` (${sector})` : ''}.`,
    pathNeed: {
      Build: 'un sitio web o una app nuevos para su negocio',
      Launch: 'llevar un producto al mercado',
      Scale: 'hacer crecer o mejorar un producto que ya tiene',
      Custom: 'software a la medida de cómo trabaja su empresa',
    },
    summaryQuote: (words) => `Escribió: “${words}”.`,
    why: {
      Build: 'Build encaja porque lo que describe es un sitio web por diseñar y construir.',
      Launch: 'Launch encaja porque quiere llevar una aplicación o un producto nuevo a su primera versión.',
      Scale:
        'Scale encaja porque describe un producto o sitio existente que necesita crecer, ir más rápido o recibir mantenimiento.',
      Custom: 'Custom encaja porque necesita software hecho a la medida de sus procesos y sistemas.',
      'Technical Review':
        'Una Technical Review es lo más adecuado porque la solicitud es abierta o pide una evaluación experta antes de decidir qué construir.',
    },
    youMentioned: (needs) => `Mencionó ${needs.map((n) => `“${n}”`).join(' y ')}.`,
    whenItFits: {
      Build: 'Si lo primero que necesita es un sitio web o una landing page.',
      Launch: 'Si el objetivo es lanzar una app o un producto nuevo.',
      Scale:
        'Si un producto existente necesita rendimiento, infraestructura, SEO, mantenimiento o más desarrolladores.',
      Custom: 'Si el trabajo es sobre todo integraciones, automatización o herramientas internas.',
      'Technical Review': 'Si prefiere una evaluación experta antes de comprometer presupuesto.',
    },
    dimension: {
      goal: 'objetivo principal',
      audience: 'público objetivo',
      features: 'funcionalidades clave',
      timeline: 'plazos',
      budget: 'rango de presupuesto',
      industry: 'sector',
    },
    suggestion: {
      goal: '¿Cuál es el objetivo principal del proyecto?',
      audience: '¿Quién lo usará: empresas, consumidores o un grupo específico?',
      features: '¿Qué funcionalidades clave debe tener?',
      timeline: '¿Hay una fecha límite o de lanzamiento?',
      budget: '¿Tiene en mente un rango de presupuesto?',
      industry: '¿En qué sector está su empresa?',
    },
  },
};
