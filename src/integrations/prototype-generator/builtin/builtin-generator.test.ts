import { describe, expect, it } from 'vitest';
import { STYLES } from '../../../wizard.ts';
import type { ProgressUpdate, PrototypeBrief } from '../types.ts';
import { BuiltinPrototypeGenerator, renderBuiltinPrototype } from './builtin-generator.ts';
import { themeFor } from './themes.ts';

const brief = (overrides: Partial<PrototypeBrief> = {}): PrototypeBrief => ({
  leadId: 'lead-1',
  kind: 'landing',
  language: 'en',
  name: 'Ana Lopez',
  company: 'Sunrise Dental',
  service: 'build-website',
  goal: 'More appointments booked online',
  industry: 'healthcare',
  features: ['Online booking', 'Testimonials', 'Pricing'],
  style: 'modernMinimalist',
  audience: 'b2c',
  ...overrides,
});

describe('built-in prototype generator', () => {
  it('reports analysing, generating and rendering in order with rising percentages', async () => {
    const updates: ProgressUpdate[] = [];
    const result = await new BuiltinPrototypeGenerator().generate(brief(), {
      onProgress: (u) => void updates.push(u),
    });
    expect(updates.map((u) => u.step)).toEqual(['analysing', 'generating', 'rendering']);
    const percents = updates.map((u) => u.percent);
    expect([...percents].sort((a, b) => a - b)).toEqual(percents);
    expect(result).toMatchObject({ generator: 'builtin', demoUrl: null, files: [], externalId: null });
    expect(result.html).toMatch(/^<!doctype html>/);
  });

  it('makes a self-contained document: no script, nothing fetched from elsewhere', () => {
    for (const kind of ['landing', 'application'] as const) {
      const html = renderBuiltinPrototype(brief({ kind }));
      expect(html).not.toMatch(/<script/i);
      expect(html).not.toMatch(/\s(src|href)="(https?:)?\/\//i);
      expect(html).not.toMatch(/@import|url\((?!#)/i);
      expect(html).toContain('<meta name="viewport"');
    }
  });

  it('draws a landing page and an application mock-up that differ in structure', () => {
    const landing = renderBuiltinPrototype(brief({ kind: 'landing' }));
    const app = renderBuiltinPrototype(brief({ kind: 'application' }));
    expect(landing).toContain('class="hero"');
    expect(landing).toContain('id="contact"');
    expect(landing).not.toContain('class="app-sidebar"');
    expect(app).toContain('class="app-sidebar"');
    expect(app).toContain('<table class="table">');
    expect(app).toMatch(/class="card kpi"/);
    expect(app).not.toContain('class="hero"');
  });

  it('chooses sections from the features', () => {
    const html = renderBuiltinPrototype(
      brief({ features: ['Online booking', 'Tienda online', 'Blog', 'FAQ'] }),
    );
    for (const id of ['booking', 'shop', 'blog', 'faq']) expect(html).toContain(`id="${id}"`);
    expect(html).not.toContain('id="pricing"');
    const thin = renderBuiltinPrototype(brief({ features: [] }));
    expect(thin).toContain('id="testimonials"');
    expect(thin).toContain('id="faq"');
    const app = renderBuiltinPrototype(brief({ kind: 'application', features: ['invoices', 'messaging'] }));
    expect(app).toContain('Invoices');
    expect(app).toContain('Messages');
  });

  it('writes the copy in the lead language', () => {
    const en = renderBuiltinPrototype(brief({ language: 'en' }));
    const es = renderBuiltinPrototype(brief({ language: 'es' }));
    expect(en).toContain('<html lang="en">');
    expect(en).toContain('Modern healthcare, close to home');
    expect(es).toContain('<html lang="es">');
    expect(es).toContain('Salud moderna, cerca de casa');
    expect(es).toContain('Lo que dicen nuestros clientes');
    const esApp = renderBuiltinPrototype(brief({ kind: 'application', language: 'es' }));
    expect(esApp).toContain('Buenos días, Ana');
    expect(esApp).toContain('Pacientes');
  });

  it('uses industry wording and a theme per style', () => {
    expect(renderBuiltinPrototype(brief({ industry: 'realEstate' }))).toContain('Book a viewing');
    expect(renderBuiltinPrototype(brief({ industry: 'hospitality' }))).toContain('Reserve a table');
    expect(renderBuiltinPrototype(brief({ industry: 'something odd' }))).toContain(
      'Everything your customers need',
    );
    const colours = new Set(STYLES.map((s) => themeFor(s).colors.primary + themeFor(s).headingFont));
    expect(colours.size).toBe(STYLES.length);
    expect(themeFor('professional-corporate').id).toBe('professionalCorporate');
    expect(themeFor('nonsense').id).toBe('modernMinimalist');
    const elegant = renderBuiltinPrototype(brief({ style: 'elegantSophisticated' }));
    expect(elegant).toContain('style-elegantSophisticated');
  });

  it('escapes hostile lead text everywhere it appears', () => {
    const hostile = brief({
      name: '<script>alert(1)</script> Eve',
      company: '"><img src=x onerror=alert(1)>',
      goal: "</title><svg onload=alert('x')>",
      features: ['<b onclick="x()">booking</b>'],
    });
    for (const kind of ['landing', 'application'] as const) {
      const html = renderBuiltinPrototype({ ...hostile, kind });
      expect(html).not.toContain('<script>alert');
      expect(html).not.toMatch(/<img src=x/);
      expect(html).not.toMatch(/<svg onload/);
      expect(html).not.toMatch(/<b onclick/);
      expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    }
  });
});
