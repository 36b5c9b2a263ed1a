import { tracedFetch } from '../../tracing/outbound.ts';
import { fromLighthouseResult, type LighthouseResult, type LoadingExperience } from './normalize.ts';
import {
  type AnalyzeOptions,
  type DiagnosticReport,
  type PageSpeedEngine,
  PageSpeedError,
} from './report.ts';

/**
 * The PageSpeed Insights v5 API (`GET runPagespeed?url=…&strategy=…&category=…&key=…`). A 429 or 5xx
 * is retried with exponential backoff (honouring Retry-After within the bound); each attempt has its
 * own timeout and the whole call a total one. The key goes in the query string as Google requires
 * and is never logged or echoed.
 */
export interface PsiOptions {
  apiUrl: string;
  apiKey: string;
  attemptTimeoutMs?: number;
  totalTimeoutMs?: number;
  maxAttempts?: number;
  backoffBaseMs?: number;
}

export const PSI_DEFAULTS = {
  attemptTimeoutMs: 60_000,
  totalTimeoutMs: 100_000,
  maxAttempts: 3,
  backoffBaseMs: 2_000,
} as const;

const CATEGORIES = ['PERFORMANCE', 'ACCESSIBILITY', 'BEST_PRACTICES', 'SEO'];

interface PsiResponse {
  lighthouseResult?: LighthouseResult;
  loadingExperience?: LoadingExperience;
  error?: { code?: number; message?: string };
}

export class PageSpeedInsightsEngine implements PageSpeedEngine {
  readonly name = 'pagespeed-insights' as const;
  readonly #options: Required<PsiOptions>;

  constructor(options: PsiOptions) {
    this.#options = { ...PSI_DEFAULTS, ...options };
  }

  async analyze({ url, strategy, signal }: AnalyzeOptions): Promise<DiagnosticReport> {
    const { apiUrl, apiKey, attemptTimeoutMs, totalTimeoutMs, maxAttempts, backoffBaseMs } = this.#options;
    const request = new URL(apiUrl);
    request.searchParams.set('url', url);
    request.searchParams.set('strategy', strategy);
    for (const category of CATEGORIES) request.searchParams.append('category', category);
    request.searchParams.set('key', apiKey);
    const total = AbortSignal.timeout(totalTimeoutMs);
    const bound = signal ? AbortSignal.any([total, signal]) : total;

    for (let attempt = 1; ; attempt++) {
      let response: Response;
      try {
        response = await tracedFetch('pagespeed', { 'http.request.method': 'GET', attempt }, (trace) =>
          fetch(request, {
            headers: { accept: 'application/json', ...trace },
            signal: AbortSignal.any([bound, AbortSignal.timeout(attemptTimeoutMs)]),
          }),
        );
      } catch (error) {
        if (bound.aborted || attempt >= maxAttempts) {
          throw new PageSpeedError(PSI_TIMED_OUT, { cause: error, upstream: true });
        }
        await sleep(backoff(attempt, backoffBaseMs), bound);
        continue;
      }
      const body = (await response.json().catch(() => null)) as PsiResponse | null;
      if (response.ok && body?.lighthouseResult) {
        const lhr = body.lighthouseResult;
        if (lhr.runtimeError?.code && lhr.runtimeError.code !== 'NO_ERROR') {
          throw new PageSpeedError(`Lighthouse could not load the page (${lhr.runtimeError.code}).`, {
            permanent: true,
          });
        }
        return fromLighthouseResult(lhr, this.name, strategy, body.loadingExperience);
      }
      const retryable = response.status === 429 || response.status >= 500;
      if (!retryable || attempt >= maxAttempts) {
        const detail = `HTTP ${response.status}: ${body?.error?.message ?? 'no message'}`
          .replace(/key=[^&\s]+/g, 'key=…')
          .slice(0, 300);
        // "Lighthouse returned error: FAILED_DOCUMENT_REQUEST…" is about the visitor's page and is
        // theirs to read; anything else (an invalid key, a quota, a Google fault) is the operator's.
        const aboutThePage = /^Lighthouse returned error/i.test(body?.error?.message ?? '');
        throw new PageSpeedError(
          aboutThePage
            ? `PageSpeed Insights failed: ${detail.slice(detail.indexOf(': ') + 2)}`
            : PSI_UNAVAILABLE,
          { permanent: !retryable, upstream: !aboutThePage, detail },
        );
      }
      const retryAfter = Number(response.headers.get('retry-after'));
      const wait =
        Number.isFinite(retryAfter) && retryAfter > 0
          ? Math.min(retryAfter * 1000, 30_000)
          : backoff(attempt, backoffBaseMs);
      await sleep(wait, bound);
    }
  }
}

/** What a visitor is told when PageSpeed Insights fails for a reason of ours or Google's. */
const PSI_TIMED_OUT = 'PageSpeed Insights did not answer in time.';

export const PSI_UNAVAILABLE =
  'PageSpeed Insights could not analyse the page right now; please try again later.';

function backoff(attempt: number, baseMs: number): number {
  return Math.round(baseMs * 2 ** (attempt - 1) * (0.8 + Math.random() * 0.4));
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new PageSpeedError(PSI_TIMED_OUT, { upstream: true }));
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(new PageSpeedError(PSI_TIMED_OUT, { upstream: true }));
      },
      { once: true },
    );
  });
}
