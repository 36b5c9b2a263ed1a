/**
 * `GET /ready`: 200 only while the instance serves and its database answers with the migrations
 * applied; 503 in the envelope while starting, with the database gone (SQLite: a file that no longer
 * reads as a database; PostgreSQL: the app's connections terminated), and from the moment shutdown
 * begins. `/health` (liveness) answers 200 throughout.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { createRoute } from '@hono/zod-openapi';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { postgresAvailable } from '../../../test/support/database.ts';
import { createTestApp, startTestServer, type TestContext } from '../../../test/support/test-app.ts';
import { createRouter } from '../../http/openapi.ts';

type Running = Awaited<ReturnType<typeof startTestServer>>;

let running: (TestContext & { close(): Promise<void> }) | null = null;
afterEach(async () => {
  await running?.close();
  running = null;
});

async function ready(url: string) {
  const response = await fetch(`${url}/ready`);
  return {
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
    body: await response.json(),
  };
}

const notReady = (reason: string) => ({
  status: 503,
  retryAfter: '5',
  body: {
    success: false,
    error: { code: 'NOT_CONFIGURED', message: `Not ready: ${reason}.`, requestId: expect.any(String) },
  },
});
const READY = { status: 200, retryAfter: null, body: { status: 'READY' } };

describe('GET /ready while starting', () => {
  it('answers 503 until the server serves (the app built, not yet listening); /health answers 200', async () => {
    const ctx = await createTestApp();
    running = ctx;
    const response = await ctx.app.request('/ready');
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('5');
    expect((await response.json()).error).toMatchObject({
      code: 'NOT_CONFIGURED',
      message: 'Not ready: starting.',
    });
    expect((await ctx.app.request('/health')).status).toBe(200);
  });
});

describe('GET /ready on SQLite', () => {
  let directory: string | null = null;
  afterEach(() => {
    if (directory) rmSync(directory, { recursive: true, force: true });
    directory = null;
  });

  it('answers 503 while the database file cannot be read as a database, 200 once it can again', async () => {
    directory = mkdtempSync(join(tmpdir(), 'ready-sqlite-'));
    const file = join(directory, 'app.db');
    const ctx = await startTestServer({ sqlitePath: file });
    running = ctx;
    expect(await ready(ctx.url)).toEqual(READY);

    // The tests run as root, whom file permissions do not stop: the file is made unreadable by
    // overwriting its header (and the WAL index, so the app's connection reads the file again)
    // with bytes that are no SQLite database. The pages are in the file first (checkpoint).
    const other = new DatabaseSync(file);
    other.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    other.close();
    const saved = [file, `${file}-shm`].map((path) => ({ path, bytes: readStart(path, 128) }));
    for (const { path } of saved) overwriteStart(path, Buffer.alloc(128, 0x41));

    expect(await ready(ctx.url)).toEqual(notReady('the database is unreachable'));
    expect((await fetch(`${ctx.url}/health`)).status).toBe(200);
    expect(ctx.logs.lines).toContainEqual(
      expect.objectContaining({ msg: 'not ready', reason: 'the database is unreachable', level: 40 }),
    );

    for (const { path, bytes } of saved) overwriteStart(path, bytes);
    expect(await ready(ctx.url)).toEqual(READY);
    expect(ctx.logs.lines).toContainEqual(
      expect.objectContaining({ msg: 'ready again: the database answers' }),
    );
  });
});

function readStart(path: string, length: number): Buffer {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(length);
    readSync(fd, buffer, 0, length, 0);
    return buffer;
  } finally {
    closeSync(fd);
  }
}

function overwriteStart(path: string, bytes: Buffer): void {
  const fd = openSync(path, 'r+');
  try {
    writeSync(fd, bytes, 0, bytes.length, 0);
  } finally {
    closeSync(fd);
  }
}

describe('GET /ready when shutdown begins', () => {
  it('answers 503 to a request arriving after shutdown began, on a connection accepted before', async () => {
    let heldStarted!: () => void;
    const held = new Promise<void>((resolve) => {
      heldStarted = resolve;
    });
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const gate = createRoute({
      method: 'get',
      path: '/test/gate',
      responses: { 200: { description: 'held' } },
    });
    const ctx = await startTestServer({
      extend: (app) =>
        app.route(
          '/',
          createRouter().openapi(gate, async (c) => {
            heldStarted();
            await released;
            return c.json({ released: true }, 200);
          }),
        ),
    });
    running = ctx;
    expect(await ready(ctx.url)).toEqual(READY);

    const socket = connect(ctx.server.port, '127.0.0.1');
    const received: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    const closed = new Promise<void>((resolve, reject) => {
      socket.on('close', () => resolve());
      socket.on('error', reject);
    });
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    socket.write('GET /test/gate HTTP/1.1\r\nHost: x\r\n\r\n');
    await held;

    const shutdown = ctx.server.shutdown();
    // In-process too, the same moment: the app answers 503 at once.
    expect((await ctx.app.request('/ready')).status).toBe(503);
    socket.write(
      'GET /ready HTTP/1.1\r\nHost: x\r\nX-Request-Id: after-shutdown\r\nConnection: close\r\n\r\n',
    );
    // Answered by the app (its log line written) while the first request is still held.
    await until(() =>
      ctx.logs.lines.some((line) => line.requestId === 'after-shutdown' && line.msg === 'request'),
    );
    release();
    await closed;
    await shutdown;

    const [first, second] = Buffer.concat(received)
      .toString('latin1')
      .split(/(?=HTTP\/1\.1 )/);
    expect(first).toMatch(/^HTTP\/1\.1 200 /);
    expect(second).toMatch(/^HTTP\/1\.1 503 /);
    expect(JSON.parse(second!.slice(second!.indexOf('\r\n\r\n') + 4)).error).toMatchObject({
      code: 'NOT_CONFIGURED',
      message: 'Not ready: shutting down.',
      requestId: 'after-shutdown',
    });
  });
});

async function until(condition: () => boolean | Promise<boolean>, what = 'the condition'): Promise<void> {
  for (let tries = 0; !(await condition()); tries++) {
    if (tries > 2000) throw new Error(`${what} was never met`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe.skipIf(!(await postgresAvailable()))('GET /ready on PostgreSQL', () => {
  /**
   * The app's connections carry their own application_name: other test files share the server, and
   * only these are terminated. The readiness query is held on a lock of the migration table so that
   * it is surely running on a connection when that connection is terminated (or when shutdown begins).
   */
  async function withHeldProbe(
    overrides: { readinessTimeoutMs?: number },
    body: (ctx: Running, admin: pg.Client, applicationName: string) => Promise<void>,
  ) {
    const applicationName = `ready-${randomBytes(4).toString('hex')}`;
    const ctx = await startTestServer({ engine: 'postgres', applicationName, overrides });
    running = ctx;
    const adminUrl = new URL(ctx.database.url);
    adminUrl.searchParams.set('application_name', `${applicationName}-admin`);
    const admin = new pg.Client({ connectionString: adminUrl.toString() });
    await admin.connect();
    try {
      expect(await ready(ctx.url)).toEqual(READY);
      await admin.query('begin');
      await admin.query('lock table kysely_migration in access exclusive mode');
      await body(ctx, admin, applicationName);
    } finally {
      await admin.end();
    }
  }

  const waitingOnTheLock = (admin: pg.Client, applicationName: string) =>
    until(async () => {
      const { rows } = await admin.query(
        "select 1 from pg_stat_activity where application_name = $1 and wait_event_type = 'Lock'",
        [applicationName],
      );
      return rows.length > 0;
    }, 'the readiness query waiting on the lock');

  it('answers 503 when its connection is terminated mid-check, 200 on a new one', async () => {
    await withHeldProbe({ readinessTimeoutMs: 120_000 }, async (ctx, admin, applicationName) => {
      const answer = ready(ctx.url);
      await waitingOnTheLock(admin, applicationName);
      const { rows } = await admin.query(
        'select pg_terminate_backend(pid) as done from pg_stat_activity where application_name = $1',
        [applicationName],
      );
      expect(rows.length).toBeGreaterThan(0);
      expect(await answer).toEqual(notReady('the database is unreachable'));
      expect((await fetch(`${ctx.url}/health`)).status).toBe(200);
      await admin.query('rollback');
      // The pool's idle connections were terminated too: a probe may still meet one before the pool
      // has heard (503 again) and dropped it; the next ones open new connections.
      await until(async () => (await ready(ctx.url)).status === 200, 'ready again');
      expect(await ready(ctx.url)).toEqual(READY);
    });
  });

  it('answers 503 when the database does not answer within the bound', async () => {
    await withHeldProbe({ readinessTimeoutMs: 200 }, async (ctx, admin) => {
      expect(await ready(ctx.url)).toEqual(notReady('the database did not answer in time'));
      await admin.query('rollback');
      await until(async () => (await ready(ctx.url)).status === 200, 'ready again');
    });
  });

  it('answers a check in flight with 503 the moment shutdown begins', async () => {
    await withHeldProbe({ readinessTimeoutMs: 120_000 }, async (ctx, admin, applicationName) => {
      const answer = ready(ctx.url);
      await waitingOnTheLock(admin, applicationName);
      const shutdown = ctx.server.shutdown();
      expect(await answer).toEqual(notReady('shutting down'));
      await admin.query('rollback');
      await shutdown;
    });
  });
});
