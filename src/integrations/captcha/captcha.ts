/**
 * CAPTCHA verification over the siteverify protocol shared by reCAPTCHA v3, Turnstile and hCaptcha:
 * a form-encoded POST of `secret`, `response` and `remoteip`, answered with
 * `{success, score?, action?, hostname?, "error-codes"?}`. Expected failures are values, not exceptions.
 */
import { tracedFetch } from '../../tracing/outbound.ts';
export type CaptchaResult =
  | { ok: true; score: number | null; enforced: boolean }
  | { ok: false; reason: 'missing-token' | 'rejected' | 'low-score' | 'unavailable'; detail: string };

export interface CaptchaVerifier {
  /** False for the offline default: every submission passes. */
  readonly enforced: boolean;
  verify(token: string | undefined, remoteIp: string | null): Promise<CaptchaResult>;
}

export const CAPTCHA_TIMEOUT_MS = 5000;

/**
 * The hidden fields the providers' widgets fill in a plain HTML form (reCAPTCHA, Turnstile,
 * hCaptcha): a form posted without JavaScript carries its token under one of these names.
 */
export const CAPTCHA_WIDGET_FIELDS = [
  'g-recaptcha-response',
  'cf-turnstile-response',
  'h-captcha-response',
] as const;

/** The token a form's fields carry under a widget's own name, or undefined. */
export function widgetToken(fields: Readonly<Record<string, unknown>>): string | undefined {
  for (const name of CAPTCHA_WIDGET_FIELDS) {
    const value = fields[name];
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
  }
  return undefined;
}

/**
 * siteverify's error codes that blame the site or the verifier, not the token (reCAPTCHA, Turnstile
 * and hCaptcha spellings): the secret is missing or wrong, the request was malformed, or the
 * verifier failed internally.
 */
const SERVICE_SIDE_CODES = new Set([
  'missing-input-secret',
  'invalid-input-secret',
  'bad-request',
  'internal-error',
  'sitekey-secret-mismatch',
]);

export class SiteverifyClient implements CaptchaVerifier {
  readonly enforced = true;
  readonly #secret: string;
  readonly #verifyUrl: string;
  readonly #minScore: number;
  readonly #timeoutMs: number;

  constructor(options: { secret: string; verifyUrl: string; minScore: number; timeoutMs?: number }) {
    this.#secret = options.secret;
    this.#verifyUrl = options.verifyUrl;
    this.#minScore = options.minScore;
    this.#timeoutMs = options.timeoutMs ?? CAPTCHA_TIMEOUT_MS;
  }

  async verify(token: string | undefined, remoteIp: string | null): Promise<CaptchaResult> {
    if (!token || token.trim() === '') {
      return { ok: false, reason: 'missing-token', detail: 'no CAPTCHA token was sent' };
    }
    const form = new URLSearchParams({ secret: this.#secret, response: token });
    if (remoteIp) form.set('remoteip', remoteIp);
    let body: { success?: unknown; score?: unknown; 'error-codes'?: unknown };
    try {
      const res = await tracedFetch('captcha', { 'http.request.method': 'POST' }, (trace) =>
        fetch(this.#verifyUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', ...trace },
          body: form,
          signal: AbortSignal.timeout(this.#timeoutMs),
        }),
      );
      if (!res.ok) return { ok: false, reason: 'unavailable', detail: `siteverify answered ${res.status}` };
      const answer: unknown = await res.json();
      // `null`, an array or a bare value is not a siteverify answer: the service is at fault, not the token.
      if (answer === null || typeof answer !== 'object' || Array.isArray(answer)) {
        return {
          ok: false,
          reason: 'unavailable',
          detail: 'siteverify answered something other than an object',
        };
      }
      body = answer as typeof body;
    } catch (error) {
      return {
        ok: false,
        reason: 'unavailable',
        detail: `siteverify unreachable: ${error instanceof Error ? error.name : 'error'}`,
      };
    }
    if (body.success !== true) {
      const errorCodes = Array.isArray(body['error-codes']) ? body['error-codes'].map(String) : [];
      const codes = errorCodes.length > 0 ? errorCodes.join(', ') : 'none';
      // A wrong secret or a verifier fault is ours, not the visitor's: 502, not "CAPTCHA failed".
      if (errorCodes.some((code) => SERVICE_SIDE_CODES.has(code))) {
        return {
          ok: false,
          reason: 'unavailable',
          detail: `siteverify could not check the token (${codes})`,
        };
      }
      return { ok: false, reason: 'rejected', detail: `token rejected (${codes})` };
    }
    // reCAPTCHA v3 returns a score; Turnstile and hCaptcha (non-enterprise) do not.
    const score = typeof body.score === 'number' ? body.score : null;
    if (score !== null && score < this.#minScore) {
      return { ok: false, reason: 'low-score', detail: `score ${score} is below ${this.#minScore}` };
    }
    return { ok: true, score, enforced: true };
  }
}

/** The offline default when CAPTCHA_SECRET is unset: not enforced (warned about at start-up). */
export class UnenforcedCaptcha implements CaptchaVerifier {
  readonly enforced = false;
  async verify(): Promise<CaptchaResult> {
    return { ok: true, score: null, enforced: false };
  }
}

export function createCaptchaVerifier(config: {
  secret: string | undefined;
  verifyUrl: string;
  minScore: number;
}): CaptchaVerifier {
  return config.secret
    ? new SiteverifyClient({ secret: config.secret, verifyUrl: config.verifyUrl, minScore: config.minScore })
    : new UnenforcedCaptcha();
}
