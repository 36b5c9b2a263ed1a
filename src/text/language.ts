/** The two languages the site writes to visitors in. */
export type SiteLanguage = 'en' | 'es';

/** A language tag or name as a visitor's language: Spanish for `es`, `es-CO`, `ES_mx`; English otherwise. */
export function normalizeLanguage(value: string | null | undefined): SiteLanguage {
  return value && /^es([-_]|$)/i.test(value.trim()) ? 'es' : 'en';
}
