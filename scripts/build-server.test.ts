import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Metafile } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leadBody } from '../test/e2e/support.ts';
import { LOADED_ON_FIRST_USE } from '../test/support/loaded-on-first-use.ts';
import { type ServerProcess, spawnServer } from '../test/support/process.ts';
import { buildServer } from './build-server.ts';

/**
 * The bundle `npm start` and the container run (scripts/build-server.ts) serves like the sources:
 * every route that reads a file beside its source (admin static files, the docs' swagger-ui-dist, the
 * tracker script, the prototype preview assets, the engine's model, the classifier's weights, the
 * country database) and the migrations it carries. Built into a folder of its own inside the project
 * (the packages left out of the bundle resolve from node_modules).
 */
const ROOT = join(import.meta.dirname, '..');
const outDir = mkdtempSync(join(ROOT, 'dist-test-'));
const data = mkdtempSync(join(tmpdir(), 'bundle-'));
let server: ServerProcess;

beforeAll(async () => {
  expect(await buildServer({ outDir })).toBe(true);
  server = await spawnServer(
    {
      DATABASE_URL: `sqlite:${join(data, 'app.db')}`,
      CHAT_API_SECRET: 'chat-key',
      // The SEO analysis fetches a page of a local server (a loopback address it refuses otherwise).
      FETCH_ALLOW_HOSTS: '127.0.0.1',
    },
    15_000,
    {
      nodeArgs: ['--import', './test/support/record-imports.ts'],
      script: relative(ROOT, join(outDir, 'main.js')),
    },
  );
}, 60_000);
afterAll(async () => {
  await server?.stop();
  rmSync(outDir, { recursive: true, force: true });
  rmSync(data, { recursive: true, force: true });
});

describe('the server bundle', () => {
  it('is not built again while nothing that went into it changed', async () => {
    expect(await buildServer({ outDir })).toBe(false);
  });

  it('answers /health without loading the chunks of what only some requests need', async () => {
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
    // Each file of the bundle the start-up loaded, and the sources and packages it holds (meta.json).
    const meta = JSON.parse(readFileSync(join(outDir, 'meta.json'), 'utf8')) as Metafile;
    const loaded = server.output
      .filter((line) => line.startsWith('resolved file:'))
      .map((line) => relative(ROOT, fileURLToPath(line.slice('resolved '.length))));
    const chunks = loaded.filter((file) => file.startsWith(relative(ROOT, outDir)));
    expect(chunks).toContain(relative(ROOT, join(outDir, 'main.js')));
    const inputs = chunks.flatMap((chunk) => Object.keys(meta.outputs[chunk]?.inputs ?? {}));
    // The recording works: the database layer is in what was loaded.
    expect(inputs.some((input) => input.includes('node_modules/kysely/'))).toBe(true);
    expect(LOADED_ON_FIRST_USE.filter((part) => inputs.some((input) => input.includes(part)))).toEqual([]);
    // No code is loaded from the sources or node_modules beside the bundle but the recorder itself (files
    // found through `require.resolve`, the docs' swagger-ui-dist and the country database, are data).
    const code = loaded.filter((file) => /\.[cm]?[jt]s$/.test(file));
    expect(code.filter((file) => !chunks.includes(file) && !file.startsWith('test/support/'))).toEqual([]);
    // ASCII only: Node hands V8 a file with any other character as two-byte text, and V8 keeps a
    // module's text for its life (the start chunk: 1.7 MB more). esbuild escapes strings but leaves
    // regular expression literals as written: write `\u00f1`, not `ñ`, in those of start-up code.
    const nonAscii = chunks.flatMap((chunk) => {
      const found = /[^\t\n\r -~]/.exec(readFileSync(join(ROOT, chunk), 'utf8'));
      return found
        ? [`${chunk}: ${JSON.stringify(found.input.slice(Math.max(0, found.index - 40), found.index + 10))}`]
        : [];
    });
    expect(nonAscii).toEqual([]);
  });

  it('serves the routes that read files beside their sources, with the migrations applied', async () => {
    const get = async (path: string) => {
      const response = await fetch(`${server.url}${path}`);
      return {
        status: response.status,
        type: response.headers.get('content-type'),
        text: await response.text(),
      };
    };
    expect((await get('/ready')).status).toBe(200);
    const document = await get('/openapi.json');
    expect(document.status).toBe(200);
    expect(JSON.parse(document.text).paths['/health']).toBeDefined();
    for (const [path, type] of [
      ['/docs', 'text/html'],
      ['/docs/assets/swagger-ui.css', 'text/css'],
      ['/admin/static/admin.js', 'text/javascript'],
      ['/admin/leads', 'text/html'],
      ['/api/analytics/script.js', 'text/javascript'],
      ['/assets/prototype-preview.js', 'text/javascript'],
      ['/assets/prototype-preview.css', 'text/css'],
    ] as const) {
      const answer = await get(path);
      expect(answer.status, path).toBe(200);
      expect(answer.type, path).toContain(type);
      expect(answer.text.length, path).toBeGreaterThan(50);
    }
  });

  it('answers with the offline engine and classifier, and looks up countries', async () => {
    const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
    const plan = await post('/api/ai/recommend-plan', { message: 'We need a booking website for our hotel' });
    expect(plan.status).toBe(200);
    expect(((await plan.json()) as { recommendedPath: string }).recommendedPath).toBeTruthy();
    const lead = await post('/api/leads', leadBody({ prototype: null }), { 'x-chat-api-key': 'chat-key' });
    expect(lead.status).toBe(200);
    const { leadId } = (await lead.json()) as { leadId: string };
    let classifiedBy: unknown = null;
    for (let i = 0; i < 100 && !classifiedBy; i++) {
      const view = (await (await fetch(`${server.url}/api/leads/${leadId}`)).json()) as {
        lead?: { classifiedBy?: unknown };
      };
      classifiedBy = view.lead?.classifiedBy;
      if (!classifiedBy) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(classifiedBy).toBeTruthy();
    const track = await fetch(`${server.url}/api/analytics/track`, {
      method: 'POST',
      headers: {
        'content-type': 'text/plain;charset=UTF-8',
        'user-agent':
          'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36',
      },
      body: JSON.stringify({ type: 'page_view', page: 'https://agency.example/pricing' }),
    });
    expect(track.status).toBe(202);
    expect(server.output.filter((line) => /"level":(50|60)/.test(line))).toEqual([]);
  });

  it('analyses a page through the safe fetcher (its packages loaded on first use from the bundle)', async () => {
    const site = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(
        '<!doctype html><html lang="en"><head><title>Bakery in Leeds</title></head><body><h1>Cakes</h1></body></html>',
      );
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = site.address() as AddressInfo;
      const response = await fetch(`${server.url}/api/seo/analyze`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url: `http://127.0.0.1:${port}/` }),
      });
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ success: true });
    } finally {
      site.close();
    }
    expect(server.output.filter((line) => /"level":(50|60)/.test(line))).toEqual([]);
  });
});
