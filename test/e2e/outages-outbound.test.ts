/**
 * Outside outages, part 2: WordPress (posts proxy) and PageSpeed Insights (diagnostics), each refusing
 * connections, hanging past its timeout, and answering garbage, in turn, in front of a real server
 * process on PostgreSQL. Posts must serve the stale copy when one exists and 502 otherwise, within the
 * 10 s upstream timeout; diagnostics must answer 502 within its documented wait.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, postgresAvailable, type TestDatabase } from '../support/database.ts';
import type { ServerProcess } from '../support/process.ts';
import { type StandIn, sendJson, startStandIn } from '../support/stand-in.ts';
import {
  type Answer,
  call,
  type FaultMode,
  type FaultSwitch,
  healthcheck,
  postJson,
  startFaultSwitch,
  startInstances,
  startWordPressProcess,
  waitFor,
} from './support.ts';

const hasPostgres = await postgresAvailable();
if (!hasPostgres) console.warn('outage e2e skipped: PostgreSQL is not reachable (TEST_DATABASE_URL)');

const PSI_RECORDED = JSON.parse(
  readFileSync(new URL('../support/fixtures/psi-response.json', import.meta.url), 'utf8'),
);
const HTTP_GARBAGE =
  'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 17\r\nConnection: close\r\n\r\n<html>oops</html>';
const MARGIN_MS = 7000;
/** docs/outbound.md: the WordPress client's timeout. */
const WORDPRESS_TIMEOUT_MS = 10_000;
/** docs/outbound.md: a diagnostics request waits at most 150 s, queue wait included. */
const DIAGNOSTIC_WAIT_MS = 150_000;
const measured: Record<string, number> = {};

describe.skipIf(!hasPostgres)('outside outages: WordPress, PageSpeed Insights', () => {
  let database: TestDatabase;
  let server: ServerProcess;
  let wordpress: Awaited<ReturnType<typeof startWordPressProcess>>;
  let psi: StandIn;
  let wpSwitch: FaultSwitch;
  let psiSwitch: FaultSwitch;
  let page = 1;

  beforeAll(async () => {
    [database, wordpress, psi] = await Promise.all([
      createTestDatabase('postgres'),
      startWordPressProcess(),
      startStandIn((_req, res) => sendJson(res, 200, PSI_RECORDED)),
    ]);
    wpSwitch = await startFaultSwitch(wordpress.port, HTTP_GARBAGE);
    psiSwitch = await startFaultSwitch(Number(new URL(psi.url).port), HTTP_GARBAGE);
    [server] = (await startInstances(1, {
      DATABASE_URL: database.url,
      WORDPRESS_API_URL: `${wpSwitch.url()}/wp-json/wp/v2`,
      // Expire quickly, so the outage meets an expired copy (served stale) as well as none (502).
      POSTS_CACHE_TTL_SECONDS: '1',
      PAGESPEED_API_KEY: 'e2e-psi-key',
      PAGESPEED_API_URL: `${psiSwitch.url()}/runPagespeed`,
    })) as [ServerProcess];
  }, 60_000);

  afterAll(async () => {
    console.log(`outage durations (ms) ${JSON.stringify(measured)}`);
    await server?.stop();
    await Promise.all([wpSwitch?.close(), psiSwitch?.close(), psi?.close()]);
    wordpress?.stop();
    await database?.dispose();
  });

  const bounded = (row: string, answer: Answer, documentedMs: number) => {
    measured[row] = Math.round(answer.ms);
    expect(answer.ms, `${row}: answered within ${documentedMs} ms + margin`).toBeLessThan(
      documentedMs + MARGIN_MS,
    );
  };

  it.each(['refuse', 'hang', 'garbage'] as FaultMode[])(
    'WordPress %s: stale copy when there is one, else 502, within the timeout; fresh again on recovery',
    async (mode) => {
      const cached = `${server.url}/api/posts?per_page=2&page=${page++}`;
      const uncached = `${server.url}/api/posts?per_page=3&page=${page++}`;
      expect((await call(cached)).status).toBe(200);
      // Past the 1 s lifetime and the instance's 1 s memo: the copy is expired but kept for stale-if-error.
      await new Promise((resolve) => setTimeout(resolve, 2200));
      await wpSwitch.set(mode);
      try {
        const [stale, none] = await Promise.all([call(cached), call(uncached)]);
        bounded(`WordPress ${mode}: cached`, stale, WORDPRESS_TIMEOUT_MS);
        expect(stale.status).toBe(200);
        expect(stale.headers.get('x-cache')).toBe('STALE');
        expect(Array.isArray(JSON.parse(stale.text))).toBe(true);
        bounded(`WordPress ${mode}: uncached`, none, WORDPRESS_TIMEOUT_MS);
        expect(none.status).toBe(502);
        expect(none.body).toMatchObject({ success: false, error: { code: 'EXTERNAL_SERVICE_ERROR' } });
        expect(await healthcheck(server.port)).toBe(0);
      } finally {
        await wpSwitch.set('up');
      }
      const fresh = await call(uncached);
      expect(fresh.status).toBe(200);
      expect(fresh.headers.get('x-cache')).toBe('MISS');
    },
    40_000,
  );

  it.each(['refuse', 'garbage'] as FaultMode[])(
    'PageSpeed Insights %s: 502 within the documented wait; a new URL succeeds on recovery',
    async (mode) => {
      await psiSwitch.set(mode);
      try {
        const answer = await postJson(
          `${server.url}/api/diagnostic/analyze`,
          { url: `https://example.com/${mode}` },
          {},
          DIAGNOSTIC_WAIT_MS + MARGIN_MS,
        );
        bounded(`PSI ${mode}: analyze`, answer, DIAGNOSTIC_WAIT_MS);
        expect(answer.status).toBe(502);
        expect(answer.body).toMatchObject({ success: false, error: { code: 'EXTERNAL_SERVICE_ERROR' } });
        expect(answer.text).not.toContain('e2e-psi-key');
        expect(await healthcheck(server.port)).toBe(0);
      } finally {
        await psiSwitch.set('up');
      }
      const recovered = await waitFor('PSI recovered', async () => {
        const answer = await postJson(`${server.url}/api/diagnostic/analyze`, {
          url: `https://example.com/${mode}-after`,
        });
        return answer.status === 200 ? answer : null;
      });
      expect(recovered.body).toMatchObject({ success: true, engine: 'pagespeed-insights' });
    },
    40_000,
  );

  // PSI's own bounds are 60 s per attempt and 100 s per call (docs/outbound.md): a hanging PSI would
  // hold this suite for minutes. Its time-outs are covered with short bounds in psi-client.test.ts.
  it.skip('PageSpeed Insights hang: beyond this suite’s time bound (60 s per attempt, 100 s per call)', () => {});
});
