import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StandIn, sendJson, startStandIn } from '../../../test/support/stand-in.ts';
import { PageSpeedInsightsEngine, PSI_UNAVAILABLE } from './psi-client.ts';
import { PageSpeedError } from './report.ts';

const RECORDED = JSON.parse(
  readFileSync(new URL('../../../test/support/fixtures/psi-response.json', import.meta.url), 'utf8'),
);
const KEY = 'psi-key-that-must-not-leak';

let psi: StandIn;
type Reply = { status: number; body: unknown; headers?: Record<string, string> };
let script: Reply[] = [];
beforeAll(async () => {
  psi = await startStandIn((_req, res) => {
    const next: Reply = script.shift() ?? { status: 200, body: RECORDED };
    sendJson(res, next.status, next.body, next.headers);
  });
});
afterAll(() => psi.close());

const engine = () =>
  new PageSpeedInsightsEngine({
    apiUrl: `${psi.url}/pagespeedonline/v5/runPagespeed`,
    apiKey: KEY,
    backoffBaseMs: 10,
  });

describe('PageSpeed Insights client', () => {
  it('asks for the four categories and the strategy, and normalises the recorded response', async () => {
    script = [];
    const report = await engine().analyze({ url: 'https://example.com/', strategy: 'mobile' });
    const sent = new URL(psi.requests.at(-1)!.url, 'http://x');
    expect(sent.pathname).toBe('/pagespeedonline/v5/runPagespeed');
    expect(sent.searchParams.get('url')).toBe('https://example.com/');
    expect(sent.searchParams.get('strategy')).toBe('mobile');
    expect(sent.searchParams.getAll('category')).toEqual([
      'PERFORMANCE',
      'ACCESSIBILITY',
      'BEST_PRACTICES',
      'SEO',
    ]);
    expect(sent.searchParams.get('key')).toBe(KEY);

    expect(report.engine).toBe('pagespeed-insights');
    expect(report.finalUrl).toBe('https://www.example.com/');
    expect(report.scores).toEqual({ performance: 58, accessibility: 87, bestPractices: 96, seo: 92 });
    expect(report.metrics.lcp).toEqual({ value: 4625.9, unit: 'ms', displayValue: '4.6 s', score: 41 });
    expect(report.metrics.cls).toEqual({ value: 0.0981, unit: 'unitless', displayValue: '0.098', score: 90 });
    expect(report.metrics.tbt.displayValue).toBe('260 ms');
    expect(report.metrics.fcp.value).toBe(2841.3);
    expect(report.metrics.speedIndex.displayValue).toBe('5.1 s');
    expect(report.metrics.serverResponseTime).toMatchObject({
      value: 212,
      displayValue: 'Root document took 210 ms',
    });
    // Failing audits only, largest saving first; passing, informative and metric audits left out.
    expect(report.opportunities.map((o) => o.id)).toEqual([
      'render-blocking-insight',
      'unused-javascript',
      'image-delivery-insight',
      'mainthread-work-breakdown',
    ]);
    expect(report.opportunities[0]).toMatchObject({
      savingsMs: 1210,
      displayValue: 'Est savings of 1,210 ms',
      score: 0,
    });
    expect(report.opportunities[1]).toMatchObject({ savingsMs: 600, savingsBytes: 146432 });
    expect(report.opportunities[0]?.description).not.toContain('Learn more');
    expect(report.fieldData).toEqual({
      scope: 'url',
      overallCategory: 'AVERAGE',
      metrics: {
        lcp: { percentile: 2650, category: 'AVERAGE' },
        cls: { percentile: 0.08, category: 'FAST' },
        inp: { percentile: 180, category: 'FAST' },
        fcp: { percentile: 1820, category: 'AVERAGE' },
        ttfb: { percentile: 950, category: 'AVERAGE' },
      },
    });
    expect(report.warnings[0]).toContain('redirected');
  });

  it('reports no field data when CrUX has none', async () => {
    script = [
      { status: 200, body: { ...RECORDED, loadingExperience: { initial_url: 'https://example.com/' } } },
    ];
    const report = await engine().analyze({ url: 'https://example.com/', strategy: 'desktop' });
    expect(report.fieldData).toBeNull();
    expect(report.strategy).toBe('desktop');
  });

  it('backs off and retries on 429 and 5xx', async () => {
    const before = psi.requests.length;
    script = [
      {
        status: 429,
        body: { error: { code: 429, message: 'Quota exceeded' } },
        headers: { 'retry-after': '0' },
      },
      { status: 503, body: { error: { code: 503, message: 'Backend unavailable' } } },
    ];
    const report = await engine().analyze({ url: 'https://example.com/', strategy: 'mobile' });
    expect(report.scores.performance).toBe(58);
    expect(psi.requests.length - before).toBe(3);
  });

  it('a PSI that never answers: each attempt and the whole call end at their time-outs', async () => {
    const hanging = await startStandIn(() => new Promise(() => {}));
    try {
      const slow = new PageSpeedInsightsEngine({
        apiUrl: `${hanging.url}/runPagespeed`,
        apiKey: KEY,
        backoffBaseMs: 10,
        attemptTimeoutMs: 200,
        totalTimeoutMs: 2000,
      });
      const failed = await slow.analyze({ url: 'https://example.com/', strategy: 'mobile' }).catch((e) => e);
      expect(failed).toBeInstanceOf(PageSpeedError);
      expect(failed.message).toContain('did not answer in time');
      expect(failed.message).not.toContain(KEY);
      expect(hanging.requests.length).toBe(3);
    } finally {
      await hanging.close();
    }
  });

  it('gives up after the last attempt, and does not retry a 400; the key never appears in errors', async () => {
    script = [500, 500, 500].map((status) => ({ status, body: { error: { message: `boom key=${KEY}` } } }));
    const failed = await engine()
      .analyze({ url: 'https://example.com/', strategy: 'mobile' })
      .catch((e) => e);
    expect(failed).toBeInstanceOf(PageSpeedError);
    expect(failed.permanent).toBe(false);
    expect(failed.message).not.toContain(KEY);
    expect(failed.message).toBe(PSI_UNAVAILABLE);
    expect(failed.detail).toBe('HTTP 500: boom key=…');

    // An invalid key or a quota is the operator's business: the visitor is not told Google's words.
    script = [
      {
        status: 400,
        body: { error: { code: 400, message: 'API key not valid. Please pass a valid API key.' } },
      },
    ];
    const invalidKey = await engine()
      .analyze({ url: 'https://example.com/', strategy: 'mobile' })
      .catch((e) => e);
    expect(invalidKey.message).toBe(PSI_UNAVAILABLE);
    expect(invalidKey.detail).toContain('API key not valid');

    const before = psi.requests.length;
    script = [
      {
        status: 400,
        body: { error: { code: 400, message: 'Lighthouse returned error: FAILED_DOCUMENT_REQUEST.' } },
      },
    ];
    const bad = await engine()
      .analyze({ url: 'https://example.com/', strategy: 'mobile' })
      .catch((e) => e);
    expect(bad.permanent).toBe(true);
    expect(bad.message).toContain('FAILED_DOCUMENT_REQUEST');
    expect(psi.requests.length - before).toBe(1);
  });
});
