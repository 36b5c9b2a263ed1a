import { describe, expect, it } from 'vitest';
import { stepRows } from './emails.ts';

describe('stepRows', () => {
  it('names the wizard values in the reader language and humanizes others', () => {
    expect(stepRows({ service: 'build-website', audience: 'b2c' }, 'es')).toEqual([
      ['Servicio', 'Sitio web'],
      ['Público', 'B2C'],
    ]);
    expect(stepRows({ industry: 'realEstate' }, 'en')).toEqual([['Industry', 'Real estate']]);
  });

  it('a trusted value named like an Object property is humanized, never read off the prototype', () => {
    const rows = stepRows(
      { service: 'constructor', industry: 'toString', style: '__proto__', audience: 'hasOwnProperty' },
      'en',
    );
    expect(rows).toEqual([
      ['Service', 'Constructor'],
      ['Industry', 'To string'],
      ['Style', 'Proto'],
      ['Audience', 'Has own property'],
    ]);
  });
});
