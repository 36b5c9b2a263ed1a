import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from './support/test-app.ts';

/** The live `/openapi.json` through the tools its users run: Redocly's linter and a generated client. */
const ROOT = join(import.meta.dirname, '..');
const folder = mkdtempSync(join(tmpdir(), 'openapi-tools-'));
let ctx: TestContext;
let source: string;

beforeAll(async () => {
  ctx = await createTestApp({ env: { PUBLIC_BASE_URL: 'https://api.agency.test' } });
  source = await (await ctx.app.request('/openapi.json')).text();
});
afterAll(async () => {
  await ctx.close();
  rmSync(folder, { recursive: true, force: true });
});

/** Runs a Node script of the checkout's tools with this Node; resolves with its exit code and output. */
function run(args: string[]) {
  return new Promise<{ code: number; output: string }>((resolve) => {
    execFile(process.execPath, args, { cwd: ROOT }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, output: stdout + stderr }),
    );
  });
}

describe('Redocly lint, recommended rules', () => {
  it('finds no error', async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source, absoluteRef: 'openapi.json', config });
    const errors = problems
      .filter((problem) => problem.severity === 'error')
      .map((problem) => `${problem.ruleId} at ${problem.location[0]?.pointer}: ${problem.message}`);
    expect(errors).toEqual([]);
  });
});

/**
 * Typed calls against the generated types: they must compile, and each `@ts-expect-error` must meet
 * an error (tsc reports an unused one), so types that collapse to `any` or `never` fail too.
 */
const CALLS = `
import createClient from 'openapi-fetch';
import type { components, operations, paths } from './api';

const client = createClient<paths>({ baseUrl: 'https://api.agency.test' });

export async function calls() {
  const contact = await client.POST('/api/contact', {
    body: { name: 'Ana', email: 'ana@example.com', subject: 'A site', message: 'Hello' },
  });
  if (contact.error) {
    // 400, 415 and 429 answer the backend envelope.
    const requestId: string = contact.error.error.requestId;
    const code: components['schemas']['ErrorEnvelope']['error']['code'] = contact.error.error.code;
    void requestId;
    void code;
  } else if (typeof contact.data === 'object') {
    // 201 to a JSON client (a browser's form post gets the thank-you page, a string).
    const id: string = contact.data.id;
    void id;
  }

  const lead = await client.GET('/api/leads/{id}', { params: { path: { id: 'lead_1' } } });
  if (lead.error) {
    const message: string = lead.error.error.message;
    void message;
  }

  const plan = await client.POST('/api/ai/recommend-plan', { body: { message: 'A shop' } });
  if (plan.error) {
    const code: components['schemas']['AiError']['error']['code'] = plan.error.error.code;
    // @ts-expect-error the AI routes answer their own envelope, with lower-case codes
    const backend: 'VALIDATION_ERROR' = plan.error.error.code;
    void code;
    void backend;
  }

  const leads = await client.GET('/admin/api/leads', { headers: { 'X-Admin-Api-Key': 'secret' } });
  if (leads.error) {
    const requestId: string = leads.error.error.requestId;
    void requestId;
  }

  // @ts-expect-error the body lacks the required fields
  await client.POST('/api/contact', { body: { name: 'Ana' } });
  // @ts-expect-error the path parameter is required
  await client.GET('/api/leads/{id}', {});
  // @ts-expect-error no such path
  await client.GET('/api/nothing-here');
}

// Operations by their ids, and the documented response headers.
type CreateLead = operations['createLead'];
type Preview = operations['getLeadPreview'];
const requestId: paths['/api/contact']['post']['responses'][201]['headers']['X-Request-Id'] = 'id';
const retryAfter: operations['submitContactForm']['responses'][429]['headers']['Retry-After'] = 30;
export type { CreateLead, Preview };
export { requestId, retryAfter };
`;

describe('a client generated with openapi-typescript', () => {
  it('type-checks typed calls through openapi-fetch', async () => {
    writeFileSync(join(folder, 'openapi.json'), source);
    const generate = await run([
      // openapi-typescript prints its types with TypeScript's compiler API (see the hook's comment).
      '--import',
      './scripts/typescript6-for-tools.ts',
      'node_modules/openapi-typescript/bin/cli.js',
      join(folder, 'openapi.json'),
      '--output',
      join(folder, 'api.ts'),
    ]);
    expect(generate.code, generate.output).toBe(0);

    writeFileSync(join(folder, 'calls.ts'), CALLS);
    writeFileSync(
      join(folder, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          target: 'es2022',
          lib: ['es2022', 'dom'],
          module: 'preserve',
          moduleResolution: 'bundler',
          types: [],
          paths: { 'openapi-fetch': [join(ROOT, 'node_modules/openapi-fetch/dist/index.d.mts')] },
        },
        files: ['calls.ts'],
      }),
    );
    const check = await run(['node_modules/typescript/bin/tsc', '--project', join(folder, 'tsconfig.json')]);
    expect(check.output).toBe('');
    expect(check.code).toBe(0);
  });
});
