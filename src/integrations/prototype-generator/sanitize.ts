import * as cheerio from 'cheerio';
import { HtmlTooComplexError, parseHtmlBounded } from '../../text/html.ts';

/**
 * Turns a model's answer into a safe, self-contained HTML document, or null when it is not one.
 * The document is shown sandboxed (opaque origin, no scripts), but we still strip everything that
 * runs code or fetches from elsewhere: defence in depth, and an offline-friendly prototype.
 */
export const MAX_GENERATED_HTML_BYTES = 400_000;
const MIN_VISIBLE_TEXT = 120;

const DROP_ELEMENTS = [
  'script',
  'noscript',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'applet',
  'base',
  'link',
  'portal',
  'template',
  'meta[http-equiv]',
  // MathML: no page needs it, and its parsing rules are where serialised HTML re-parses differently.
  'math',
].join(',');

/** Passes of sanitising and re-parsing before the document must come out unchanged. */
const MAX_SANITIZE_PASSES = 3;

const URL_ATTRIBUTES = ['href', 'src', 'action', 'formaction', 'xlink:href', 'poster', 'data', 'background'];

/** The HTML document inside a model's answer: a fenced block, or from `<!doctype`/`<html` to `</html>`. */
export function extractHtml(answer: string): string | null {
  const fenced = /```(?:html|HTML)?\s*\n([\s\S]*?)```/.exec(answer);
  const text = fenced ? fenced[1]! : answer;
  const start = text.search(/<!doctype html|<html[\s>]/i);
  if (start < 0) return null;
  const end = text.search(/<\/html\s*>/i);
  return end > start ? text.slice(start, end + '</html>'.length) : text.slice(start);
}

function unsafeUrl(value: string): boolean {
  // Browsers ignore whitespace and control characters inside a scheme (`java\tscript:`).
  const v = [...value]
    .filter((ch) => ch.charCodeAt(0) > 0x20)
    .join('')
    .toLowerCase();
  if (v.startsWith('javascript:') || v.startsWith('vbscript:')) return true;
  if (v.startsWith('data:')) return !/^data:image\/(png|gif|jpe?g|webp);/.test(v);
  // Anything absolute would be fetched from elsewhere (or leave the sandbox on click).
  return /^[a-z][a-z0-9+.-]*:/.test(v) || v.startsWith('//');
}

function cleanCss(css: string): string {
  return css
    .replace(/@import[^;]*;?/gi, '')
    .replace(/url\(\s*(['"]?)(?!data:image\/)[^)]*\1\s*\)/gi, 'none')
    .replace(/expression\s*\(/gi, '(');
}

export interface SanitizeResult {
  html: string;
  removed: number;
}

/**
 * The model's document with everything that could run or load dropped. The cleaned tree is
 * serialised, and that text is what a browser will parse: where it would parse into another tree
 * (mutation XSS, foreign content such as `<svg><style>` moving markup around), the serialised text is
 * sanitised again, until a pass changes nothing; a document that never settles is refused.
 */
export function sanitizeGeneratedHtml(answer: string): SanitizeResult | null {
  const raw = extractHtml(answer);
  if (!raw || Buffer.byteLength(raw) > MAX_GENERATED_HTML_BYTES) return null;
  let result = sanitizeOnce(raw);
  for (let pass = 1; result !== null; pass++) {
    const again = sanitizeOnce(result.html);
    if (again === null) return null;
    if (again.html === result.html) return result;
    if (pass >= MAX_SANITIZE_PASSES) return null;
    result = { html: again.html, removed: result.removed + again.removed };
  }
  return null;
}

function sanitizeOnce(raw: string): SanitizeResult | null {
  let document: ReturnType<typeof parseHtmlBounded>;
  try {
    document = parseHtmlBounded(raw);
  } catch (error) {
    if (error instanceof HtmlTooComplexError) return null;
    throw error;
  }
  const $ = cheerio.load(document);
  let removed = 0;
  $(DROP_ELEMENTS).each((_, el) => {
    removed++;
    $(el).remove();
  });
  $('*').each((_, el) => {
    if (el.type !== 'tag') return;
    for (const name of Object.keys(el.attribs)) {
      const lower = name.toLowerCase();
      const value = el.attribs[name] ?? '';
      if (lower.startsWith('on') || lower === 'srcset' || lower === 'ping' || lower === 'target') {
        delete el.attribs[name];
        removed++;
      } else if (URL_ATTRIBUTES.includes(lower) && unsafeUrl(value)) {
        el.attribs[name] = lower === 'href' ? '#' : '';
        removed++;
      } else if (lower === 'style') {
        el.attribs[name] = cleanCss(value);
      }
    }
  });
  $('style').each((_, el) => {
    $(el).text(cleanCss($(el).text()));
  });
  const visible = $('body').text().replace(/\s+/g, ' ').trim();
  if (visible.length < MIN_VISIBLE_TEXT) return null;
  if ($('head meta[charset]').length === 0) $('head').prepend('<meta charset="utf-8">');
  if ($('head meta[name="viewport"]').length === 0)
    $('head').append('<meta name="viewport" content="width=device-width, initial-scale=1">');
  return { html: `<!doctype html>\n${$.html().replace(/^<!doctype html>\s*/i, '')}`, removed };
}
