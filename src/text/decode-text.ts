/**
 * Bytes from a file or another server turned into text in the encoding they were written in, not
 * assumed to be UTF-8: a Spanish page saved as ISO-8859-1 read as UTF-8 turns every `ñ` and `á`
 * into U+FFFD, and search, SEO and the AI context all lose those words.
 */

/** How far a NUL byte is looked for (git's heuristic for a binary file looks as far). */
const BINARY_SNIFF_BYTES = 8000;

function hasUtf16Bom(bytes: Uint8Array): boolean {
  return (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);
}

/** A NUL byte near the start, unless a UTF-16 byte-order mark says the NULs are half of characters. */
export function looksBinary(bytes: Uint8Array): boolean {
  if (hasUtf16Bom(bytes)) return false;
  return bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0);
}

/**
 * HTML or XML in its own encoding, found as browsers find it (encoding-sniffer, the HTML standard's
 * algorithm, which also reads an `<?xml encoding="…"?>` declaration): a byte-order mark, then the
 * Content-Type charset, then a declaration in the first kilobyte, else UTF-8.
 */
export async function decodeMarkup(bytes: Uint8Array, contentType?: string | null): Promise<string> {
  // Loaded on first use: it brings iconv-lite's tables, which most processes never need.
  const { decodeBuffer } = await import('encoding-sniffer');
  const transport = /charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? '')?.[1];
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // A label the WHATWG list knows but iconv-lite lacks (`x-user-defined`) makes the decoder throw: it is
  // then ignored, as an unknown label is: the header's first, then the document's own, leaving UTF-8.
  for (const transportLayerEncodingLabel of [transport, undefined]) {
    try {
      return decodeBuffer(buffer, { defaultEncoding: 'utf-8', transportLayerEncodingLabel });
    } catch {}
  }
  return new TextDecoder().decode(buffer);
}

/**
 * Text that carries no declaration of its encoding (Markdown): per its byte-order mark when it has
 * one (UTF-8, or UTF-16 as Windows Notepad saves "Unicode"), else UTF-8 when the bytes are valid
 * UTF-8, else Windows-1252, the "ANSI" of editors on Windows and a superset of ISO-8859-1's printable
 * characters. Bytes that are not valid UTF-8 are almost never meant as UTF-8, so the guess is safe.
 */
export function decodePlainText(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  try {
    // fatal: invalid UTF-8 throws instead of becoming U+FFFD; a leading UTF-8 BOM is dropped.
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}
