import { describe, expect, it } from 'vitest';
import { type ClassifierInput, classifyLeadOffline } from './classifier.ts';

const base: ClassifierInput = {
  name: 'Ana García',
  email: 'ana@hotelsol.example',
  company: 'Hotel Sol',
  position: 'Owner',
  texts: [],
};
const classify = (texts: string[], extra: Partial<ClassifierInput> = {}) =>
  classifyLeadOffline({ ...base, ...extra, texts }).classification;

describe('built-in lead classifier', () => {
  it.each([
    ['We need a website with online booking for our hotel', 'en'],
    ['Necesitamos una aplicación para gestionar reservas de nuestro restaurante', 'es'],
    [
      'We offer guided tours and want a site that sells them',
      'en: "we offer" alone is a business describing itself',
    ],
    ['Our current site is https://hotelsol.example, it is slow', 'en with one link'],
    ['', 'empty'],
  ])('genuine enquiry: %s (%s)', (text) => {
    expect(classify([text])).toBe('lead');
  });

  it.each([
    ['Best online casino bonus, make money fast!'],
    ['Cheap viagra pills without prescription'],
    ['We sell backlinks and guest posts for SEO, dofollow'],
    ['Gana dinero fácil desde casa con criptomonedas'],
    ['Visit http://a.example http://b.example http://c.example now'],
    ['asdfghjklqwrtzxcvbnm'],
  ])('spam: %s', (text) => {
    expect(classify([text])).toBe('spam');
  });

  it('spam by the name or a disposable address', () => {
    expect(classify(['hi'], { name: 'Cheap pills www.spam.example' })).toBe('spam');
    expect(
      classify(['Need a site, click here for a limited time offer'], { email: 'x@mailinator.com' }),
    ).toBe('spam');
  });

  it.each([
    ['We are a software development agency and we offer dedicated developers at affordable rates'],
    ['Hire our developers: offshore staff augmentation for your projects'],
    ['White-label outsourcing partnership for agencies like yours'],
    ['Somos una agencia de desarrollo y le ofrecemos subcontratación de marca blanca'],
    ['Podemos ayudarle a posicionar su sitio en la primera página de Google, nuestros servicios de SEO'],
  ])('vendor: %s', (text) => {
    expect(classify([text])).toBe('vendor');
  });

  it('a sales position strengthens a weak pitch', () => {
    const pitch = ['We can help you with partnership opportunities'];
    expect(classify(pitch)).toBe('vendor');
    expect(classify(['We provide catering and need a website'])).toBe('lead');
    expect(
      classify(['We provide catering and need a website'], { position: 'Business Development Manager' }),
    ).toBe('vendor');
  });

  it('is deterministic and says why', () => {
    const input = { ...base, texts: ['Online casino and forex signals'] };
    const first = classifyLeadOffline(input);
    expect(classifyLeadOffline(input)).toEqual(first);
    expect(first.reason).toMatch(/gambling/);
    expect(first.reason).toMatch(/crypto or forex/);
  });
});
