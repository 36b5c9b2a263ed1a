import { type StandIn, sendJson, startStandIn } from './stand-in.ts';

/**
 * A local siteverify endpoint (tests only): tokens starting with `ok` pass, `low` pass with a score of
 * 0.1, `noscore` pass without a score (Turnstile, hCaptcha), anything else is rejected. Each request's
 * form is kept in `forms`.
 */
export async function startSiteverifyStandIn(
  secret = 'captcha-test-secret',
): Promise<StandIn & { forms: () => URLSearchParams[]; secret: string }> {
  const standIn = await startStandIn((req, res) => {
    const form = new URLSearchParams(req.body);
    const token = form.get('response') ?? '';
    if (form.get('secret') !== secret) {
      return sendJson(res, 200, { success: false, 'error-codes': ['invalid-input-secret'] });
    }
    if (token.startsWith('ok')) return sendJson(res, 200, { success: true, score: 0.9, action: 'submit' });
    if (token.startsWith('low')) return sendJson(res, 200, { success: true, score: 0.1, action: 'submit' });
    if (token.startsWith('noscore')) return sendJson(res, 200, { success: true, hostname: 'localhost' });
    return sendJson(res, 200, { success: false, 'error-codes': ['invalid-input-response'] });
  });
  return Object.assign(standIn, {
    secret,
    forms: () => standIn.requests.map((r) => new URLSearchParams(r.body)),
  });
}
