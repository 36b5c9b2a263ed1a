import type { GenerationStep, PrototypeLanguage } from '../../integrations/prototype-generator/types.ts';

/** What the visitor reads for each step and outcome, in the lead's language. */
const STEP_MESSAGES: Record<PrototypeLanguage, Record<GenerationStep, string>> = {
  en: {
    queued: 'Your request is in the queue…',
    analysing: 'Analysing your brief…',
    generating: 'Designing your prototype…',
    rendering: 'Putting the finishing touches…',
    complete: 'Your prototype is ready.',
  },
  es: {
    queued: 'Tu solicitud está en cola…',
    analysing: 'Analizando tu propuesta…',
    generating: 'Diseñando tu prototipo…',
    rendering: 'Dando los últimos toques…',
    complete: 'Tu prototipo está listo.',
  },
};

const ERROR_MESSAGES: Record<PrototypeLanguage, { retrying: string; failed: string; quota: string }> = {
  en: {
    retrying: 'We hit a snag and are trying again automatically…',
    failed: 'We could not create your prototype this time.',
    quota: 'You have reached this month’s limit of prototypes.',
  },
  es: {
    retrying: 'Tuvimos un problema y lo estamos intentando de nuevo…',
    failed: 'Esta vez no pudimos crear tu prototipo.',
    quota: 'Alcanzaste el límite de prototipos de este mes.',
  },
};

export function stepMessage(language: PrototypeLanguage, step: GenerationStep): string {
  return STEP_MESSAGES[language][step];
}

export function errorMessage(language: PrototypeLanguage, kind: 'retrying' | 'failed' | 'quota'): string {
  return ERROR_MESSAGES[language][kind];
}
