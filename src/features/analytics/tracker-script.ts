import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';

export const SCRIPT_PATH = '/api/analytics/script.js';

export interface TrackerScript {
  body: string;
  /** A strong ETag from the content's hash: a changed script is a new tag. */
  etag: string;
}

let script: TrackerScript | null = null;

/** The first-party tracker (tracker/script.js), read once. */
export function trackerScript(): TrackerScript {
  if (script === null) {
    const body = readFileSync(path.join(import.meta.dirname, 'tracker', 'script.js'), 'utf8');
    script = { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"` };
  }
  return script;
}

/**
 * Sites cache it for an hour and then ask again with If-None-Match (a 304 while it is unchanged): a
 * new version reaches every site within the hour, and the script sets no cookie and reads none.
 */
export const SCRIPT_HEADERS = {
  'Content-Type': 'text/javascript; charset=utf-8',
  'Cache-Control': 'public, max-age=3600',
} as const;
