import * as cheerio from 'cheerio';
import { describe, expect, it } from 'vitest';
import { extractHtml, MAX_GENERATED_HTML_BYTES, sanitizeGeneratedHtml } from './sanitize.ts';

const body = `<h1>Casa Aurora</h1><p>${'Seasonal dishes and warm service. '.repeat(8)}</p>`;
const page = (inner: string, head = '') =>
  `<!doctype html><html><head>${head}<style>h1{color:red}</style></head><body>${inner}</body></html>`;

describe('sanitizeGeneratedHtml', () => {
  it('refuses markup whose unclosed formatting the parser would re-open in every paragraph', () => {
    const hostile = Array.from({ length: 6000 }, (_, i) => `<p><b id=${i}>x</p>`).join('');
    expect(Buffer.byteLength(hostile)).toBeLessThan(MAX_GENERATED_HTML_BYTES);
    expect(sanitizeGeneratedHtml(page(hostile))).toBeNull();
  });

  it('extracts the document from a fenced answer or prose', () => {
    expect(extractHtml('Here you go:\n```html\n<!DOCTYPE html><html><body>x</body></html>\n```\nEnjoy')).toBe(
      '<!DOCTYPE html><html><body>x</body></html>',
    );
    expect(extractHtml('Sure! <html lang="en"><body>y</body></html> thanks')).toBe(
      '<html lang="en"><body>y</body></html>',
    );
    expect(extractHtml('I cannot do that.')).toBeNull();
  });

  it('removes scripts, handlers, frames, external resources and javascript: URLs', () => {
    const dirty = page(
      `${body}<script>alert(1)</script><img src="https://evil.test/x.png" onerror="alert(2)"><a href="javascript:alert(3)">x</a>` +
        '<iframe src="https://evil.test"></iframe><div style="background:url(https://evil.test/a.png)">d</div><a href="#contact" target="_blank">ok</a>',
      '<link rel="stylesheet" href="https://fonts.test/a.css"><meta http-equiv="refresh" content="0;url=https://evil.test"><base href="https://evil.test/">',
    );
    const result = sanitizeGeneratedHtml(dirty)!;
    expect(result.removed).toBeGreaterThan(5);
    const html = result.html;
    expect(html).not.toMatch(/<script|onerror|javascript:|<iframe|<link|http-equiv|<base|evil\.test/i);
    expect(html).toContain('href="#contact"');
    expect(html).toContain('<h1>Casa Aurora</h1>');
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain('<meta charset="utf-8">');
  });

  it('leaves no handler in the tree a browser parses from its output (mutation XSS through foreign content)', () => {
    const vectors = [
      '<math><mtext><table><mglyph><style><img src=x onerror=alert(8)></style></mglyph></table></mtext></math>',
      '<svg></p><style><a id="</style><img src=1 onerror=alert(1)>">',
      '<svg><p><style><img src=x onerror=alert(2)></style></p></svg>',
      '<form><math><mtext></form><form><mglyph><style></math><img src onerror=alert(3)>',
      '<noscript><p title="</noscript><img src=x onerror=alert(4)>">',
    ];
    for (const vector of vectors) {
      const result = sanitizeGeneratedHtml(page(`${body}${vector}`));
      if (result === null) continue;
      // What a browser builds from the served text (parse5 follows the HTML standard's parser).
      const $ = cheerio.load(result.html);
      const handlers = $('*')
        .toArray()
        .flatMap((el) => (el.type === 'tag' ? Object.keys(el.attribs).filter((a) => /^on/i.test(a)) : []));
      expect(handlers, vector).toEqual([]);
      expect(sanitizeGeneratedHtml(result.html)?.html, vector).toBe(result.html);
    }
  });

  it('strips @import and remote url() from style sheets but keeps data images', () => {
    const html = sanitizeGeneratedHtml(
      page(
        body,
        '<style>@import url("https://x.test/a.css"); .a{background:url(https://x.test/b.png)} .b{background:url(data:image/png;base64,AAAA)}</style>',
      ),
    )!.html;
    expect(html).not.toContain('x.test');
    expect(html).toContain('data:image/png;base64,AAAA');
  });

  it('refuses garbage: no document, an empty page, or a huge one', () => {
    expect(sanitizeGeneratedHtml('{"error":"rate limited"}')).toBeNull();
    expect(sanitizeGeneratedHtml(page('<p>hi</p>'))).toBeNull();
    expect(sanitizeGeneratedHtml(page(body + 'x'.repeat(500_000)))).toBeNull();
  });
});
