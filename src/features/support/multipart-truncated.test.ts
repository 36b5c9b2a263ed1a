import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestContext } from '../../../test/support/test-app.ts';

// Found by the hostile-input suite: a multipart body that ends inside a file part made busboy destroy
// the file stream with "Unexpected end of form", an error nobody listened to (uncaught: the process
// would exit). It must be a 400 like any malformed body.
describe('POST /api/support/tickets with a body cut inside a file part', () => {
  let ctx: TestContext & { url: string };
  const uncaught: unknown[] = [];
  const onUncaught = (error: unknown) => uncaught.push(error);
  beforeAll(async () => {
    process.on('uncaughtException', onUncaught);
    ctx = await startTestServer({ env: { TRUST_PROXY: 'xff' } });
  });
  afterAll(async () => {
    process.off('uncaughtException', onUncaught);
    await ctx.close();
  });

  it.each([
    [
      'in the file bytes',
      '--b\r\nContent-Disposition: form-data; name="attachments"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n\x89PNG\r\n',
    ],
    [
      'in an ignored file',
      '--b\r\nContent-Disposition: form-data; name="other"; filename="a.txt"\r\n\r\nhello',
    ],
    ['in a field', '--b\r\nContent-Disposition: form-data; name="email"\r\n\r\nx'],
  ])('cut %s: 400 VALIDATION_ERROR, nothing stored, the server lives', async (_case, body) => {
    const response = await fetch(`${ctx.url}/api/support/tickets`, {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=b', 'x-forwarded-for': '198.51.100.77' },
      body,
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR' } });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(uncaught).toEqual([]);
    expect(await ctx.deps.db.selectFrom('support_tickets').select('id').execute()).toEqual([]);
    expect((await fetch(`${ctx.url}/health`)).status).toBe(200);
  });
});
