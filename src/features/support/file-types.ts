/** Bytes `file-type` needs to recognise every allowed format (ALLOWED_FILE_TYPES). */
export const SNIFF_BYTES = 4100;

/** Tab, LF, FF, CR. */
const ALLOWED_TEXT_CONTROLS = new Set([0x09, 0x0a, 0x0c, 0x0d]);

/**
 * Plain text: valid UTF-8 and no control characters (C0, DEL, C1) except tab, LF, CR and form feed.
 * C1 matters as much as ESC: U+009B alone starts a terminal control sequence.
 */
export function isPlainText(bytes: Buffer): boolean {
  if (bytes.includes(0)) return false;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return false;
  }
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if ((code < 0x20 && !ALLOWED_TEXT_CONTROLS.has(code)) || (code >= 0x7f && code <= 0x9f)) return false;
  }
  return true;
}
