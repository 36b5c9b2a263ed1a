/**
 * The dashboard's only door to the service: every call carries the admin key as the
 * X-Admin-Api-Key header (never in a URL or a cookie) and turns failures into a human message.
 */

const KEY_NAME = 'adminApiKey';

export const keyStore = {
  get: () => sessionStorage.getItem(KEY_NAME),
  set: (key) => sessionStorage.setItem(KEY_NAME, key),
  clear: () => sessionStorage.removeItem(KEY_NAME),
};

export class AdminApiError extends Error {
  /** kind: 'network' | 'unauthorized' | 'client' | 'server' */
  constructor(kind, message, { status = 0, code = '' } = {}) {
    super(message);
    this.kind = kind;
    this.status = status;
    this.code = code;
  }
}

const CLIENT_MESSAGES = {
  VALIDATION_ERROR: (m) => `Some of the filters are not valid: ${m}`,
  NOT_FOUND: (m) => `Not found: ${m}`,
  METHOD_NOT_ALLOWED: () => 'The server does not allow this action.',
  RATE_LIMITED: () => 'Too many requests. Wait a moment and try again.',
  PAYLOAD_TOO_LARGE: () => 'The request is too large.',
  UNSUPPORTED_MEDIA_TYPE: () => 'The server did not accept the request format.',
  CONFLICT: (m) => `Conflict: ${m}`,
};

/** A sentence for the operator, from the status and the error envelope. */
export function humanMessage(status, code, serverMessage) {
  const message = serverMessage || 'no details';
  if (status === 401) return 'The admin key was not accepted. Check it and sign in again.';
  if (status === 403) return 'This key may not do that.';
  if (status >= 400 && status < 500) {
    const build = CLIENT_MESSAGES[code];
    return build ? build(message) : `The request was refused (${status}): ${message}`;
  }
  if (code === 'NOT_CONFIGURED') return message;
  return `The server had a problem (${status}). Try again in a moment.`;
}

async function call(method, path, params, body) {
  const key = keyStore.get();
  if (!key) throw new AdminApiError('unauthorized', 'Sign in with the admin key first.', { status: 401 });
  const url = new URL(path, window.location.origin);
  for (const [name, value] of Object.entries(params ?? {})) {
    if (value !== undefined && value !== null && value !== '') url.searchParams.set(name, String(value));
  }
  let response;
  try {
    response = await fetch(url, {
      method,
      headers: {
        'X-Admin-Api-Key': key,
        Accept: 'application/json',
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      cache: 'no-store',
      credentials: 'omit',
      referrerPolicy: 'no-referrer',
    });
  } catch {
    throw new AdminApiError('network', 'Cannot reach the server. Check the connection and try again.');
  }
  let answer = null;
  try {
    answer = await response.json();
  } catch {
    answer = null;
  }
  if (response.ok && answer) return answer;
  const code = answer?.error?.code ?? '';
  const text = humanMessage(response.status, code, answer?.error?.message);
  const kind = response.status === 401 ? 'unauthorized' : response.status < 500 ? 'client' : 'server';
  throw new AdminApiError(kind, text, { status: response.status, code });
}

/** A file answer (a CSV export) as a Blob, with the same key header and error messages as `call`. */
async function download(path, params) {
  const key = keyStore.get();
  if (!key) throw new AdminApiError('unauthorized', 'Sign in with the admin key first.', { status: 401 });
  const url = new URL(path, window.location.origin);
  for (const [name, value] of Object.entries(params ?? {})) {
    if (value !== undefined && value !== null && value !== '') url.searchParams.set(name, String(value));
  }
  let response;
  try {
    response = await fetch(url, {
      headers: { 'X-Admin-Api-Key': key },
      cache: 'no-store',
      credentials: 'omit',
      referrerPolicy: 'no-referrer',
    });
  } catch {
    throw new AdminApiError('network', 'Cannot reach the server. Check the connection and try again.');
  }
  if (response.ok) return response.blob();
  const body = await response.json().catch(() => null);
  const code = body?.error?.code ?? '';
  const kind = response.status === 401 ? 'unauthorized' : response.status < 500 ? 'client' : 'server';
  throw new AdminApiError(kind, humanMessage(response.status, code, body?.error?.message), {
    status: response.status,
    code,
  });
}

export const api = {
  get: (path, params) => call('GET', path, params),
  /** `body`, when given, is sent as JSON. */
  post: (path, body) => call('POST', path, undefined, body),
  download,
  delete: (path, params) => call('DELETE', path, params),
};
