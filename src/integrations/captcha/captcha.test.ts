import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StandIn, sendJson, startStandIn } from '../../../test/support/stand-in.ts';
import { SiteverifyClient } from './captcha.ts';

describe('SiteverifyClient', () => {
  let answer: unknown = null;
  let siteverify: StandIn;
  beforeAll(async () => {
    siteverify = await startStandIn((_req, res) => sendJson(res, 200, answer));
  });
  afterAll(() => siteverify.close());

  const client = () => new SiteverifyClient({ secret: 's', verifyUrl: siteverify.url, minScore: 0.5 });

  it.each([
    ['null', null],
    ['an array', []],
    ['a string', 'ok'],
  ])(
    'an answer that is not a JSON object (%s) is the service failing, not the token',
    async (_label, body) => {
      answer = body;
      const result = await client().verify('a-token', null);
      expect(result).toMatchObject({ ok: false, reason: 'unavailable' });
    },
  );
});
