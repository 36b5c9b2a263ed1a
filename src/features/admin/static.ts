import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { extname } from 'node:path';

/**
 * The dashboard's files (plain JavaScript modules, CSS, the HTML shell), read once from
 * `static/` when the routes are built. Only these names are served: a request can never reach
 * another file, whatever its path says.
 */
export interface StaticFile {
  body: Uint8Array<ArrayBuffer>;
  contentType: string;
  etag: string;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

const STATIC_DIR = new URL('./static/', import.meta.url);

export function loadStaticFiles(): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  for (const name of readdirSync(STATIC_DIR)) {
    const contentType = TYPES[extname(name)];
    if (!contentType || !/^[a-z0-9-]+\.[a-z]+$/.test(name)) continue;
    const body = readFileSync(new URL(name, STATIC_DIR));
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
    files.set(name, { body: new Uint8Array(body), contentType, etag });
  }
  return files;
}

/**
 * Strict headers for every /admin response: scripts and styles only from this origin (no inline
 * code, no eval), no framing, no referrer, nothing fetched from anywhere else.
 */
export const ADMIN_SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy': [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; '),
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=()',
};
