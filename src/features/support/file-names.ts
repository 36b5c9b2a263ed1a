import { UPLOAD_LIMITS } from './limits.ts';

/**
 * A client's file name made safe to store and to put in an e-mail header: only the last path segment
 * (no `../`, no `C:\`), no control or bidi-override characters, none of `<>:"/\|?*`, no leading dots,
 * at most UPLOAD_LIMITS.maxFileNameLength characters (the extension kept). An empty result becomes
 * `attachment-<n>`; a Windows device name (`CON.png`, `com1.txt`), which the support team could not
 * save on Windows, gets a leading `_`. The name is metadata only: nothing is ever written to disk under it.
 */
export function sanitizeFileName(raw: string, position: number): string {
  const lastSegment = raw.normalize('NFC').split(/[/\\]/).pop() ?? '';
  let name = lastSegment
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, '')
    .replace(/[<>:"|?*]/g, '_')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^[.\s]+/, '');
  name = withoutTrailingDotsOrSpaces(name);
  if (name === '') name = `attachment-${position}`;
  if (WINDOWS_DEVICE.test(name)) name = `_${name}`;
  const max = UPLOAD_LIMITS.maxFileNameLength;
  if ([...name].length > max) {
    const dot = name.lastIndexOf('.');
    const ext = dot > 0 && name.length - dot <= 10 ? name.slice(dot) : '';
    name = [...name.slice(0, name.length - ext.length)].slice(0, max - ext.length).join('') + ext;
  }
  return name;
}

/**
 * Trailing dots and spaces cut, read from the end: `/[.\s]+$/` retries from every dot or space of a
 * long run that does not end the name (`. . . x`), quadratic in the run.
 */
function withoutTrailingDotsOrSpaces(name: string): string {
  let end = name.length;
  while (end > 0 && (name[end - 1] === '.' || name[end - 1] === ' ')) end--;
  return name.slice(0, end);
}

/** Reserved by Windows whatever the extension: `CON`, `nul.txt`, `COM1.tar.gz`. */
const WINDOWS_DEVICE = /^(?:con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(?:\.|$)/i;

/** Appends the detected type's extension when the name does not already end with an allowed one. */
export function withExtension(name: string, allowed: readonly string[]): string {
  const ext = /\.([^.]+)$/.exec(name)?.[1]?.toLowerCase();
  if (ext && allowed.includes(ext)) return name;
  const suffix = `.${allowed[0]}`;
  const max = UPLOAD_LIMITS.maxFileNameLength;
  return [...name].slice(0, max - suffix.length).join('') + suffix;
}
