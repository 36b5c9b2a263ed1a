import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../testing/database.ts';
import { type StandIn, sendJson, startStandIn } from '../testing/stand-in.ts';
import { createTestApp, type TestContext } from '../testing/test-app.ts';
import { chunkDocument, parseHtml, parseMarkdown } from './chunk.ts';
import { ingest, MAX_DOCUMENT_BYTES, MAX_WORDPRESS_PAGE_BYTES, removeFromIndex } from './ingest.ts';
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
