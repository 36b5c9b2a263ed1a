import { maskContactDetails } from '../../text/contact-details.ts';
import { ANALYTICS_LIMITS as L } from './limits.ts';

/** A page given as a path is resolved against this placeholder (parsePage takes the path from it). */
export const PAGE_BASE = 'http://relative.invalid/';

/** Paths are resolved against PAGE_BASE; seeing its host back means the page was not a URL. */
const RELATIVE_HOST = 'relative.invalid';
const SCHEME = /^[a-zA-Z][a-zA-Z0-9+.-]*:/;

/** True when `value` starts with a scheme once what the URL parser strips first (C0 controls, spaces) is gone. */
function startsWithScheme(value: string): boolean {
  let start = 0;
  while (start < value.length && value.charCodeAt(start) <= 0x20) start++;
  return SCHEME.test(start === 0 ? value : value.slice(start));
}

/**
 * A page given as a URL or a path: its path (query and fragment dropped) and, when it is an absolute
 * URL, its host. An absolute URL (what browsers send) is parsed once; each URL parse is a visible
 * part of a tracked event's CPU. Anything else (a path, `//host/x`, an `http:` value without `//`,
 * which is a path against an `http` base but a URL on its own) is parsed alone as well for the
 * host, as before.
 */
export function parsePage(value: string): { path: string; host: string | null; search: string } {
  let url: URL;
  try {
    url = new URL(value, PAGE_BASE);
  } catch {
    return { path: value.split(/[?#]/)[0] || '/', host: null, search: '' };
  }
  const path = url.pathname || '/';
  const absolute = url.hostname !== RELATIVE_HOST && startsWithScheme(value);
  return { path, host: absolute ? url.hostname.toLowerCase() || null : hostOf(value), search: url.search };
}

function hostOf(value: string): string | null {
  try {
    return new URL(value).hostname.toLowerCase() || null;
  } catch {
    return null;
  }
}

/** The path of a page given as a path or a URL; query and fragment dropped. */
export function pagePath(value: string): string {
  return parsePage(value).path;
}

/** A page as an event stores it: its path, contact details masked (what a page filter must match). */
export function storedPage(value: string): string {
  return storedPath(pagePath(value));
}

const utf8 = new TextEncoder();

/**
 * A page's path as stored: contact details masked, then cut to pageLength bytes of UTF-8. Masked
 * first, so that a cut never leaves part of an address the masking would no longer recognise; cut in
 * bytes because masking decodes the percent-encoding of a path that held an encoded address
 * (`/%C3%B1/ana%40b%2Eco` is kept as `/ñ/[email]`), and the path is part of an index entry, which
 * PostgreSQL bounds in bytes. A path as the URL parser
 * gives it is ASCII: its bytes are its characters.
 */
export function storedPath(path: string): string {
  const masked = maskContactDetails(path);
  // Three bytes at most per UTF-16 unit: short enough without counting.
  if (masked.length * 3 <= L.pageLength) return masked;
  // encodeInto writes whole characters only: `read` units of the text fit.
  const { read } = utf8.encodeInto(masked, new Uint8Array(L.pageLength));
  return masked.slice(0, read);
}
