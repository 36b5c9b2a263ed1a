import { describe, expect, it } from 'vitest';
import { containsPattern, maskAddresses, mentionPatterns, mentionsAddress } from './address-mention.ts';

describe('mentionsAddress', () => {
  const ana = 'ana@example.co';

  it('finds the whole address in any case and wrapping', () => {
    for (const text of [
      'ana@example.co',
      'Write to ANA@Example.CO please',
      '["ana@example.co"]',
      'Ana <ana@example.co>',
      'mailto:ana@example.co',
      'at ana@example.co.',
      'ana@example.co, bea@example.com',
      '"to":"x@y.z","cc":["ana@example.co"]',
    ]) {
      expect(mentionsAddress(text, ana), text).toBe(true);
    }
  });

  it("does not take someone else's address that contains it", () => {
    for (const text of [
      'juana@example.co',
      'ana@example.com',
      'ana@example.co.uk',
      'ana@example.co-op.example',
      'maria.ana@example.co',
      'x+ana@example.co',
      'ñana@example.co',
      '',
    ]) {
      expect(mentionsAddress(text, ana), text).toBe(false);
    }
  });

  it('finds it percent-encoded, as a URL carries it, and still not a longer address', () => {
    expect(mentionsAddress('/contact?email=ana%40example.co&x=1', ana)).toBe(true);
    expect(mentionsAddress('/contact?email=ANA%40EXAMPLE.CO', ana)).toBe(true);
    expect(mentionsAddress('/c?to=ana%2Bnews%40example.co', 'ana+news@example.co')).toBe(true);
    expect(mentionsAddress('/contact?email=juana%40example.co', ana)).toBe(false);
    expect(mentionsAddress('/contact?email=ana%40example.com', ana)).toBe(false);
    expect(mentionPatterns('ana+news@example.co')).toEqual([
      '%ana+news@example.co%',
      '%ana\\%2bnews\\%40example.co%',
    ]);
  });

  it('finds a later whole mention after a partial one', () => {
    expect(mentionsAddress('juana@example.co and ana@example.co', ana)).toBe(true);
  });

  it('escapes LIKE wildcards', () => {
    expect(containsPattern('a_b%c\\d@x.y')).toBe('%a\\_b\\%c\\\\d@x.y%');
  });
});

describe('maskAddresses', () => {
  it('masks every address, quoted or bare, and leaves the rest', () => {
    expect(maskAddresses('550 5.1.1 <ana.q+1@example.co.uk>: No such mailbox')).toBe(
      '550 5.1.1 <<address>>: No such mailbox',
    );
    expect(maskAddresses('Recipients refused: "bea@x.io", ñandú@ejemplo.es (twice)')).toBe(
      'Recipients refused: "<address>", <address> (twice)',
    );
    expect(maskAddresses('Connection timeout after 10000 ms')).toBe('Connection timeout after 10000 ms');
  });
});
