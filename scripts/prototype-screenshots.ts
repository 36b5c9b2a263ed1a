/**
 * Renders built-in prototypes and screenshots them in Chromium, for the docs and for looking at them:
 *   npx node scripts/prototype-screenshots.ts <out-dir> [kind] [style] [industry] [es]
 * With only <out-dir> it writes the two images committed under docs/.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderBuiltinPrototype } from '../src/integrations/prototype-generator/builtin/builtin-generator.ts';
import type { PrototypeBrief } from '../src/integrations/prototype-generator/types.ts';
// A docs tool, launched like the browser tests launch Chromium.
import { launchChromium } from '../test/support/chromium.ts';

export const SAMPLE_BRIEFS: Record<string, PrototypeBrief> = {
  'prototype-landing': {
    leadId: 'sample-landing',
    kind: 'landing',
    language: 'en',
    name: 'Elena Ruiz',
    company: 'Casa Aurora',
    service: 'build-website',
    goal: 'Fill more tables on weeknights and take reservations online',
    industry: 'hospitality',
    features: ['Online booking', 'Photo gallery', 'Customer reviews', 'Newsletter', 'Location map'],
    style: 'elegantSophisticated',
    audience: 'b2c',
  },
  'prototype-application': {
    leadId: 'sample-application',
    kind: 'application',
    language: 'en',
    name: 'Daniel Park',
    company: 'CareWell Clinic',
    service: 'build-application',
    goal: 'A patient portal where staff manage appointments and records',
    industry: 'healthcare',
    features: ['Appointment booking', 'Patient records', 'Messaging', 'Analytics dashboard'],
    style: 'modernMinimalist',
    audience: 'specializedProfessionals',
  },
};

async function main() {
  const [outDir = 'docs', kind, style, industry, language] = process.argv.slice(2);
  mkdirSync(outDir, { recursive: true });
  const briefs: [string, PrototypeBrief][] = kind
    ? [
        [
          `${kind}-${style ?? 'default'}-${industry ?? 'other'}${language ? `-${language}` : ''}`,
          {
            ...SAMPLE_BRIEFS[kind === 'application' ? 'prototype-application' : 'prototype-landing']!,
            kind: kind === 'application' ? 'application' : 'landing',
            style: style ?? null,
            industry: industry ?? null,
            language: language === 'es' ? 'es' : 'en',
          },
        ],
      ]
    : Object.entries(SAMPLE_BRIEFS);
  const browser = await launchChromium();
  try {
    for (const [name, brief] of briefs) {
      const html = renderBuiltinPrototype(brief);
      if (kind) writeFileSync(join(outDir, `${name}.html`), html);
      for (const [suffix, width, height, full] of [
        ['', 1280, 860, brief.kind === 'landing'],
        ['-mobile', 390, 844, false],
      ] as const) {
        const page = await browser.newPage({ viewport: { width, height }, deviceScaleFactor: 1 });
        await page.setContent(html, { waitUntil: 'load' });
        await page.screenshot({ path: join(outDir, `${name}${suffix}.png`), fullPage: full });
        await page.close();
      }
      console.log(`wrote ${name}`);
    }
  } finally {
    await browser.close();
  }
}

if (import.meta.main) await main();
