import { load } from 'cheerio';
import { describe, expect, it } from 'vitest';
import { HtmlTooComplexError, parseHtmlBounded } from './html.ts';

describe('parseHtmlBounded', () => {
  it('gives the tree cheerio builds from the same string', () => {
    const page =
      '<!doctype html><title>T</title><p>one <b>two</p><p>three</p><table><tr><td>4</table><script>x<y</script>';
    expect(load(parseHtmlBounded(page)).html()).toBe(load(page).html());
  });

  it('refuses a page once it makes more elements than the bound, however the parser makes them', () => {
    // 20 paragraphs, each leaving a distinct <b> open: the parser re-opens every earlier one in each.
    const reopened = Array.from({ length: 20 }, (_, i) => `<p><b id=${i}>x</p>`).join('');
    expect(() => parseHtmlBounded(reopened, 100)).toThrow(HtmlTooComplexError);
    expect(() => parseHtmlBounded(reopened, 1000)).not.toThrow();
    expect(() => parseHtmlBounded('<i>'.repeat(101), 100)).toThrow(HtmlTooComplexError);
  });
});
