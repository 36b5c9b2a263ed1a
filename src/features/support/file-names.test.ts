import { describe, expect, it } from 'vitest';
import { sanitizeFileName, withExtension } from './file-names.ts';
import { UPLOAD_LIMITS } from './limits.ts';

describe('sanitizeFileName', () => {
  it.each([
    ['../../../etc/passwd', 'passwd'],
    ['..\\..\\boot.ini', 'boot.ini'],
    ['C:\\Users\\ana\\Desktop\\shot.png', 'shot.png'],
    ['/absolute/path/report.pdf', 'report.pdf'],
    ['a\u0000b\u0007c\r\nd.txt', 'abcd.txt'],
    ['invoice\u202Efdp.exe', 'invoicefdp.exe'],
    ['  .hidden  ', 'hidden'],
    ['what?<is>this|"*:.png', 'what__is_this____.png'],
    ['..', 'attachment-3'],
    ['', 'attachment-3'],
    ['名前 付き.png', '名前 付き.png'],
    ['CON.png', '_CON.png'],
    ['nul', '_nul'],
    ['com1.tar.gz', '_com1.tar.gz'],
    ['LPT9.pdf', '_LPT9.pdf'],
    ['console.png', 'console.png'],
    ['com10.png', 'com10.png'],
  ])('%j → %j', (raw, expected) => {
    expect(sanitizeFileName(raw, 3)).toBe(expected);
  });

  it('shortens long names and keeps the extension', () => {
    const name = sanitizeFileName(`${'a'.repeat(500)}.pdf`, 1);
    expect(name.length).toBe(UPLOAD_LIMITS.maxFileNameLength);
    expect(name.endsWith('.pdf')).toBe(true);
  });

  it('reads a long run of dots and spaces inside a name in one pass (a trailing-run regex was quadratic)', () => {
    // 400 000 characters: minutes for `/[.\s]+$/`, which retried from every dot and space of the run.
    const name = sanitizeFileName(`report${'. '.repeat(200_000)}final.pdf`, 1);
    expect(name.startsWith('report. . ')).toBe(true);
    expect(name.endsWith('.pdf')).toBe(true);
    expect(name.length).toBe(UPLOAD_LIMITS.maxFileNameLength);
    expect(sanitizeFileName(`notes${'. '.repeat(1000)}`, 2)).toBe('notes');
  });
});

describe('withExtension', () => {
  it('keeps a matching extension and appends the detected one otherwise', () => {
    expect(withExtension('photo.JPG', ['jpg', 'jpeg'])).toBe('photo.JPG');
    expect(withExtension('photo.png', ['jpg', 'jpeg'])).toBe('photo.png.jpg');
    expect(withExtension('README', ['txt'])).toBe('README.txt');
  });
});
