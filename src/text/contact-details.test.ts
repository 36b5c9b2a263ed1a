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
