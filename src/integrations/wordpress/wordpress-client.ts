/**
 * The WordPress REST API (wp-json/wp/v2) behind the posts proxy. WORDPRESS_API_URL is set by the
 * operator, not by a visitor, so this client uses a plain fetch with a timeout and a size cap rather
 * than the safe fetcher (which would refuse an intranet or loopback WordPress that an operator may
 * legitimately run). Visitors only choose the query parameters, which the route filters by name.
 */
import { tracedFetch } from '../../tracing/outbound.ts';

export const WORDPRESS_TIMEOUT_MS = 10_000;
export const WORDPRESS_MAX_BYTES = 10 * 1024 * 1024;

export interface WordPressResponse {
  status: number;
  body: string;
  contentType: string;
  total: string | null;
  totalPages: string | null;
  /** `cf-mitigated` (Cloudflare sets `challenge` when it served a bot challenge instead of the API). */
  mitigated: string | null;
}

export class WordPressUnavailableError extends Error {
  override name = 'WordPressUnavailableError';
}

export interface WordPressClient {
  readonly baseUrl: string;
  /** GET `<base><path>?<params>`; throws WordPressUnavailableError on network failure or timeout. */
  get(path: string, params: URLSearchParams): Promise<WordPressResponse>;
}

export class HttpWordPressClient implements WordPressClient {
  readonly baseUrl: string;
  readonly #timeoutMs: number;

  constructor(baseUrl: string, options: { timeoutMs?: number } = {}) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
    this.#timeoutMs = options.timeoutMs ?? WORDPRESS_TIMEOUT_MS;
  }

  async get(path: string, params: URLSearchParams): Promise<WordPressResponse> {
    const query = params.toString();
    const url = `${this.baseUrl}${path}${query ? `?${query}` : ''}`;
    try {
      const response = await tracedFetch(
        'wordpress',
        { 'http.request.method': 'GET', 'url.path': path },
        (trace) =>
          fetch(url, {
            headers: { accept: 'application/json', 'user-agent': 'AgencyBackend-PostsProxy/1.0', ...trace },
            signal: AbortSignal.timeout(this.#timeoutMs),
            redirect: 'follow',
          }),
      );
      const declared = Number(response.headers.get('content-length'));
      if (Number.isFinite(declared) && declared > WORDPRESS_MAX_BYTES) {
        await response.body?.cancel();
        throw new WordPressUnavailableError(`upstream answer larger than ${WORDPRESS_MAX_BYTES} bytes`);
      }
      const body = await readCapped(response, WORDPRESS_MAX_BYTES);
      return {
        status: response.status,
        body,
        contentType: response.headers.get('content-type') ?? '',
        total: response.headers.get('x-wp-total'),
        totalPages: response.headers.get('x-wp-totalpages'),
        mitigated: response.headers.get('cf-mitigated'),
      };
    } catch (error) {
      if (error instanceof WordPressUnavailableError) throw error;
      const reason = error instanceof Error && error.name === 'TimeoutError' ? 'timed out' : 'unreachable';
      throw new WordPressUnavailableError(`WordPress ${reason}`, { cause: error });
    }
  }
}

async function readCapped(response: Response, maxBytes: number): Promise<string> {
  if (!response.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += chunk.byteLength;
    if (size > maxBytes) {
      await response.body.cancel().catch(() => {});
      throw new WordPressUnavailableError(`upstream answer larger than ${maxBytes} bytes`);
    }
    chunks.push(chunk);
  }
  // TextDecoder drops a leading byte-order mark (a plugin file saved with one prints it before the
  // JSON), as fetch's `json()` in WordPress's own clients does; JSON.parse would refuse it.
  return new TextDecoder().decode(Buffer.concat(chunks));
}
