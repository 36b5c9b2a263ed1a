import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../../test/support/database.ts';
import { type StandIn, sendJson, startStandIn } from '../../test/support/stand-in.ts';
import { createTestApp, type TestContext } from '../../test/support/test-app.ts';
import { MAX_HTML_ELEMENTS } from '../text/html.ts';
import {
  CHUNK_WORDS,
  chunkDocument,
  MAX_HEADING_WORDS,
  MAX_HTML_NESTING,
  parseHtml,
  parseMarkdown,
} from './chunk.ts';
import {
  ingest,
  MAX_DOCUMENT_BYTES,
  MAX_TITLE_CHARS,
  MAX_WORDPRESS_PAGE_BYTES,
  removeFromIndex,
} from './ingest.ts';
import { SqlSearchIndex } from './sql-search-index.ts';

const CORPUS = join(import.meta.dirname, '../../corpus');

describe('chunking', () => {
  it('keeps headings with their paragraphs and reads the front-matter title', () => {
    const doc = parseMarkdown(
      '---\ntitle: "Doc"\n---\n# Top\n\nIntro **text** with a [link](http://x).\n\n## Sub\n\n- item one\n- item two\n',
    );
    expect(doc.title).toBe('Doc');
    expect(chunkDocument(doc)).toEqual(['Top\nIntro text with a link.', 'Top › Sub\nitem one item two']);
  });

  it('reads Markdown as CommonMark does: setext headings, nested lists, tables, references, escapes', () => {
    const doc = parseMarkdown(
      [
        'Pricing &amp; plans',
        '=================',
        '',
        'Intro with a [reference link][ref] and an escaped \\*star\\*.',
        '',
        'Support',
        '-------',
        '',
        '* outer',
        '  * inner',
        '',
        '| Plan | Price |',
        '| ---- | ----- |',
        '| Build | 4k |',
        '',
        '[ref]: https://example.com',
      ].join('\n'),
    );
    expect(doc.title).toBe('Pricing & plans');
    // Raw HTML is read as HTML; its own <main> or </main> does not hide the rest of the document.
    expect(
      parseMarkdown('Before\n\n<main><p>inside</p></main>\n\n</main>\n\nAfter <b>bold</b>\n').blocks,
    ).toEqual([
      { level: 0, text: 'Before' },
      { level: 0, text: 'inside' },
      { level: 0, text: 'After bold' },
    ]);
    expect(chunkDocument(doc)).toEqual([
      'Pricing & plans\nIntro with a reference link and an escaped *star*.',
      'Pricing & plans › Support\nouter inner Plan Price Build 4k',
    ]);
  });

  it('an empty heading closes the section above it (Markdown and HTML)', () => {
    expect(
      chunkDocument(parseMarkdown('# Top\n\n## Prices\n\nfrom 4k\n\n##\n\nunder no subheading')),
    ).toEqual(['Top › Prices\nfrom 4k', 'Top\nunder no subheading']);
    expect(
      chunkDocument(parseHtml('<h1>Top</h1><h2>Prices</h2><p>from 4k</p><h2> </h2><p>other</p>')),
    ).toEqual(['Top › Prices\nfrom 4k', 'Top\nother']);
  });

  it('reads Markdown that defeats quadratic parsers: 200 kB of emphasis runs, quotes nested 20 000 deep', () => {
    const runs = parseMarkdown(`# Runs\n\n${'_a'.repeat(100_000)}`);
    expect(runs.blocks[1]!.text).toHaveLength(200_000);
    const quotes = parseMarkdown(`${'>'.repeat(20_000)} koala\n\nafter the quote`);
    expect(quotes.blocks.at(-1)).toEqual({ level: 0, text: 'after the quote' });
  });

  it('cuts long sections into chunks of a few hundred words with overlap', () => {
    const words = Array.from({ length: 500 }, (_, i) => `w${i}`);
    const chunks = chunkDocument(
      {
        title: null,
        blocks: [
          { level: 2, text: 'H' },
          { level: 0, text: words.join(' ') },
        ],
      },
      200,
      40,
    );
    expect(chunks.length).toBe(3);
    expect(chunks[0]!.startsWith('H\nw0 ')).toBe(true);
    expect(chunks[1]!.startsWith('H\nw160 ')).toBe(true); // 40 words of overlap
  });

  it('reads every sample-corpus document with its front-matter title, and no chunk of front-matter debris', async () => {
    const files = (await readdir(CORPUS)).filter((f) => f.endsWith('.md'));
    expect(files.length).toBe(5);
    for (const file of files) {
      const doc = parseMarkdown(await readFile(join(CORPUS, file), 'utf8'));
      expect(doc.title, file).toMatch(/^[A-Z][\w ]+ — /);
      for (const chunk of chunkDocument(doc)) {
        expect(chunk, file).not.toMatch(/^(?:-{3}|title:)/m);
        expect(chunk.split(/\s+/).length, file).toBeGreaterThan(10);
      }
    }
  });

  it('chunks a single paragraph of 200 000 words (no spread of them onto the stack)', () => {
    const text = Array.from({ length: 200_000 }, (_, i) => `w${i}`).join(' ');
    const chunks = chunkDocument({ title: null, blocks: [{ level: 0, text }] });
    expect(chunks.length).toBeGreaterThan(500);
  });

  it('reads text that sits directly in a <div> or <section>, as a page builder writes it', () => {
    const doc = parseHtml(
      '<body><header>Site menu</header><section><h2>Services</h2><div class="card">We build <span>web</span><span>sites</span> &amp; apps<br>in weeks</div><div><div>Fixed prices</div></div></section><footer>© us</footer></body>',
    );
    expect(doc.blocks).toEqual([
      { level: 2, text: 'Services' },
      { level: 0, text: 'We build websites & apps' },
      { level: 0, text: 'in weeks' },
      { level: 0, text: 'Fixed prices' },
    ]);
  });

  it('refuses HTML whose unclosed formatting the parser would re-open in every block (it ran out of memory)', () => {
    // parse5 re-opened each `<b>` a closed paragraph left open inside every later one: 18 million
    // elements for these 110 kB (nestingDepth sees depth 2).
    const html = Array.from({ length: 6000 }, (_, i) => `<p><b id=${i}>koala ${i}</p>`).join('');
    expect(() => parseHtml(html)).toThrow(`more than ${MAX_HTML_ELEMENTS} elements`);
  });

  it('reads a heading of more than MAX_HEADING_WORDS words as text, not as the start of every chunk under it', () => {
    const words = (n: number, word: string) => Array.from({ length: n }, (_, i) => `${word}${i}`).join(' ');
    // A paragraph underlined with `---` is a setext heading; so is a page whose heading is never closed.
    const markdown = parseMarkdown(`# Top\n\n${words(300, 'long')}\n---\n\n${words(2000, 'body')}`);
    const html = parseHtml(`<h1>Top</h1><h2>Sub${words(300, ' long')}<p>${words(2000, 'body')}</p>`);
    for (const doc of [markdown, html]) {
      const chunks = chunkDocument(doc);
      expect(chunks.length).toBeGreaterThan(9);
      for (const chunk of chunks) expect(chunk.split(/\s+/).length).toBeLessThanOrEqual(CHUNK_WORDS + 1);
      expect(chunks.join(' ')).toContain('long299');
    }
    expect(parseHtml(`<h2>${words(MAX_HEADING_WORDS, 'w')}</h2>`).blocks[0]!.level).toBe(2);
  });

  it('reads HTML without scripts or navigation', () => {
    const doc = parseHtml(
      '<html><head><title>Page</title><script>var x=1</script></head><body><nav>Menu</nav><main><h1>Hi</h1><p>Body <b>text</b></p><ul><li>One</li></ul></main></body></html>',
    );
    expect(doc.title).toBe('Page');
    expect(doc.blocks).toEqual([
      { level: 1, text: 'Hi' },
      { level: 0, text: 'Body text' },
      { level: 0, text: 'One' },
    ]);
  });
});

describe.each(await testEngines())('search index on %s', (engine) => {
  let t: TestContext;
  let index: SqlSearchIndex;
  beforeAll(async () => {
    t = await createTestApp({ engine });
    index = new SqlSearchIndex(t.deps.db);
  });
  afterAll(async () => {
    await t.close();
  });

  it('an empty index answers count 0 with 200', async () => {
    const res = await t.app.request('/api/ai/search-test?q=website');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toEqual({ query: 'website', count: 0, results: [] });
  });

  it('lists document keys by prefix literally (LIKE wildcards, accents, astral characters)', async () => {
    const doc = (key: string) => ({ key, url: null, source: key, title: null, chunks: ['dingo'] });
    for (const key of ['file:/a_%/x.md', 'file:/ab%/y.md', 'file:/año😀/z.md', 'file:/año😀x/w.md']) {
      await index.replaceDocument(doc(key));
    }
    expect(await index.documentKeys('file:/a_%/')).toEqual(['file:/a_%/x.md']);
    expect(await index.documentKeys('file:/año😀/')).toEqual(['file:/año😀/z.md']);
    for (const key of await index.documentKeys('file:/a')) await index.removeDocument(key);
    expect(await index.documentKeys('file:/a')).toEqual([]);
  });

  it('ingests the sample corpus idempotently and ranks the right path first', async () => {
    const first = await ingest(index, CORPUS);
    expect(first).toMatchObject({ added: 5, updated: 0, failed: [] });
    const stats = await index.stats();
    const again = await ingest(index, CORPUS);
    expect(again).toMatchObject({ added: 0, updated: 0, unchanged: 5 });
    expect(await index.stats()).toEqual(stats);

    const res = await t.app.request('/api/ai/search-test?q=%20%20mobile%20app%20MVP%20%20');
    const body = await res.json();
    expect(body.query).toBe('mobile app MVP');
    expect(body.count).toBeGreaterThan(0);
    expect(body.results[0].source).toBe('launch.md');
    expect(typeof body.results[0].score).toBe('number');
    for (const result of body.results) expect(result.text.length).toBeLessThanOrEqual(800);
  });

  it('folds accents and handles Spanish queries', async () => {
    const hits = await index.search('automatización de procesos y facturacion');
    expect(hits[0]?.source).toBe('custom.md');
    const accented = await index.search('auditoría de código');
    const plain = await index.search('auditoria de codigo');
    expect(accented.map((h) => h.text)).toEqual(plain.map((h) => h.text));
    expect(accented[0]?.source).toBe('technical-review.md');
  });

  it('folds decomposed accents (n + U+0303, as macOS writes ñ) and ligatures like precomposed letters', async () => {
    const decomposed = 'Pingu\u0308ino an\u0303ejo en el camio\u0301n, \ufb01ordo';
    await index.replaceDocument({ key: 'nfd', url: null, source: 'nfd', title: null, chunks: [decomposed] });
    await index.replaceDocument({
      key: 'nfc',
      url: null,
      source: 'nfc',
      title: null,
      chunks: ['Ñandú rápido'],
    });
    try {
      for (const q of ['pingüino añejo', 'anejo', 'CAMIÓN', 'fiordo'])
        expect(
          (await index.search(q)).map((h) => h.source),
          q,
        ).toEqual(['nfd']);
      for (const q of ['n\u0303andu\u0301', 'nandu'])
        expect(
          (await index.search(q)).map((h) => h.source),
          q,
        ).toEqual(['nfc']);
    } finally {
      await index.removeDocument('nfd');
      await index.removeDocument('nfc');
    }
  });

  it('matches the singular and the plural of a word both ways (EN and ES)', async () => {
    const docs = [
      ['plural-en', 'Our giraffes, kites and yaks'],
      ['singular-en', 'A giraffe, a kite and a yak'],
      ['plural-es', 'Tomates de los caracoles en trenes'],
      ['singular-es', 'El tomate del caracol en el tren'],
      ['process', 'The moss of the fox'],
    ] as const;
    for (const [key, text] of docs)
      await index.replaceDocument({ key, url: null, source: key, title: null, chunks: [text] });
    const found = async (q: string) => (await index.search(q, { limit: 10 })).map((h) => h.source).sort();
    try {
      for (const q of ['giraffe', 'giraffes', 'kite', 'kites', 'yak', 'yaks'])
        expect(await found(q), q).toEqual(['plural-en', 'singular-en']);
      for (const q of ['tomate', 'tomates', 'caracol', 'caracoles', 'tren', 'trenes'])
        expect(await found(q), q).toEqual(['plural-es', 'singular-es']);
      for (const q of ['mosses', 'foxes']) expect(await found(q), q).toEqual(['process']);
    } finally {
      for (const [key] of docs) await index.removeDocument(key);
    }
  });

  it('re-indexes on the next ingest a document indexed before the folding changed (not "unchanged")', async () => {
    const doc = {
      key: 'old-format',
      url: null,
      source: 'old.md',
      title: null,
      chunks: ['Dise\u006e\u0303o'],
    };
    await index.replaceDocument(doc);
    // The hash the index stored before INDEX_FORMAT: an index filled then splits "n" + U+0303.
    const before = createHash('sha256')
      .update(JSON.stringify([doc.url, doc.source, doc.title, doc.chunks]))
      .digest('hex');
    await sql`update search_documents set content_hash = ${before} where key = ${doc.key}`.execute(t.deps.db);
    try {
      expect(await index.replaceDocument(doc)).toBe('updated');
      expect(await index.replaceDocument(doc)).toBe('unchanged');
    } finally {
      await index.removeDocument(doc.key);
    }
  });

  it('ranks a short chunk above a long one that holds a one-word query as often (bm25 and ts_rank agree)', async () => {
    const filler = (n: number) => Array.from({ length: n }, (_, i) => `filler${i % 60}`).join(' ');
    const docs = [
      { key: 'rank-long', chunks: [`cassowary ${filler(200)}`] },
      { key: 'rank-short', chunks: ['cassowary facts'] },
      ...Array.from({ length: 8 }, (_, i) => ({
        key: `rank-other-${i}`,
        chunks: [`unrelated ${filler(50)}`],
      })),
    ];
    for (const doc of docs) await index.replaceDocument({ ...doc, url: null, source: doc.key, title: null });
    try {
      expect((await index.search('cassowary')).map((h) => h.source)).toEqual(['rank-short', 'rank-long']);
    } finally {
      for (const doc of docs) await index.removeDocument(doc.key);
    }
  });

  it('chunks a 2 MB line without spaces (a CSV, minified code) into small chunks both engines index', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ingest-csv-'));
    try {
      const line = Array.from({ length: 200_000 }, (_, i) => `item${i}`).join(',');
      await writeFile(join(dir, 'data.md'), `# Data\n\n${line}`);
      await writeFile(join(dir, 'blob.md'), `# Blob\n\nitem5 ${'z'.repeat(1_000_000)}`);
      const report = await ingest(index, dir);
      expect(report).toMatchObject({ added: 2, failed: [] });
      const hits = await index.search('item123456');
      expect(hits.map((h) => h.source)).toEqual(['data.md']);
      expect(hits[0]!.text).toMatch(/^Data\n/);
      expect(hits[0]!.text.length).toBeLessThan(5000);
      const blob = (await index.search('item5', { limit: 50 })).find((h) => h.source === 'blob.md');
      expect(blob?.text.length).toBeLessThan(50_000);
      expect((await ingest(index, dir)).unchanged).toBe(2);
    } finally {
      await removeFromIndex(index, dir);
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('indexes a page with a 1.5 MB <title> (cut to MAX_TITLE_CHARS; PostgreSQL refused it in every chunk)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ingest-title-'));
    try {
      const title = Array.from({ length: 200_000 }, (_, i) => `t${i}`).join(' ');
      await writeFile(join(dir, 'page.html'), `<title>${title}</title><p>tuatara ${'word '.repeat(500)}</p>`);
      expect(await ingest(index, dir)).toMatchObject({ added: 1, failed: [] });
      const hits = await index.search('tuatara word', { limit: 50 });
      expect(hits.length).toBeGreaterThan(1);
      for (const hit of hits) expect(hit.title!.length).toBeLessThanOrEqual(MAX_TITLE_CHARS);
      expect((await index.search('t5'))[0]?.source).toBe('page.html');
    } finally {
      await removeFromIndex(index, dir);
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('treats query syntax as plain words', async () => {
    for (const q of ['"unbalanced', 'NEAR(a b)', 'a & b | !c', "x' or 1=1 --", '*', '())(']) {
      const res = await t.app.request(`/api/ai/search-test?q=${encodeURIComponent(q)}`);
      expect(res.status).toBe(200);
    }
  });

  it('cuts the query to 500 characters', async () => {
    const res = await t.app.request(`/api/ai/search-test?q=${'seo '.repeat(300)}`);
    const body = await res.json();
    expect(body.query.length).toBeLessThanOrEqual(500);
  });

  it('re-ingesting a changed document replaces its chunks; source follows url, source, title, item key', async () => {
    await index.replaceDocument({
      key: 'doc-a',
      url: null,
      source: null,
      title: 'Zebra title',
      chunks: ['zebra one', 'zebra two'],
    });
    expect((await index.search('zebra')).map((h) => h.source)).toEqual(['Zebra title', 'Zebra title']);
    expect(
      await index.replaceDocument({
        key: 'doc-a',
        url: 'https://x.test/z',
        source: 's',
        title: 't',
        chunks: ['zebra three'],
      }),
    ).toBe('updated');
    const hits = await index.search('zebra');
    expect(hits.map((h) => [h.source, h.text])).toEqual([['https://x.test/z', 'zebra three']]);
    await index.replaceDocument({ key: 'doc-b', url: null, source: null, title: null, chunks: ['quokka'] });
    expect((await index.search('quokka'))[0]?.source).toBe('doc-b#0');
    expect(await index.removeDocument('doc-b')).toBe(true);
    expect(await index.search('quokka')).toEqual([]);
  });
});

describe('ingestion from URLs', () => {
  let site: StandIn;
  let t: TestContext;
  let index: SqlSearchIndex;
  beforeAll(async () => {
    site = await startStandIn((req, res) => {
      const base = site.url;
      if (req.url === '/sitemap.xml') {
        res.writeHead(200, { 'content-type': 'application/xml' });
        res.end(
          `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${base}/pages.xml</loc></sitemap></sitemapindex>`,
        );
        return;
      }
      if (req.url === '/pages.xml') {
        res.writeHead(200, { 'content-type': 'application/xml' });
        res.end(
          `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${base}/a</loc></url><url><loc>${base}/b</loc></url><url><loc>${base}/missing</loc></url></urlset>`,
        );
        return;
      }
      if (req.url === '/broken-index.xml') {
        res.writeHead(200, { 'content-type': 'application/xml' });
        res.end(
          `<sitemapindex><sitemap><loc>${base}/gone.xml</loc></sitemap><sitemap><loc>${base}/pages-huge.xml</loc></sitemap></sitemapindex>`,
        );
        return;
      }
      if (req.url === '/pages-huge.xml') {
        res.writeHead(200, { 'content-type': 'application/xml' });
        res.end(
          `<urlset><url><loc>${base}/a</loc></url><url><loc>${base}/b</loc></url><url><loc>${base}/huge</loc></url><url><loc>${base}/missing</loc></url></urlset>`,
        );
        return;
      }
      if (req.url === '/huge') {
        res.writeHead(200, { 'content-type': 'text/html' }); // chunked: no Content-Length to refuse early
        for (let i = 0; i < 6; i++) res.write(`<p>${'x'.repeat(1024 * 1024)}</p>`);
        res.end();
        return;
      }
      if (req.url === '/a' || req.url === '/b') {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(
          `<html><head><title>Page ${req.url}</title></head><body><h1>Heading</h1><p>platypus page ${req.url}</p></body></html>`,
        );
        return;
      }
      if (req.url === '/mixed.xml') {
        res.writeHead(200, { 'content-type': 'application/xml' });
        res.end(
          `<urlset><url><loc>${base}/latin1</loc></url><url><loc>${base}/meta-1252</loc></url><url><loc>${base}/brochure.pdf</loc></url><url><loc>${base}/untyped-binary</loc></url></urlset>`,
        );
        return;
      }
      if (req.url === '/latin1') {
        // A Spanish page served as ISO-8859-1: every accented letter is one byte that is not UTF-8.
        res.writeHead(200, { 'content-type': 'text/html; charset=ISO-8859-1' });
        res.end(Buffer.from('<title>Diseño</title><p>dugong diseño de página</p>', 'latin1'));
        return;
      }
      if (req.url === '/meta-1252') {
        res.writeHead(200, { 'content-type': 'text/html' }); // the page itself declares its encoding
        res.end(Buffer.from('<meta charset="windows-1252"><p>dugong café \x80 5</p>', 'latin1'));
        return;
      }
      if (req.url === '/brochure.pdf') {
        res.writeHead(200, { 'content-type': 'application/pdf' });
        res.end(Buffer.from('%PDF-1.7 dugong\n\u0000\u0001', 'latin1'));
        return;
      }
      if (req.url === '/untyped-binary') {
        res.writeHead(200); // no Content-Type: the bytes tell
        res.end(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x71, 0x75]));
        return;
      }
      if (req.url?.startsWith('/wp/posts')) {
        const page = Number(new URL(req.url, base).searchParams.get('page'));
        const posts = page === 1 ? wpPostIds.slice(0, 2).map(post) : wpPostIds.slice(2).map(post);
        const pages = wpPostIds.length > 2 ? '2' : '1';
        return sendJson(res, 200, posts, {
          'X-WP-Total': String(wpPostIds.length),
          'X-WP-TotalPages': pages,
        });
      }
      if (req.url?.startsWith('/wp-odd/posts')) {
        const page = Number(new URL(req.url, base).searchParams.get('page'));
        const headers: Record<string, string> = wpOdd.declared
          ? { 'X-WP-Total': String(wpOdd.pages.flat().length), 'X-WP-TotalPages': String(wpOdd.pages.length) }
          : {};
        return sendJson(res, 200, (wpOdd.pages[page - 1] ?? []).map(post), headers);
      }
      if (req.url?.startsWith('/wp-huge/posts')) {
        res.writeHead(200, { 'content-type': 'application/json' }); // chunked: refused while it streams
        res.write('[');
        for (let i = 0; i < 26; i++)
          res.write(`${i ? ',' : ''}${JSON.stringify(post(i))}`.padEnd(1024 * 1024));
        res.end(']');
        return;
      }
      sendJson(res, 404, {});
    });
    t = await createTestApp();
    index = new SqlSearchIndex(t.deps.db);
  });
  afterAll(async () => {
    await t.close();
    await site.close();
  });
  let wpPostIds = [1, 2, 3];
  let wpOdd: { pages: number[][]; declared: boolean } = { pages: [], declared: true };
  const post = (id: number) => ({
    id,
    link: `https://blog.test/post-${id}`,
    title: { rendered: `Post &amp; ${id}` },
    content: { rendered: `<h2>Part</h2><p>wombat story ${id}</p>` },
  });

  it('follows a sitemap index, reports failed pages, and is idempotent', async () => {
    const ticks: string[] = [];
    const progress = { start() {}, tick: (label: string) => ticks.push(label), stop() {} };
    const report = await ingest(index, `${site.url}/sitemap.xml`, { progress });
    expect(report.added).toBe(2);
    expect(report.failed.map((f) => f.location)).toEqual([`${site.url}/missing`]);
    expect(ticks).toHaveLength(3);
    const hits = await index.search('platypus');
    expect(hits.map((h) => h.source).sort()).toEqual([`${site.url}/a`, `${site.url}/b`]);
    expect((await ingest(index, `${site.url}/sitemap.xml`)).unchanged).toBe(2);
  });

  it('pages through the WordPress posts', async () => {
    const report = await ingest(index, 'wordpress', { wordpressApiUrl: `${site.url}/wp` });
    expect(report).toMatchObject({ added: 3, failed: [] });
    const hits = await index.search('wombat');
    expect(hits).toHaveLength(3);
    expect(hits.every((h) => h.source.startsWith('https://blog.test/post-'))).toBe(true);
    expect(hits[0]?.title).toMatch(/^Post & \d$/);
  });

  it('drops posts gone from WordPress, only after a complete listing; refuses an oversized page', async () => {
    await ingest(index, 'wordpress', { wordpressApiUrl: `${site.url}/wp` });
    wpPostIds = [1, 3, 4]; // two pages: 1 and 3, then 4
    try {
      // A listing cut short by maxDocuments proves nothing about the posts it did not reach.
      expect(
        (await ingest(index, 'wordpress', { wordpressApiUrl: `${site.url}/wp`, maxDocuments: 1 })).removed,
      ).toBe(0);
      expect(await index.search('wombat')).toHaveLength(3);
      const report = await ingest(index, 'wordpress', { wordpressApiUrl: `${site.url}/wp` });
      expect(report).toMatchObject({ removed: 1, unchanged: 2, added: 1 });
      expect((await index.search('wombat')).map((h) => h.source).sort()).toEqual([
        'https://blog.test/post-1',
        'https://blog.test/post-3',
        'https://blog.test/post-4',
      ]);
    } finally {
      wpPostIds = [1, 2, 3];
      await ingest(index, 'wordpress', { wordpressApiUrl: `${site.url}/wp` });
    }
    await expect(ingest(index, 'wordpress', { wordpressApiUrl: `${site.url}/wp-huge` })).rejects.toThrow(
      `larger than ${MAX_WORDPRESS_PAGE_BYTES} bytes`,
    );
  });

  it('keeps the WordPress posts after a listing that is empty, has an empty page, or lacks X-WP-TotalPages', async () => {
    const wp = (api: string, maxDocuments?: number) =>
      ingest(index, 'wordpress', { wordpressApiUrl: `${site.url}/${api}`, maxDocuments });
    await wp('wp');
    const keys = await index.documentKeys('wp:');
    expect(keys).toHaveLength(3);
    try {
      wpOdd = { pages: [[]], declared: true }; // an empty list with 200 (a plugin, an error page)
      expect((await wp('wp-odd')).removed).toBe(0);
      wpOdd = { pages: [[1], []], declared: true }; // two pages declared, the second comes back empty
      expect((await wp('wp-odd')).removed).toBe(0);
      // No X-WP-TotalPages (a proxy dropped it): a full first page may not be the last.
      const many = Array.from({ length: 103 }, (_, i) => i + 1);
      wpOdd = { pages: [many.slice(0, 100), many.slice(100)], declared: true };
      expect(await wp('wp-odd')).toMatchObject({ added: 100, removed: 0 });
      wpOdd.declared = false;
      expect((await wp('wp-odd')).removed).toBe(0);
      expect(await index.documentKeys('wp:')).toHaveLength(103);
      wpOdd = { pages: [[1, 2, 3]], declared: false }; // a short page without the header is the last
      expect((await wp('wp-odd')).removed).toBe(100);
    } finally {
      await wp('wp');
    }
    expect((await index.documentKeys('wp:')).sort()).toEqual(keys.sort());
  });

  it('drops files gone from a folder ingested again, keeps those that failed to read and other folders', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ingest-prune-'));
    try {
      for (const folder of ['site', 'other']) await mkdir(join(dir, folder));
      await writeFile(join(dir, 'site', 'keep.md'), '# Numbat\n\nnumbat kept');
      await writeFile(join(dir, 'site', 'gone.md'), '# Numbat gone\n\nnumbat deleted later');
      await writeFile(join(dir, 'site', 'broken.md'), '# Numbat broken\n\nnumbat that grows too big');
      await writeFile(join(dir, 'other', 'elsewhere.md'), '# Numbat elsewhere\n\nnumbat in another folder');
      await ingest(index, join(dir, 'site'));
      await ingest(index, join(dir, 'other'));
      expect(await index.search('numbat')).toHaveLength(4);
      await rm(join(dir, 'site', 'gone.md'));
      await writeFile(join(dir, 'site', 'broken.md'), 'x'.repeat(MAX_DOCUMENT_BYTES + 1));
      const report = await ingest(index, join(dir, 'site'));
      expect(report).toMatchObject({ removed: 1, unchanged: 1 });
      expect(report.failed.map((f) => f.location)).toEqual(['broken.md']);
      expect((await index.search('numbat')).map((h) => h.source).sort()).toEqual([
        'broken.md',
        'elsewhere.md',
        'keep.md',
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('removes what a target put in: a page URL, a folder (gone from disk too) or one file, the WordPress posts', async () => {
    await ingest(index, `${site.url}/a`);
    expect(await removeFromIndex(index, `${site.url}/a`)).toBe(1);
    expect(await removeFromIndex(index, `${site.url}/a`)).toBe(0);
    const dir = await mkdtemp(join(tmpdir(), 'ingest-remove-'));
    try {
      await mkdir(join(dir, 'sub'));
      await writeFile(join(dir, 'one.md'), '# Bilby\n\nbilby one');
      await writeFile(join(dir, 'sub', 'two.md'), '# Bilby two\n\nbilby two');
      await writeFile(join(`${dir}-sibling.md`), '# Bilby sibling\n\nbilby beside the folder');
      await ingest(index, dir);
      await ingest(index, `${dir}-sibling.md`);
      expect(await removeFromIndex(index, join(dir, 'sub', 'two.md'))).toBe(1);
      await rm(dir, { recursive: true, force: true });
      expect(await removeFromIndex(index, dir)).toBe(1);
      expect((await index.search('bilby')).map((h) => h.source)).toEqual([`${basename(dir)}-sibling.md`]);
    } finally {
      await rm(dir, { recursive: true, force: true });
      await rm(`${dir}-sibling.md`, { force: true });
    }
    await ingest(index, 'wordpress', { wordpressApiUrl: `${site.url}/wp` });
    expect(await removeFromIndex(index, 'wordpress')).toBe(3);
    expect(await index.search('wombat')).toEqual([]);
    await ingest(index, 'wordpress', { wordpressApiUrl: `${site.url}/wp` });
  });

  it('npm run ingest -- --remove takes a folder out again (the command line, on its own database)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ingest-cli-'));
    try {
      await writeFile(join(dir, 'one.md'), '# Potoroo\n\npotoroo one');
      await writeFile(join(dir, 'two.md'), '# Potoroo two\n\npotoroo two');
      const run = (...args: string[]) =>
        spawnSync(process.execPath, ['src/search/ingest-cli.ts', ...args], {
          cwd: new URL('../../', import.meta.url).pathname,
          env: { PATH: process.env.PATH ?? '', DATABASE_URL: `sqlite:${join(dir, 'index.db')}` },
          encoding: 'utf8',
        });
      const added = run(dir);
      expect(added.status, added.stderr).toBe(0);
      expect(added.stdout).toContain('2 added');
      const removed = run('--remove', dir);
      expect(removed.status, removed.stderr).toBe(0);
      expect(removed.stdout).toContain('removed 2 documents');
      expect(removed.stdout).toContain('the index holds 0 documents');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses wordpress without WORDPRESS_API_URL and a missing folder', async () => {
    await expect(ingest(index, 'wordpress')).rejects.toThrow(/WORDPRESS_API_URL/);
    await expect(ingest(index, '/nonexistent/folder')).rejects.toThrow(/does not exist/);
  });

  it('keys files by their absolute path: two folders with a build.md keep both, a subfolder is the same file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ingest-keys-'));
    try {
      for (const folder of ['one', 'two', 'one/sub']) await mkdir(join(dir, folder), { recursive: true });
      await writeFile(join(dir, 'one', 'build.md'), '# Echidna one\n\nechidna from the first folder');
      await writeFile(join(dir, 'two', 'build.md'), '# Echidna two\n\nechidna from the second folder');
      await writeFile(join(dir, 'one', 'sub', 'deep.md'), '# Quokka\n\nquokka in a subfolder');
      expect((await ingest(index, join(dir, 'one'))).added).toBe(2);
      expect((await ingest(index, join(dir, 'two'))).added).toBe(1);
      expect(await index.search('echidna')).toHaveLength(2);
      // The same file again (its shown source is now relative to the subfolder): no second copy.
      expect((await ingest(index, join(dir, 'one', 'sub'))).added).toBe(0);
      expect(await index.search('quokka')).toHaveLength(1);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('reports a broken child sitemap and a page over the size cap, and ingests the rest', async () => {
    const report = await ingest(index, `${site.url}/broken-index.xml`);
    expect(report.added + report.unchanged + report.updated).toBe(2);
    expect(report.failed.map((f) => f.location).sort()).toEqual(
      [`${site.url}/gone.xml`, `${site.url}/huge`, `${site.url}/missing`].sort(),
    );
  });

  it('reads pages in their own encoding (charset, <meta charset>) and refuses a PDF or binary data a sitemap lists', async () => {
    const report = await ingest(index, `${site.url}/mixed.xml`);
    expect(report.added).toBe(2);
    expect(report.failed).toEqual([
      { location: `${site.url}/brochure.pdf`, reason: expect.stringContaining('(application/pdf)') },
      { location: `${site.url}/untyped-binary`, reason: expect.stringContaining('binary data') },
    ]);
    const texts = (await index.search('dugong')).map((h) => h.text).sort();
    expect(texts).toEqual([
      expect.stringContaining('dugong café € 5'),
      expect.stringContaining('dugong diseño de página'),
    ]);
    // Accents folded as for any other text: the Spanish words are found without them.
    expect((await index.search('diseno pagina')).map((h) => h.source)).toEqual([`${site.url}/latin1`]);
  });

  it('reads files in their own encoding (Windows-1252, UTF-16, <meta charset>) and refuses binary files', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ingest-encodings-'));
    try {
      await writeFile(join(dir, 'ansi.md'), Buffer.from('# Año\n\nwallaby diseño en español', 'latin1'));
      const notepad = Buffer.from('# Notepad\n\nwallaby ñandú', 'utf16le');
      await writeFile(join(dir, 'notepad.md'), Buffer.concat([Buffer.from([0xff, 0xfe]), notepad]));
      await writeFile(
        join(dir, 'page.html'),
        Buffer.from('<meta charset="windows-1252"><h1>Café</h1><p>wallaby café \x80 5</p>', 'latin1'),
      );
      await writeFile(join(dir, 'utf8.md'), '\uFEFF# Ñu\n\nwallaby ñu ☕');
      await writeFile(
        join(dir, 'logo.md'),
        Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]),
      );
      const report = await ingest(index, dir);
      expect(report.added).toBe(4);
      expect(report.failed).toEqual([
        { location: 'logo.md', reason: 'not a text file (it holds binary data).' },
      ]);
      const hits = await index.search('wallaby');
      const text = (source: string) => hits.find((h) => h.source === source)?.text;
      expect(text('ansi.md')).toContain('wallaby diseño en español');
      expect(text('notepad.md')).toContain('wallaby ñandú');
      expect(text('page.html')).toContain('wallaby café € 5');
      expect(text('utf8.md')).toContain('wallaby ñu ☕');
      expect(hits.map((h) => h.text).join('')).not.toContain('\uFFFD');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses a file nested deeper than MAX_HTML_NESTING (HTML or raw HTML in Markdown) and ingests the rest', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ingest-nesting-'));
    const nested = (depth: number) => `${'<div>'.repeat(depth)}dunnart${'</div>'.repeat(depth)}`;
    try {
      await writeFile(join(dir, 'deep.html'), nested(MAX_HTML_NESTING + 20_000));
      await writeFile(join(dir, 'deep.md'), `# Deep\n\n${nested(MAX_HTML_NESTING + 1)}\n`);
      await writeFile(join(dir, 'fine.html'), `<body>${nested(MAX_HTML_NESTING - 10)}</body>`);
      const report = await ingest(index, dir);
      expect(report.added).toBe(1);
      const reason = `the document nests its elements more than ${MAX_HTML_NESTING} levels deep.`;
      expect(report.failed).toEqual([
        { location: 'deep.html', reason },
        { location: 'deep.md', reason },
      ]);
      expect((await index.search('dunnart')).map((h) => h.source)).toEqual(['fine.html']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('ingests a folder of HTML and Markdown files, skipping other files', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ingest-'));
    try {
      await writeFile(join(dir, 'one.html'), '<h1>Koala</h1><p>koala facts</p>');
      await writeFile(join(dir, 'two.md'), '# Koala two\n\nmore koala');
      await writeFile(join(dir, 'skip.txt'), 'koala');
      expect((await ingest(index, dir)).added).toBe(2);
      expect((await index.search('koala')).map((h) => h.source).sort()).toEqual(['one.html', 'two.md']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe.each(await testEngines())('sitemap re-ingestion on %s', (engine) => {
  let site: StandIn;
  let t: TestContext;
  let index: SqlSearchIndex;
  // What the site serves: sitemaps of pages and sitemap indexes by path, and paths answering 500.
  let sitemaps: Record<string, string[]> = {};
  let indexes: Record<string, string[]> = {};
  const down = new Set<string>();
  beforeAll(async () => {
    site = await startStandIn((req, res) => {
      const base = site.url;
      const xml = (body: string) => {
        res.writeHead(200, { 'content-type': 'application/xml' });
        res.end(`<?xml version="1.0"?>${body}`);
      };
      if (down.has(req.url)) {
        res.writeHead(500);
        res.end();
      } else if (sitemaps[req.url]) {
        xml(
          `<urlset>${sitemaps[req.url]!.map((p) => `<url><loc>${base}${p}</loc></url>`).join('')}</urlset>`,
        );
      } else if (indexes[req.url]) {
        xml(
          `<sitemapindex>${indexes[req.url]!.map((p) => `<sitemap><loc>${base}${p}</loc></sitemap>`).join('')}</sitemapindex>`,
        );
      } else if (req.url === '/soft-404.xml') {
        res.writeHead(200, { 'content-type': 'text/html' }); // an error page answered with 200
        res.end('<html><body><h1>Not found</h1></body></html>');
      } else if (/^\/[a-z]+\/[a-z]+$/.test(req.url)) {
        const [, word, name] = req.url.split('/');
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(`<title>${name}</title><p>${word} page ${name}</p>`);
      } else {
        sendJson(res, 404, {});
      }
    });
    t = await createTestApp({ engine });
    index = new SqlSearchIndex(t.deps.db);
  });
  afterAll(async () => {
    await t.close();
    await site.close();
  });
  const sources = async (word: string) =>
    (await index.search(word, { limit: 50 })).map((h) => h.source.replace(site.url, '')).sort();
  const chunkRows = () =>
    t.deps.db
      .selectFrom('search_chunks')
      .select(['id', 'document_key', 'position', 'source', 'text'])
      .orderBy('id')
      .execute();

  it('drops the pages a sitemap no longer lists, never those another target lists or other sources', async () => {
    const url = (path: string) => `${site.url}${path}`;
    await index.replaceDocument({
      key: 'file:/x/b.md',
      url: null,
      source: 'b.md',
      title: null,
      chunks: ['bandicoot'],
    });
    await ingest(index, url('/bandicoot/e')); // one page given on its own
    sitemaps = {
      '/one.xml': ['/bandicoot/a', '/bandicoot/b', '/bandicoot/c', '/bandicoot/a', '/bandicoot/e'],
      '/two.xml': ['/bandicoot/b', '/bandicoot/d'],
    };
    expect(await ingest(index, url('/one.xml'))).toMatchObject({
      added: 3,
      updated: 1,
      removed: 0,
      failed: [],
    });
    expect(await ingest(index, url('/two.xml'))).toMatchObject({ added: 1, updated: 1, removed: 0 });
    // The same input twice in a row: nothing changes, not even a chunk id.
    const rows = await chunkRows();
    expect(await ingest(index, url('/one.xml'))).toMatchObject({ unchanged: 4, updated: 0, removed: 0 });
    expect(await chunkRows()).toEqual(rows);

    sitemaps['/one.xml'] = ['/bandicoot/a'];
    // c goes; b stays (two.xml lists it), e stays (ingested as a page of its own).
    expect(await ingest(index, url('/one.xml'))).toMatchObject({ removed: 1, unchanged: 1 });
    expect(await sources('bandicoot')).toEqual([
      '/bandicoot/a',
      '/bandicoot/b',
      '/bandicoot/d',
      '/bandicoot/e',
      'b.md',
    ]);
    expect(await ingest(index, url('/two.xml'))).toMatchObject({ unchanged: 2, removed: 0 });
    sitemaps['/two.xml'] = ['/bandicoot/d'];
    expect(await ingest(index, url('/two.xml'))).toMatchObject({ removed: 1, unchanged: 1 });
    expect(await sources('bandicoot')).toEqual(['/bandicoot/a', '/bandicoot/d', '/bandicoot/e', 'b.md']);

    // --remove <sitemap URL> takes out the pages only that sitemap listed.
    sitemaps['/two.xml'] = ['/bandicoot/d', '/bandicoot/a'];
    await ingest(index, url('/two.xml'));
    expect(await removeFromIndex(index, url('/one.xml'))).toBe(0); // a is still listed by two.xml
    expect(await removeFromIndex(index, url('/two.xml'))).toBe(2);
    expect(await sources('bandicoot')).toEqual(['/bandicoot/e', 'b.md']);
  });

  it('removes nothing after an incomplete or empty listing; a listed page that fails keeps its copy', async () => {
    const url = (path: string) => `${site.url}${path}`;
    sitemaps = { '/p1.xml': ['/cassowary/f', '/cassowary/g'], '/p2.xml': ['/cassowary/h'] };
    indexes = { '/index.xml': ['/p1.xml', '/p2.xml'] };
    expect(await ingest(index, url('/index.xml'))).toMatchObject({ added: 3, failed: [] });
    const all = ['/cassowary/f', '/cassowary/g', '/cassowary/h'];

    down.add('/cassowary/g'); // listed, but fails this time
    let report = await ingest(index, url('/index.xml'));
    expect(report).toMatchObject({ removed: 0, unchanged: 2 });
    expect(report.failed.map((f) => f.location)).toEqual([url('/cassowary/g')]);
    down.delete('/cassowary/g');

    sitemaps['/p1.xml'] = ['/cassowary/f']; // g is really gone now, but the listing is not whole:
    down.add('/p2.xml'); // a child sitemap fails,
    report = await ingest(index, url('/index.xml'));
    expect(report.removed).toBe(0);
    expect(report.failed.map((f) => f.location)).toEqual([url('/p2.xml')]);
    down.delete('/p2.xml');
    indexes['/index.xml'] = ['/p1.xml', '/soft-404.xml']; // or answers an error page with 200,
    report = await ingest(index, url('/index.xml'));
    expect(report.removed).toBe(0);
    expect(report.failed).toEqual([
      { location: url('/soft-404.xml'), reason: expect.stringContaining('not a sitemap of pages') },
    ]);
    indexes['/index.xml'] = ['/p1.xml', '/p2.xml'];
    expect((await ingest(index, url('/index.xml'), { maxDocuments: 1 })).removed).toBe(0); // or is cut short,
    sitemaps = { '/p1.xml': [], '/p2.xml': [] }; // or comes back empty.
    expect((await ingest(index, url('/index.xml'))).removed).toBe(0);
    expect(await sources('cassowary')).toEqual(all);

    sitemaps = { '/p1.xml': ['/cassowary/f'], '/p2.xml': ['/cassowary/h'] };
    expect(await ingest(index, url('/index.xml'))).toMatchObject({ removed: 1, failed: [] });
    expect(await sources('cassowary')).toEqual(['/cassowary/f', '/cassowary/h']);
  });
});
