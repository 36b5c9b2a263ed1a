import { describe, expect, it } from 'vitest';
import { decodeMarkup, decodePlainText, looksBinary } from './decode-text.ts';

const latin1 = (text: string) => Buffer.from(text, 'latin1');

describe('decoding text in its own encoding', () => {
  it('plain text: valid UTF-8 as UTF-8 (BOM dropped), anything else as Windows-1252, UTF-16 by its BOM', () => {
    expect(decodePlainText(Buffer.from('\uFEFFaño ☕'))).toBe('año ☕');
    expect(decodePlainText(latin1('a\xf1o \x80'))).toBe('año €');
    expect(decodePlainText(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('ñu', 'utf16le')]))).toBe(
      'ñu',
    );
    const be = Buffer.from('ñu', 'utf16le').swap16();
    expect(decodePlainText(Buffer.concat([Buffer.from([0xfe, 0xff]), be]))).toBe('ñu');
  });

  it('markup: the Content-Type charset, else a <meta charset> or <?xml encoding?>, else UTF-8', async () => {
    expect(await decodeMarkup(latin1('<p>a\xf1o</p>'), 'text/html; charset=iso-8859-1')).toBe('<p>año</p>');
    expect(await decodeMarkup(latin1('<meta charset="windows-1252"><p>\x80</p>'))).toContain('<p>€</p>');
    expect(
      await decodeMarkup(latin1('<?xml version="1.0" encoding="ISO-8859-1"?><loc>a\xf1o</loc>')),
    ).toContain('<loc>año</loc>');
    expect(await decodeMarkup(Buffer.from('<p>año</p>'), null)).toBe('<p>año</p>');
  });

  it('markup: a charset the decoder lacks (x-user-defined), in the header or the document, is ignored', async () => {
    const page = '<p>plain</p>';
    expect(await decodeMarkup(Buffer.from(page), 'text/html; charset=x-user-defined')).toBe(page);
    const declared = `<?xml version="1.0" encoding="x-user-defined"?>${page}`;
    expect(await decodeMarkup(Buffer.from(declared), 'text/html')).toBe(declared);
    const both = latin1('<meta charset="x-user-defined"><p>a\xf1o</p>');
    expect(await decodeMarkup(both, 'text/html; charset=iso-8859-1')).toContain('<p>año</p>');
  });

  it('binary: a NUL byte near the start, unless a UTF-16 byte-order mark explains it', () => {
    expect(looksBinary(Buffer.from([0x25, 0x50, 0x44, 0x46, 0]))).toBe(true);
    expect(looksBinary(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('a', 'utf16le')]))).toBe(false);
    expect(looksBinary(Buffer.from('plain text'))).toBe(false);
    expect(looksBinary(Buffer.concat([Buffer.alloc(9000, 0x61), Buffer.from([0])]))).toBe(false);
  });
});
