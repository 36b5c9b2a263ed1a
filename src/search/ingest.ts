import { readdir, readFile, stat } from 'node:fs/promises';
import { extname, join, relative, resolve } from 'node:path';
import * as cheerio from 'cheerio';
import { truncate } from '../integrations/llm/offline/text.ts';
import { decodeMarkup, decodePlainText, looksBinary } from '../text/decode-text.ts';
import { parseHtmlBounded } from '../text/html.ts';
import { chunkDocument, type ParsedDocument, parseHtml, parseMarkdown } from './chunk.ts';
import type { IndexedDocument, ReplaceOutcome, SqlSearchIndex } from './sql-search-index.ts';

/**
 * Ingestion into the search index from a folder of Markdown/HTML files, a sitemap URL (or one page
 * URL), or the configured WordPress site. These URLs come from the operator's command line, not from
 * visitors, so a plain fetch with a timeout is enough here; visitor-supplied URLs go through the
 * safe-fetch integration instead.
 */
export interface IngestProgress {
  start(total: number): void;
  /** One document done (or failed); `total` may grow while a sitemap or WordPress is paged through. */
  tick(label: string, total?: number): void;
  stop(): void;
}

export interface IngestOptions {
  wordpressApiUrl?: string;
  progress?: IngestProgress;
  timeoutMs?: number;
  /** Upper bound on pages read from a sitemap or WordPress. */
  maxDocuments?: number;
}

export interface IngestReport {
  added: number;
  updated: number;
  unchanged: number;
  /** Documents of the folder, sitemap or WordPress site ingested before that are gone from it now. */
  removed: number;
  failed: { location: string; reason: string }[];
}

/** A document (file, page, sitemap) larger than this is reported as failed, not read. */
export const MAX_DOCUMENT_BYTES = 5 * 1024 * 1024;
/** One page of WordPress posts (up to 100 posts with their content) is refused past this. */
export const MAX_WORDPRESS_PAGE_BYTES = 25 * 1024 * 1024;

/**
 * A longer title is cut: the title is indexed with every chunk and stored on each, so a 1 MB
 * `<title>` (or a first `<h1>` never closed) made each chunk's index entry over 1 MB, which
 * PostgreSQL refuses (SQLite wrote it again for every chunk).
 */
export const MAX_TITLE_CHARS = 200;

const DOCUMENT_EXTENSIONS = new Set(['.md', '.markdown', '.mdx', '.html', '.htm']);
const WORDPRESS_PAGE_SIZE = 100;

const silent: IngestProgress = { start() {}, tick() {}, stop() {} };

/** `target`: a folder path, an `http(s)://` sitemap or page URL, or `wordpress`. */
export async function ingest(
  index: SqlSearchIndex,
  target: string,
  options: IngestOptions = {},
): Promise<IngestReport> {
  const progress = options.progress ?? silent;
  const report: IngestReport = { added: 0, updated: 0, unchanged: 0, removed: 0, failed: [] };
  const count = (outcome: ReplaceOutcome) => {
    report[outcome]++;
  };
  const fetcher = new Fetcher(options.timeoutMs ?? 15_000);
  const max = options.maxDocuments ?? 5000;
  try {
    if (target === 'wordpress' || target === 'wp') {
      if (!options.wordpressApiUrl)
        throw new Error('WORDPRESS_API_URL is not set; cannot ingest the WordPress site.');
      await ingestWordPress(index, options.wordpressApiUrl, fetcher, progress, report, count, max);
    } else if (/^https?:\/\//i.test(target)) {
      await ingestUrl(index, target, fetcher, progress, report, count, max);
    } else {
      await ingestFolder(index, target, progress, report, count);
    }
  } finally {
    progress.stop();
  }
  return report;
}

async function ingestFolder(
  index: SqlSearchIndex,
  folder: string,
  progress: IngestProgress,
  report: IngestReport,
  count: (o: ReplaceOutcome) => void,
) {
  const root = resolve(folder);
  const info = await stat(root).catch(() => null);
  if (!info) throw new Error(`${folder} does not exist.`);
  const files = info.isDirectory() ? await listDocuments(root) : [root];
  const base = info.isDirectory() ? root : resolve(root, '..');
  const seen = new Set<string>();
  progress.start(files.length);
  for (const file of files) {
    const source = relative(base, file).split('\\').join('/');
    // Keyed by the file's absolute path: two folders' `build.md` are two documents, and a folder
    // ingested again from its parent is the same document.
    const key = `file:${file.split('\\').join('/')}`;
    seen.add(key); // a file that fails to read keeps what was indexed of it
    try {
      const size = (await stat(file)).size;
      if (size > MAX_DOCUMENT_BYTES) throw new Error(`larger than ${MAX_DOCUMENT_BYTES} bytes (${size}).`);
      const bytes = await readFile(file);
      if (looksBinary(bytes)) throw new Error('not a text file (it holds binary data).');
      const parsed = /\.html?$/i.test(file)
        ? parseHtml(await decodeMarkup(bytes))
        : parseMarkdown(decodePlainText(bytes));
      count(await index.replaceDocument(toDocument(key, null, source, parsed)));
      // Before, files were keyed by the path relative to the folder given: that copy goes.
      await index.removeDocument(`file:${source}`);
    } catch (error) {
      report.failed.push({ location: source, reason: reason(error) });
    }
    progress.tick(source);
  }
  // The folder is the truth for what lies under it: files deleted or renamed since go.
  if (info.isDirectory()) {
    report.removed += await removeUnseen(index, `file:${root.split('\\').join('/')}/`, seen);
  }
}

/**
 * Takes out of the index what `ingest(target)` put in: a page URL's document, the pages a sitemap
 * listed (those no other target listed too), a folder's files (or one file; the path need not exist
 * any more) or the WordPress posts. Returns how many documents went.
 */
export async function removeFromIndex(index: SqlSearchIndex, target: string): Promise<number> {
  if (target === 'wordpress' || target === 'wp') return removeUnseen(index, 'wp:', new Set());
  if (/^https?:\/\//i.test(target)) {
    const page = (await index.removeDocument(target)) ? 1 : 0;
    return page + (await releaseUnseen(index, target, new Set()));
  }
  const path = resolve(target).split('\\').join('/');
  const file = (await index.removeDocument(`file:${path}`)) ? 1 : 0;
  return file + (await removeUnseen(index, `file:${path}/`, new Set()));
}

/** Removes the documents whose key starts with `prefix` and that this run did not see. */
async function removeUnseen(index: SqlSearchIndex, prefix: string, seen: Set<string>): Promise<number> {
  let removed = 0;
  for (const key of await index.documentKeys(prefix)) {
    if (!seen.has(key) && (await index.removeDocument(key))) removed++;
  }
  return removed;
}

/**
 * A document keyed by its URL records in its `source` the targets (sitemap or page URLs, sorted, one
 * a line) that listed it, so a sitemap ingested again removes only the pages that it alone listed:
 * never one that another sitemap, or the page's own URL given as a target, still vouches for.
 */
function ownersOf(source: string | null | undefined): string[] {
  return source ? source.split('\n') : [];
}

function withOwner(source: string | null | undefined, owner: string): string {
  return [...new Set([...ownersOf(source), owner])].sort().join('\n');
}

/**
 * Releases `owner`'s claim on the URL documents it listed before and did not list now (none are in
 * `seen`): a document no target claims any more is removed. Returns how many documents went.
 */
async function releaseUnseen(index: SqlSearchIndex, owner: string, seen: Set<string>): Promise<number> {
  let removed = 0;
  for (const [key, source] of await index.urlDocumentSources()) {
    const owners = ownersOf(source);
    if (seen.has(key) || !owners.includes(owner)) continue;
    const others = owners.filter((o) => o !== owner);
    if (others.length > 0) await index.setDocumentSource(key, others.join('\n'));
    else if (await index.removeDocument(key)) removed++;
  }
  return removed;
}

async function listDocuments(folder: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
    const path = join(folder, entry.name);
    if (entry.isDirectory()) out.push(...(await listDocuments(path)));
    else if (DOCUMENT_EXTENSIONS.has(extname(entry.name).toLowerCase())) out.push(path);
  }
  return out.sort();
}

async function ingestUrl(
  index: SqlSearchIndex,
  url: string,
  fetcher: Fetcher,
  progress: IngestProgress,
  report: IngestReport,
  count: (o: ReplaceOutcome) => void,
  max: number,
) {
  const first = await fetcher.markup(url);
  const listing = /<(urlset|sitemapindex)[\s>]/i.test(first)
    ? await sitemapPages(first, fetcher, max, report.failed)
    : null;
  const sources = await index.urlDocumentSources();
  if (!listing) {
    progress.start(1);
    count(
      await index.replaceDocument(toDocument(url, url, withOwner(sources.get(url), url), parseHtml(first))),
    );
    progress.tick(url);
    return;
  }
  const { pages, complete } = listing;
  progress.start(pages.length);
  for (const page of pages) {
    try {
      const parsed = parseHtml(await fetcher.markup(page));
      count(await index.replaceDocument(toDocument(page, page, withOwner(sources.get(page), url), parsed)));
    } catch (error) {
      // A listed page that fails this time (timeout, 5xx, 404 on a stale sitemap) keeps its indexed copy.
      report.failed.push({ location: page, reason: reason(error) });
    }
    progress.tick(page);
  }
  // The sitemap is the truth for the pages it listed before: those it no longer lists go, but only
  // after a complete, non-empty listing (no child sitemap failed, nothing cut by maxDocuments).
  if (complete && pages.length > 0) report.removed += await releaseUnseen(index, url, new Set(pages));
}

/**
 * The page URLs of a sitemap, following a sitemap index one level down. `complete` is false when a
 * child sitemap failed or the pages were cut at `max`: the listing then proves nothing about the
 * pages it does not hold.
 */
async function sitemapPages(
  xml: string,
  fetcher: Fetcher,
  max: number,
  failed: IngestReport['failed'],
): Promise<{ pages: string[]; complete: boolean }> {
  const $ = cheerio.load(xml, { xml: true });
  const pages = $('url > loc')
    .map((_, el) => $(el).text().trim())
    .get();
  let complete = true;
  for (const nested of $('sitemap > loc')
    .map((_, el) => $(el).text().trim())
    .get()) {
    if (pages.length >= max) {
      complete = false;
      break;
    }
    let inner: ReturnType<typeof cheerio.load>;
    try {
      const text = await fetcher.markup(nested);
      // An error page answered with 200 (or an index inside the index) lists no page: not "no pages".
      if (!/<urlset[\s>]/i.test(text)) throw new Error(`${nested} is not a sitemap of pages (no <urlset>).`);
      inner = cheerio.load(text, { xml: true });
    } catch (error) {
      // One broken child sitemap is reported; the others' pages are still ingested.
      failed.push({ location: nested, reason: reason(error) });
      complete = false;
      continue;
    }
    for (const loc of inner('url > loc')
      .map((_, el) => inner(el).text().trim())
      .get()) {
      pages.push(loc);
    }
  }
  const unique = [...new Set(pages.filter((p) => /^https?:\/\//i.test(p)))];
  return { pages: unique.slice(0, max), complete: complete && unique.length <= max };
}

interface WordPressPost {
  id: number;
  link?: string;
  title?: { rendered?: string };
  content?: { rendered?: string };
}

async function ingestWordPress(
  index: SqlSearchIndex,
  apiUrl: string,
  fetcher: Fetcher,
  progress: IngestProgress,
  report: IngestReport,
  count: (o: ReplaceOutcome) => void,
  max: number,
) {
  const base = apiUrl.replace(/\/+$/, '');
  let totalPages = 1;
  let pagesDeclared = false;
  let done = 0;
  let complete = true;
  const seen = new Set<string>();
  for (let page = 1; page <= totalPages; page++) {
    if (done >= max) {
      complete = false;
      break;
    }
    const url = `${base}/posts?per_page=${WORDPRESS_PAGE_SIZE}&page=${page}&_fields=id,link,title,content`;
    const { bytes, headers } = await fetcher.read(url, MAX_WORDPRESS_PAGE_BYTES);
    if (page === 1) {
      pagesDeclared = headers.has('x-wp-totalpages');
      totalPages = Number(headers.get('x-wp-totalpages') ?? 1) || 1;
      progress.start(Number(headers.get('x-wp-total') ?? 0) || WORDPRESS_PAGE_SIZE);
    }
    let posts: WordPressPost[];
    try {
      // JSON is UTF-8 (RFC 8259).
      posts = JSON.parse(new TextDecoder().decode(bytes)) as WordPressPost[];
    } catch {
      throw new Error(`${url} did not answer JSON.`);
    }
    if (!Array.isArray(posts)) throw new Error(`${url} did not answer a list of posts.`);
    for (const post of posts) {
      const location = post.link ?? `post ${post.id}`;
      seen.add(`wp:${post.id}`);
      try {
        const rendered = post.title?.rendered;
        const title = rendered ? cheerio.load(parseHtmlBounded(rendered)).text().trim() : null;
        const parsed = parseHtml(`<main>${post.content?.rendered ?? ''}</main>`);
        count(
          await index.replaceDocument(
            toDocument(`wp:${post.id}`, post.link ?? null, 'wordpress', { ...parsed, title }),
          ),
        );
      } catch (error) {
        report.failed.push({ location, reason: reason(error) });
      }
      done++;
      progress.tick(location);
    }
    if (posts.length === 0) {
      // None at all, or fewer than the site declared: an error page or a plugin hiding the posts looks
      // the same, so nothing is removed (`--remove wordpress` empties the index of them on purpose).
      complete = false;
      break;
    }
    // Without X-WP-TotalPages (a proxy dropped it) a full first page may not be the last one.
    if (!pagesDeclared && posts.length >= WORDPRESS_PAGE_SIZE) complete = false;
  }
  // Every post was listed: posts deleted or unpublished since the last run go from the index.
  if (complete) report.removed += await removeUnseen(index, 'wp:', seen);
}

function toDocument(
  key: string,
  url: string | null,
  source: string | null,
  parsed: ParsedDocument,
): IndexedDocument {
  const title = parsed.title === null ? null : truncate(parsed.title, MAX_TITLE_CHARS);
  return { key, url, source, title, chunks: chunkDocument(parsed) };
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

class Fetcher {
  readonly #timeoutMs: number;
  constructor(timeoutMs: number) {
    this.#timeoutMs = timeoutMs;
  }

  async get(url: string): Promise<Response> {
    const response = await fetch(url, {
      signal: AbortSignal.timeout(this.#timeoutMs),
      headers: {
        'user-agent': 'agency-backend-ingest/1.0',
        accept: 'text/html, application/xml, application/json;q=0.9, */*;q=0.5',
      },
      redirect: 'follow',
    });
    if (!response.ok) {
      await response.body?.cancel();
      throw new Error(`${url} answered HTTP ${response.status}.`);
    }
    return response;
  }

  /**
   * A page or a sitemap as text in its own encoding (charset, BOM or declaration), refused past
   * MAX_DOCUMENT_BYTES while it streams (a page is not a dump). Anything else a sitemap may list (a
   * PDF, an image) is refused rather than indexed as garbled text.
   */
  async markup(url: string): Promise<string> {
    const { bytes, headers } = await this.read(url, MAX_DOCUMENT_BYTES);
    const type = headers.get('content-type');
    const media = (type ?? '').split(';')[0]!.trim().toLowerCase();
    const readable = !media || media.startsWith('text/') || media.endsWith('html') || media.endsWith('xml');
    if (!readable) throw new Error(`${url} is not a page or a sitemap (${media}).`);
    if (looksBinary(bytes)) throw new Error(`${url} is not a page or a sitemap (it holds binary data).`);
    return decodeMarkup(bytes, type);
  }

  /** The body and the response headers; refused past `maxBytes` while it streams. */
  async read(url: string, maxBytes: number): Promise<{ bytes: Buffer; headers: Headers }> {
    const response = await this.get(url);
    const declared = Number(response.headers.get('content-length'));
    if (Number.isFinite(declared) && declared > maxBytes) {
      await response.body?.cancel();
      throw new Error(`${url} is larger than ${maxBytes} bytes.`);
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of response.body ?? []) {
      size += chunk.byteLength;
      if (size > maxBytes) {
        await response.body?.cancel().catch(() => {});
        throw new Error(`${url} is larger than ${maxBytes} bytes.`);
      }
      chunks.push(chunk);
    }
    return { bytes: Buffer.concat(chunks), headers: response.headers };
  }
}
