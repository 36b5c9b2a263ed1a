import { describe, expect, it } from 'vitest';
import { acceptLanguage } from './form-pages.ts';

describe('acceptLanguage', () => {
  it('takes the most preferred of English and Spanish, regional tags and q-values included', () => {
    const cases: [string | undefined, 'en' | 'es' | undefined][] = [
      ['es-MX,es;q=0.9,en;q=0.8', 'es'],
      ['en-US,en;q=0.9,es;q=0.8', 'en'],
      ['fr,es;q=0.5,en;q=0.4', 'es'],
      ['en;q=0.2, es;q=0.9', 'es'],
      ['*', 'en'],
      ['fr-FR,fr;q=0.9', undefined],
      ['es;q=0', undefined],
      ['', undefined],
      [undefined, undefined],
    ];
    for (const [header, language] of cases) expect(acceptLanguage(header), String(header)).toBe(language);
  });
});
