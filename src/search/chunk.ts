import * as cheerio from 'cheerio';

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

/** Markdown to blocks: front-matter title, `#` headings, paragraphs and list items, markup removed. */
export function parseMarkdown(source: string): ParsedDocument {
  let text = source.replace(/\r\n?/g, '\n');
  let title: string | null = null;
  const front = /^---\n([\s\S]*?)\n---\n?/.exec(text);
  if (front) {
    title = /^title:\s*["']?(.+?)["']?\s*$/m.exec(front[1]!)?.[1] ?? null;
    text = text.slice(front[0].length);
  }
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  const flush = () => {
    const joined = inlineMarkdown(paragraph.join(' ')).trim();
    if (joined) blocks.push({ level: 0, text: joined });
    paragraph = [];
  };
  let inFence = false;
  for (const line of text.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) {
      inFence = !inFence;
      continue;
    }
    const heading = inFence ? null : /^(#{1,6})\s+(.+?)\s*#*\s*$/.exec(line);
    if (heading) {
      flush();
      const headingText = inlineMarkdown(heading[2]!);
      blocks.push({ level: heading[1]!.length, text: headingText });
      title ??= heading[1]!.length === 1 ? headingText : null;
    } else if (line.trim() === '') {
      flush();
    } else if (/^\s*([-*+]|\d+[.)])\s+/.test(line) && !inFence) {
      flush();
      paragraph.push(line.replace(/^\s*([-*+]|\d+[.)])\s+/, ''));
      flush();
    } else {
      paragraph.push(line.trim());
    }
  }
  flush();
  return { title, blocks };
}

function inlineMarkdown(text: string): string {
  return text
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, ' ')
    .replace(/(\*\*|__|\*|_|`)(\S[\s\S]*?)\1/g, '$2')
    .replace(/^>\s?/, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** HTML to blocks: the main content's headings, paragraphs and list items; scripts and navigation dropped. */
export function parseHtml(html: string): ParsedDocument {
  const $ = cheerio.load(html);
  $('script, style, noscript, template, svg, nav, header, footer, form, iframe').remove();
  const title = $('title').first().text().trim() || $('h1').first().text().trim() || null;
  const root = $('main').length ? $('main').first() : $('article').length ? $('article').first() : $('body');
  const blocks: Block[] = [];
  root.find('h1, h2, h3, h4, h5, h6, p, li, blockquote, pre, td, dt, dd').each((_, element) => {
    const el = $(element);
    if (el.parents('li, blockquote, td').length > 0 && !/^h\d$/.test(element.tagName)) return; // counted by the parent
    const text = el.text().replace(/\s+/g, ' ').trim();
    if (!text) return;
    const heading = /^h(\d)$/.exec(element.tagName);
    blocks.push({ level: heading ? Number(heading[1]) : 0, text });
  });
  if (blocks.length === 0) {
    const text = root.text().replace(/\s+/g, ' ').trim();
    if (text) blocks.push({ level: 0, text });
  }
  return { title, blocks };
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
