import type { load as CheerioLoad } from 'cheerio';
import { parse } from 'parse5';
import { adapter } from 'parse5-htmlparser2-tree-adapter';

/**
 * Reading HTML parsed by cheerio without recursion (a hostile page may nest thousands deep, and
 * cheerio's `.text()` and `.clone()` recurse): shared by the SEO analysis and search ingestion.
 */

/** A parsed node as cheerio (domhandler) gives it: only what the walkers below read. */
export interface DomNode {
  type: string;
  name?: string;
  data?: string;
  attribs?: Record<string, string>;
  children?: DomNode[];
}

/** Subtrees whose text is not page text. */
export const NOT_TEXT = new Set(['script', 'style', 'noscript', 'template', 'svg']);
/** Elements that separate words: their text never runs into the next element's. */
export const BLOCKS = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'br',
  'dd',
  'div',
  'dl',
  'dt',
  'figcaption',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hr',
  'li',
  'main',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'table',
  'td',
  'th',
  'tr',
  'ul',
  'option',
  'button',
  'label',
]);

/**
 * The text under a node, read without recursion (a hostile page may nest thousands deep, and
 * cheerio's `.text()` and `.clone()` recurse), script-like subtrees skipped, block elements
 * separated by a space so `<p>one</p><p>two</p>` is two words.
 */
export function textOf(node: DomNode): string {
  return textWithin(node, { left: Number.POSITIVE_INFINITY }) as string;
}

/**
 * `textOf` on a budget shared by several calls: each node and character read costs one, and null
 * comes back once the budget is spent (elements that nest, such as links through table cells, would
 * otherwise each read everything inside them).
 */
export function textWithin(node: DomNode, budget: { left: number }): string | null {
  let out = '';
  const stack: (DomNode | string)[] = [node];
  while (stack.length > 0) {
    const item = stack.pop()!;
    budget.left -= 1 + (typeof item === 'string' ? item.length : (item.data?.length ?? 0));
    if (budget.left < 0) return null;
    if (typeof item === 'string') {
      out += item;
      continue;
    }
    if (item.type === 'text') {
      out += item.data ?? '';
      continue;
    }
    if (item.name !== undefined && NOT_TEXT.has(item.name)) continue;
    const children = item.children;
    if (!children) continue;
    const block = item.name !== undefined && BLOCKS.has(item.name);
    if (block) {
      out += ' ';
      stack.push(' ');
    }
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  return out;
}

/** The first `<img alt>` under a node (an image link's label), without recursion. */
export function firstImageAlt(node: DomNode): string | null {
  return imageAltWithin(node, { left: Number.POSITIVE_INFINITY });
}

/** `firstImageAlt` on the same kind of budget as `textWithin` (null also once it is spent). */
export function imageAltWithin(node: DomNode, budget: { left: number }): string | null {
  const stack: DomNode[] = [...(node.children ?? [])].reverse();
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (--budget.left < 0) return null;
    if (item.name === 'img' && item.attribs?.alt !== undefined) return item.attribs.alt;
    const children = item.children;
    if (children) for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  return null;
}

/**
 * How deeply a page nests its elements, measured on a fast tree (htmlparser2, linear) before the
 * spec parser runs: parse5's tree construction is quadratic in nesting depth (30 000 nested divs,
 * 330 kB, hold the event loop ~5 s) and cheerio's `.text()` recurses (5 000 levels overflow the
 * stack), so a page nested past a limit is refused instead. Used by the SEO analysis and ingestion.
 */
export function nestingDepth(html: string, load: typeof CheerioLoad): number {
  const $ = load(html, { xml: { xmlMode: false, decodeEntities: false } });
  let deepest = 0;
  const stack: [DomNode, number][] = [[$.root()[0] as unknown as DomNode, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (depth > deepest) deepest = depth;
    for (const child of node.children ?? []) if (child.children) stack.push([child, depth + 1]);
  }
  return deepest;
}

/** A page that makes more elements than this is refused (see parseHtmlBounded): real pages make a few thousand. */
export const MAX_HTML_ELEMENTS = 100_000;

export class HtmlTooComplexError extends Error {}

/**
 * A page parsed as browsers parse it (parse5 into the tree cheerio reads: what cheerio's `load` does
 * with a string), refused once it makes more than `maxElements` elements. The HTML standard re-opens,
 * in every later block, each formatting element a closed paragraph left open, so
 * `<p><b id=1>x</p><p><b id=2>x</p>…` makes a number of elements quadratic in its length: 37 kB made
 * 2 million (4.6 s, 2.2 GB) and 110 kB exhausted the heap. Counting as they are made stops it early.
 */
export function parseHtmlBounded(html: string, maxElements = MAX_HTML_ELEMENTS) {
  let made = 0;
  const counting: typeof adapter = {
    ...adapter,
    createElement(tagName, namespaceURI, attrs) {
      if (++made > maxElements) {
        throw new HtmlTooComplexError(`the page makes more than ${maxElements} elements`);
      }
      return adapter.createElement(tagName, namespaceURI, attrs);
    },
  };
  return parse(html, { treeAdapter: counting, scriptingEnabled: true });
}
