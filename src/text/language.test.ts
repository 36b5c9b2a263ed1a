import { describe, expect, it } from 'vitest';
import { normalizeLanguage } from './language.ts';

describe('normalizeLanguage', () => {
  it('reads Spanish from its tags, in any case, and English from everything else', () => {
    for (const tag of ['es', 'ES', ' es-CO ', 'es_MX', 'es-419'])
      expect(normalizeLanguage(tag), tag).toBe('es');
    for (const tag of ['en', 'en-GB', 'est', 'spanish', '', undefined, null])
      expect(normalizeLanguage(tag), String(tag)).toBe('en');
  });
});
