import type { TestContext } from '../test-app.ts';

/** Shared set-up of the classification-correction tests (leads and support messages). */
export const ADMIN_KEY = 'admin-test-key-corrections-0123';

// Spam and vendors as they really write (the built-in classifier weighs the sender too).
export const SPAM_TEXT =
  'We sell 5000 dofollow backlinks DA 50+ made with GSA and Xrumer, guaranteed first page of Google in 7 days!!! Telegram @seoking http://a.example http://b.example http://c.example';
export const SPAMMER = { name: 'SEO King' };
export const VENDOR_TEXT =
  'Hello, we are a software development agency from abroad. We offer dedicated developers and white-label outsourcing.';
export const VENDOR_SENDER = { company: 'DevForce Outsourcing', position: 'Business Development Manager' };

export type CorrectionAnswer = {
  success: boolean;
  changed: boolean;
  id: string;
  status: string;
  classification: string;
  correction: { from: string; to: string; started: string[]; stopped: string[]; kept: string[] } | null;
  corrections: { from: string; to: string; fromStatus: string; toStatus: string }[];
  error?: { code: string };
};

/** POSTs a correction over HTTP to the served app. */
export async function correct(
  server: TestContext & { url: string },
  path: string,
  body: unknown,
  options: { key?: string | null; contentType?: string } = {},
): Promise<{ status: number; body: CorrectionAnswer }> {
  const headers: Record<string, string> = { 'content-type': options.contentType ?? 'application/json' };
  const key = options.key === undefined ? ADMIN_KEY : options.key;
  if (key !== null) headers['x-admin-api-key'] = key;
  const res = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as CorrectionAnswer };
}

/** Sends the same correction `n` times at once; the answers in order. */
export function correctConcurrently(
  server: TestContext & { url: string },
  path: string,
  body: unknown,
  n: number,
) {
  return Promise.all(Array.from({ length: n }, () => correct(server, path, body)));
}
