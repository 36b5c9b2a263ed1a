import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../../../test/support/database.ts';
import { ADMIN_ENV, ADMIN_KEY } from '../../../test/support/features/admin.ts';
import { createTestApp, type TestContext } from '../../../test/support/test-app.ts';
import { csvCell, EXPORT_REPORTS } from './export.ts';
import { ANALYTICS_LIMITS as L } from './limits.ts';

const engines = await testEngines();

const CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';

/** RFC 4180 rows (quoted fields may hold commas, quotes and line breaks). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += ch;
  }
  return rows;
}

describe('CSV cells', () => {
  it('quotes what needs quoting and defuses spreadsheet formulas', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"\n')).toBe('"say ""hi""\n"');
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell(-3)).toBe('-3');
    expect(csvCell(null)).toBe('');
  });
});

describe.each(engines)('GET /api/analytics/export on %s', (engine) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp({ engine, env: { ...ADMIN_ENV, TRUST_PROXY: 'xff' } });
    const track = (ip: string, body: Record<string, unknown>) =>
      ctx.app.request('/api/analytics/track', {
        method: 'POST',
        headers: { 'content-type': 'text/plain', 'x-forwarded-for': ip, 'user-agent': CHROME },
        body: JSON.stringify(body),
      });
    for (let i = 0; i < 7; i++) {
      const response = await track(`203.0.113.${i + 1}`, {
        url: `https://agency.example/p${i % 3}?utm_campaign=${i % 2 ? 'spring' : 'autumn'}&email=x@y.z`,
        referrer: i < 3 ? 'https://www.google.com/' : null,
        title: i === 0 ? '=cmd|"/c calc"!A1, "quoted"' : 'Page',
        properties: { plan: 'pro' },
      });
      expect(response.status).toBe(202);
    }
  });
  afterAll(() => ctx.close());

  const exportCsv = (query: string, key: string | null = ADMIN_KEY) =>
    ctx.app.request(`/api/analytics/export?${query}`, { headers: key ? { 'X-Admin-Api-Key': key } : {} });

  it('needs the admin key', async () => {
    expect((await exportCsv('format=csv', null)).status).toBe(401);
    expect((await exportCsv('format=csv', 'wrong')).status).toBe(401);
  });

  it('streams every event as CSV, without the visitor hash or any query string', async () => {
    const response = await exportCsv('format=csv');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toMatch(
      /^attachment; filename="analytics-events-.*\.csv"$/,
    );
    const text = await response.text();
    const [header, ...rows] = parseCsv(text);
    expect(header).toEqual([
      'id',
      'created_at',
      'day',
      'type',
      'page',
      'referrer',
      'title',
      'properties',
      'session_id',
      'country',
      'source',
      'utm_source',
      'utm_medium',
      'utm_campaign',
      'device',
      'browser',
      'os',
      'visit_id',
    ]);
    expect(rows).toHaveLength(7);
    expect(text).not.toMatch(/visitor_hash|x@y\.z/);
    const first = Object.fromEntries(header!.map((h, i) => [h, rows[0]![i]]));
    expect(first).toMatchObject({ page: '/p0', utm_campaign: 'autumn', source: 'Google', device: 'desktop' });
    expect(first.title).toBe(`'=cmd|"/c calc"!A1, "quoted"`);
    expect(rows.map((r) => r[1]!)).toEqual([...rows.map((r) => r[1]!)].sort());
    // Filters select visits for the export too.
    const spring = parseCsv(await (await exportCsv('format=csv&utm_campaign=spring')).text());
    expect(spring).toHaveLength(1 + 3);
  });

  it('reads more pages than one query holds', async () => {
    const many = L.export.pageSize + 3;
    expect(many).toBeGreaterThan(L.export.pageSize);
    // Stored directly: thousands of beacons would only slow the test down.
    const { writeBatch } = await import('./store.ts');
    const { trackedRow } = await import('./tables.ts');
    const now = Date.now();
    const day = new Date(now).toISOString().slice(0, 10);
    const rows = Array.from({ length: many }, (_, i) =>
      trackedRow({
        id: `bulk-${String(i).padStart(6, '0')}`,
        type: 'bulk',
        page: '/bulk',
        referrer: null,
        referrer_host: null,
        title: null,
        properties: null,
        session_id: null,
        country: null,
        visitor_hash: `bulk-${i % 50}`,
        day,
        created_at: now - 1000 + (i % 7),
        visit_id: null,
        source: null,
        utm_source: null,
        utm_medium: null,
        utm_campaign: null,
        device: null,
        browser: null,
        os: null,
      }),
    );
    await writeBatch(ctx.deps.db, rows, 0);
    const csv = parseCsv(await (await exportCsv('format=csv')).text());
    expect(csv.length - 1).toBe(7 + many);
    expect(new Set(csv.slice(1).map((r) => r[0])).size).toBe(7 + many);
  });

  it('exports each breakdown of the stats answer, every row', async () => {
    for (const report of EXPORT_REPORTS.filter((r) => r !== 'events')) {
      const response = await exportCsv(`format=csv&report=${report}`);
      expect(response.status, report).toBe(200);
      expect(parseCsv(await response.text())[0]!.length, report).toBeGreaterThan(1);
    }
    const campaigns = parseCsv(await (await exportCsv('format=csv&report=utmCampaigns')).text());
    expect(campaigns).toEqual([
      ['utmCampaign', 'visitors', 'visits', 'bounceRate', 'visitDuration', 'conversions', 'conversionRate'],
      ['autumn', '4', '4', '100', '0', '0', '0'],
      ['spring', '3', '3', '100', '0', '0', '0'],
    ]);
    const sources = parseCsv(await (await exportCsv('format=csv&report=sources&device=desktop')).text());
    expect(sources.slice(1).map((r) => [r[0], r[1], r[3]])).toEqual([
      ['', 'direct', '4'],
      ['Google', 'search', '3'],
    ]);
  });

  it('refuses another format or an unknown report', async () => {
    expect((await exportCsv('format=json')).status).toBe(400);
    expect((await exportCsv('format=csv&report=visitors')).status).toBe(400);
    expect((await exportCsv('format=csv&from=2026-02-30')).status).toBe(400);
  });
});
