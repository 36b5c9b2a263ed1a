import { describe, expect, it } from 'vitest';
import { maskContactDetails } from './contact-details.ts';

describe('maskContactDetails', () => {
  it('masks e-mail addresses, also percent-encoded as a page path carries them', () => {
    expect(maskContactDetails('/account/ana.review@example.com')).toBe('/account/[email]');
    expect(maskContactDetails('/u/ana.review%40example.co.uk/orders')).toBe('/u/[email]/orders');
    expect(maskContactDetails('/u/ana.review%2540example.com')).toBe('/u/[email]');
    expect(maskContactDetails('/u/ana.review%252540example.com')).toBe('/u/[email]');
    expect(maskContactDetails('Welcome, José.Núñez+news@correo.es!')).toBe('Welcome, [email]!');
    expect(maskContactDetails('a@b.c and x_y@z-w.org')).toBe('[email] and [email]');
  });

  it('masks international phone numbers with their usual separators', () => {
    expect(maskContactDetails('call +34 611 222 333 today')).toBe('call [phone] today');
    expect(maskContactDetails('+44 (0)20 7946 0958')).toBe('[phone]');
    expect(maskContactDetails('+1-202-555-0143')).toBe('[phone]');
    expect(maskContactDetails('+5491122334455')).toBe('[phone]');
  });

  it('masks what only the percent-decoded text shows (a URL path encodes spaces, dots, + and non-ASCII)', () => {
    expect(maskContactDetails('/call/+57%20310%20777%208899')).toBe('/call/[phone]');
    expect(maskContactDetails('/call/+57%20(310)%20777-8899')).toBe('/call/[phone]');
    expect(maskContactDetails('/x/%2B57%20310%20777%208899/next')).toBe('/x/[phone]/next');
    expect(maskContactDetails('/u/zelda%2Eq%40example%2Eorg')).toBe('/u/[email]');
    expect(maskContactDetails('/u/zelda.q@ex%C3%A4mple.org')).toBe('/u/[email]');
    expect(maskContactDetails('/u/zelda.q%EF%BC%A0example.org')).toBe('/u/[email]');
    expect(maskContactDetails('zelda.q＠example.org')).toBe('[email]');
    // A malformed escape beside an address: the address still goes, the escape stays as it came.
    expect(maskContactDetails('/u/%E0%A4%A/zelda%40example.org')).toBe('/u/%E0%A4%A/[email]');
    // Control characters stay escaped: a masked name or path gains no line break.
    expect(maskContactDetails('signup%0A+57%20310%20777%208899')).toBe('signup%0A[phone]');
    expect(maskContactDetails('/u%C2%85/ana%2Eq%40example%2Eorg')).toBe('/u%C2%85/[email]');
  });

  it('keeps the encoded form of a path that holds no contact detail', () => {
    for (const text of ['/search/C%2B%2B%20books', '/a%20b/c%40d', '/price/%2B10%25']) {
      expect(maskContactDetails(text)).toBe(text);
    }
  });

  it('leaves what names nobody as it was', () => {
    for (const text of [
      '/@agency',
      '/users/@ana',
      'user@localhost',
      'rating +1',
      '+1 234',
      '2026-11-27',
      '/pricing',
      'C++ and a+b',
      'ISBN 978-3-16-148410-0',
    ]) {
      expect(maskContactDetails(text)).toBe(text);
    }
  });
});
