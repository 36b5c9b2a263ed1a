import * as cheerio from 'cheerio';
import MarkdownIt from 'markdown-it';
import {
  BLOCKS,
  type DomNode,
  HtmlTooComplexError,
  MAX_HTML_ELEMENTS,
  NOT_TEXT,
  nestingDepth,
  parseHtmlBounded,
} from '../text/html.ts';

/** A document read into blocks: headings and the paragraphs under them. */
export interface ParsedDocument {
  title: string | null;
  blocks: Block[];
}

export interface Block {
  /** 1–6 for a heading, 0 for body text. */
  level: number;
  text: string;
}

export const CHUNK_WORDS = 220;
export const CHUNK_OVERLAP_WORDS = 40;
/** A run of text without whitespace longer than this is not one word (see `words`). */
export const LONG_WORD_CHARS = 200;
/**
 * A heading longer than this is read as text: every chunk under a heading starts with it, so a
 * paragraph underlined with `---` (a setext heading) or a page whose `<h1>` is never closed was
 * repeated in full in front of each of the thousands of chunks of the rest of the document.
 */
export const MAX_HEADING_WORDS = 40;

/**
 * Markdown to blocks: read by markdown-it (CommonMark with GitHub's tables: ATX and setext headings,
 * nested lists, block quotes, reference links, escapes, raw HTML), then through the HTML reader below,
 * so both kinds of document become blocks by the same rules. The title is the front matter's, else
 * the first level-1 heading. markdown-it over hand-written rules for the syntax; over `marked`, which
 * took 18 s on 200 kB of `_a_a…` and overflowed the stack on deeply nested quotes, and micromark,
 * 84 s on 200 kB of `*a*a…`: markdown-it reads each of those in about 0.1 s.
 */
export function parseMarkdown(source: string): ParsedDocument {
  let text = source.replace(/\r\n?/g, '\n');
  let title: string | null = null;
  const front = /^---\n([\s\S]*?)\n---\n?/.exec(text);
  if (front) {
    title = /^title:\s*["']?(.+?)["']?\s*$/m.exec(front[1]!)?.[1] ?? null;
    text = text.slice(front[0].length);
  }
  // The whole rendering is the content: a `<main>` or `</main>` in the document's raw HTML is not.
  const doc = parseHtml(markdown.render(text), { wholeBody: true });
  const firstTitle = doc.blocks.find((block) => block.level === 1 && block.text !== '');
  return { title: title ?? firstTitle?.text ?? null, blocks: doc.blocks };
}

/** Raw HTML in a document is kept for the HTML reader (which drops scripts and navigation). */
const markdown = new MarkdownIt({ html: true });

/** Deeper HTML is refused: the HTML parser is quadratic in nesting depth (see nestingDepth). */
export const MAX_HTML_NESTING = 512;

/**
 * HTML to blocks: the headings and text of the main content (`<main>`, else `<article>`, else the
 * body; with `wholeBody`, the body); scripts, navigation, headers, footers and forms dropped.
 */
export function parseHtml(html: string, options: { wholeBody?: boolean } = {}): ParsedDocument {
  if (nestingDepth(html, cheerio.load) > MAX_HTML_NESTING) {
    throw new Error(`the document nests its elements more than ${MAX_HTML_NESTING} levels deep.`);
  }
  let document: ReturnType<typeof parseHtmlBounded>;
  try {
    document = parseHtmlBounded(html);
  } catch (error) {
    if (!(error instanceof HtmlTooComplexError)) throw error;
    throw new Error(`the document makes more than ${MAX_HTML_ELEMENTS} elements.`);
  }
  const $ = cheerio.load(document);
  $('script, style, noscript, template, svg, nav, header, footer, form, iframe').remove();
  const title = $('title').first().text().trim() || $('h1').first().text().trim() || null;
  const root = options.wholeBody
    ? $('body')
    : $('main').length
      ? $('main').first()
      : $('article').length
        ? $('article').first()
        : $('body');
  return { title, blocks: blocksOf(root[0] as unknown as DomNode) };
}

const HEADING = /^h([1-6])$/;

/**
 * The blocks under a node, read without recursion: a heading is one block; every other block element
 * (paragraph, list item, cell, `<div>`, …) ends the text before it, so text sitting directly in a
 * `<div>` or `<section>` counts as much as text in a `<p>`.
 */
function blocksOf(root: DomNode): Block[] {
  const blocks: Block[] = [];
  let text = '';
  const flush = () => {
    const clean = text.replace(/\s+/g, ' ').trim();
    if (clean) blocks.push({ level: 0, text: clean });
    text = '';
  };
  const END_OF_BLOCK = null;
  const stack: (DomNode | null)[] = [...(root.children ?? [])].reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node === END_OF_BLOCK) {
      flush();
      continue;
    }
    if (node.type === 'text') {
      text += node.data ?? '';
      continue;
    }
    const name = node.name;
    if (name === undefined || NOT_TEXT.has(name)) continue;
    const heading = HEADING.exec(name);
    if (heading) {
      flush();
      const text = headingText(node);
      // An empty heading still closes the section above it: what follows is not under that heading.
      if (text !== null) {
        blocks.push({ level: Number(heading[1]), text });
        continue;
      }
    }
    const block = BLOCKS.has(name); // h1–h6 among them
    if (block) {
      flush();
      stack.push(END_OF_BLOCK);
    }
    const children = node.children ?? [];
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  flush();
  return blocks;
}

/**
 * A heading's text as textOf reads it, or null when it runs past MAX_HEADING_WORDS (the heading is
 * then read as text). The walk stops there: a heading left open over the rest of the page, and the
 * headings inside it, each cost a bounded walk, not one over the whole page.
 */
function headingText(node: DomNode): string | null {
  const limit = MAX_HEADING_WORDS * LONG_WORD_CHARS;
  let out = '';
  let visited = 0;
  const stack: (DomNode | string)[] = [...(node.children ?? [])].reverse();
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (++visited > limit || out.length > limit) return null;
    if (typeof item === 'string' || item.type === 'text') {
      out += typeof item === 'string' ? item : (item.data ?? '');
      continue;
    }
    const name = item.name;
    if (name === undefined || NOT_TEXT.has(name)) continue;
    const children = item.children ?? [];
    if (BLOCKS.has(name)) {
      out += ' ';
      stack.push(' ');
    }
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  const text = out.replace(/\s+/g, ' ').trim();
  return wordsOf(text).length <= MAX_HEADING_WORDS ? text : null;
}

/**
 * Chunks of about CHUNK_WORDS words. Each chunk starts with the headings it sits under, so a
 * paragraph is never separated from its heading; a long section is cut with CHUNK_OVERLAP_WORDS of
 * overlap so a sentence on the cut is found from both sides.
 */
export function chunkDocument(
  doc: ParsedDocument,
  maxWords = CHUNK_WORDS,
  overlap = CHUNK_OVERLAP_WORDS,
): string[] {
  const chunks: string[] = [];
  const headings: string[] = [];
  let body: string[] = [];
  let bodyHeading = '';

  const emit = () => {
    if (body.length === 0) return;
    const prefix = bodyHeading ? `${bodyHeading}\n` : '';
    let start = 0;
    while (start < body.length) {
      const end = Math.min(body.length, start + maxWords);
      chunks.push(`${prefix}${body.slice(start, end).join(' ')}`);
      if (end === body.length) break;
      start = end - overlap;
    }
    body = [];
  };

  for (const block of doc.blocks) {
    if (block.level > 0) {
      emit();
      headings.length = Math.min(headings.length, block.level - 1);
      headings[block.level - 1] = block.text;
      bodyHeading = headings.filter(Boolean).join(' › ');
      continue;
    }
    const words = wordsOf(block.text);
    if (body.length > 0 && body.length + words.length > maxWords) {
      const tail = body.slice(-overlap);
      emit();
      body = tail;
    }
    for (const word of words) body.push(word); // a spread of 150 000 words overflows the stack
  }
  emit();
  if (chunks.length === 0 && bodyHeading) chunks.push(bodyHeading);
  return chunks;
}

const LONG_WORD_PARTS = new RegExp(`[\\s\\S]{1,${LONG_WORD_CHARS}}`, 'gu'); // code points: no half emoji

/**
 * The words of a block, split at whitespace. A run without whitespace longer than LONG_WORD_CHARS
 * (minified code, a CSV or JSON line, base64) is cut after each punctuation mark, and any piece still
 * that long every LONG_WORD_CHARS characters: otherwise a 2 MB CSV line was one 2 MB chunk, which the
 * index reads as hundreds of thousands of words (PostgreSQL refuses a tsvector over 1 MB).
 */
function wordsOf(text: string): string[] {
  const words: string[] = [];
  for (const word of text.split(/\s+/)) {
    if (word.length <= LONG_WORD_CHARS) {
      if (word) words.push(word);
      continue;
    }
    for (const piece of word.split(/(?<=[^\p{L}\p{N}\p{M}])(?=[\p{L}\p{N}])/u)) {
      for (const part of piece.match(LONG_WORD_PARTS) ?? []) words.push(part);
    }
  }
  return words;
}
