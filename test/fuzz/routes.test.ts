/**
 * Hostile input on every route: thousands of generated malformed requests (wrong types, missing and
 * extra fields, huge and deeply nested bodies, invalid UTF-8, NUL bytes, bad Content-Type, hostile
 * path segments, query strings and headers) sent over a real socket. Every answer: no 500, the right
 * error envelope, and no row written for an answer that is not 2xx; after each route's batch the
 * server is healthy and no row points at nothing.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../support/database.ts';
import {
  type BodyCase,
  headersFor,
  jsonBody,
  multipartBody,
  pathSegment,
  queryString,
} from './arbitraries.ts';
import {
  changes,
  type FuzzServer,
  type Operation,
  orphans,
  problemWith,
  type SentRequest,
  send,
  snapshot,
  startFuzzServer,
  stopFuzzServer,
  tablesOf,
} from './harness.ts';
import { RUNS_PER_ROUTE, SEED } from './settings.ts';
import { record, tally } from './tally.ts';

const WRONG_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** fc.assert with a failure message cut to a readable size (counterexamples can be megabytes). */
async function check(property: fc.IAsyncProperty<unknown[]>, numRuns: number) {
  try {
    await fc.assert(property, { seed: SEED, numRuns, endOnFailure: true });
  } catch (error) {
    const cause = (error as Error & { cause?: unknown }).cause;
    throw new Error(String(cause instanceof Error ? cause.message : error).slice(0, 4000));
  }
}

function requestFor(
  op: Operation,
  segments: string[],
  query: string,
  headers: Record<string, string>,
  body: BodyCase | null,
  method = op.method,
): SentRequest {
  let path = op.path;
  op.params.forEach((name, i) => {
    path = path.replace(`{${name}}`, segments[i] ?? 'x');
  });
  const sent: SentRequest = { method, path: `${path}${query}`, headers: { ...headers } };
  if (body) {
    if (body.contentType !== null) sent.headers['content-type'] = body.contentType;
    sent.body = body.body;
  }
  return sent;
}

function describeRequest(req: SentRequest, body: BodyCase | null) {
  const shown =
    typeof req.body === 'string' ? req.body.slice(0, 200) : req.body ? `<${req.body.constructor.name}>` : '';
  return `${req.method} ${req.path.slice(0, 300)} [${body?.kind ?? 'no body'}; ${req.headers['content-type'] ?? ''}] ${shown}`;
}

describe.each(await testEngines())('hostile input on every route (%s)', (engine) => {
  let server: FuzzServer;
  let tables: string[];
  let drain: NodeJS.Timeout;

  beforeAll(async () => {
    server = await startFuzzServer(engine);
    tables = await tablesOf(server);
    // Diagnostic requests wait for their queued run: run that queue while the suite goes.
    drain = setInterval(() => void server.deps.worker.drain('diagnostics').catch(() => {}), 100);
  }, 60_000);
  afterAll(async () => {
    console.log(tally(engine));
    clearInterval(drain);
    if (server) await stopFuzzServer(server);
  }, 60_000);

  /** Sends one request and checks the answer and the database; throws with the request on failure. */
  async function tryRequest(req: SentRequest, body: BodyCase | null) {
    const before = await snapshot(server, tables);
    let answer: Awaited<ReturnType<typeof send>>;
    try {
      answer = await send(server, req);
    } catch (error) {
      throw new Error(`no answer (${String(error)}) to ${describeRequest(req, body)}`);
    }
    record(engine, req, answer.status);
    const problem = problemWith(server, req, answer);
    if (problem)
      throw new Error(
        `${problem}\n  request: ${describeRequest(req, body)}\n  answer: ${answer.status} ${answer.text.slice(0, 300)}`,
      );
    if (answer.status < 200 || answer.status > 299) {
      const changed = changes(before, await snapshot(server, tables));
      if (changed.length)
        throw new Error(
          `a ${answer.status} answer wrote rows (${changed.join(', ')}) for ${describeRequest(req, body)}`,
        );
    }
  }

  async function healthy() {
    const health = await fetch(`${server.url}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'OK' });
    expect(await orphans(server)).toEqual({
      attachmentsWithoutTicket: 0,
      attachmentsWithoutBlob: 0,
      blobsUnreferenced: 0,
      quotaHoldsWithoutLead: 0,
    });
  }

  it('covers every route: the documented ones and the rest of the route table', () => {
    const paths = server.operations.map((op) => `${op.method} ${op.path}`);
    for (const expected of [
      'POST /api/leads',
      'POST /api/ai/recommend-plan',
      'GET /docs',
      'GET /admin/leads',
      'GET /openapi.json',
    ]) {
      expect(paths).toContain(expected);
    }
    expect(server.operations.filter((op) => !op.documented).length).toBeGreaterThan(0);
  });

  it('every route: generated malformed requests', { timeout: 600_000 }, async () => {
    for (const op of server.operations) {
      const body: fc.Arbitrary<BodyCase | null> =
        op.body?.type === 'multipart' ? multipartBody(op) : op.body ? jsonBody(op) : fc.constant(null);
      const pathname = op.path.replace(/\{\w+\}/g, 'x');
      await check(
        fc.asyncProperty(
          fc.array(pathSegment, { minLength: op.params.length, maxLength: op.params.length }),
          queryString(op),
          headersFor(pathname),
          body,
          async (segments, query, headers, bodyCase) => {
            await tryRequest(requestFor(op, segments, query, headers, bodyCase), bodyCase);
          },
        ),
        RUNS_PER_ROUTE,
      );
      await healthy();
    }
  });

  it('every route: wrong methods (405 with Allow, in the route’s envelope)', {
    timeout: 300_000,
  }, async () => {
    for (const op of server.operations) {
      for (const method of WRONG_METHODS.filter((m) => m !== op.method)) {
        const req = requestFor(
          op,
          op.params.map(() => 'x'),
          '',
          { 'x-forwarded-for': '203.0.113.5' },
          null,
          method,
        );
        if (method !== 'GET') {
          req.headers['content-type'] = 'application/json';
          req.body = '{}';
        }
        await tryRequest(req, null);
      }
    }
    await healthy();
  });

  it('unknown paths (404 in the envelope of their prefix)', { timeout: 300_000 }, async () => {
    await check(
      fc.asyncProperty(
        fc.constantFrom('/api/ai/', '/api/', '/admin/', '/', '/api/leads/x/', '/docs/assets/'),
        fc.array(pathSegment, { minLength: 1, maxLength: 4 }),
        fc.constantFrom('GET', 'POST', 'DELETE', 'OPTIONS'),
        async (prefix, segments, method) => {
          await tryRequest(
            { method, path: `${prefix}${segments.join('/')}`, headers: { 'x-forwarded-for': '203.0.113.6' } },
            null,
          );
        },
      ),
      RUNS_PER_ROUTE * 3,
    );
    await healthy();
  });
});
