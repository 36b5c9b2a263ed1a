/**
 * `cp .env.example .env && docker compose up --build` must give healthy instances. Docker cannot run
 * here, so the server is started as a real process with exactly the environment an app container of
 * compose.yaml gets (the image's ENV, then `.env` as copied from `.env.example`, then the service's
 * `environment`), only DATABASE_URL pointed at a test database and PORT at a free port, and must become
 * ready and pass the image's HEALTHCHECK command.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { envSchema } from '../src/config.ts';
import { createTestDatabase, testEngines } from '../test/support/database.ts';
import { spawnServer } from '../test/support/process.ts';
import {
  appServices,
  composeFile,
  composeVariables,
  dockerfileStages,
  envExample,
  envExampleNames,
  execForm,
  imageEnvironment,
  interpolate,
  ROOT,
  read,
  serviceEnvironment,
} from './deploy-files.ts';

/** What a load balancer asks before sending traffic. */
const READINESS_PATH = '/ready';

/** The secrets an operator makes up (the others come from a provider), each with how to generate it. */
const GENERATED_SECRETS = [
  'POSTGRES_PASSWORD',
  'CHAT_API_SECRET',
  'ADMIN_API_SECRET',
  'CACHE_API_SECRET',
  'METRICS_API_SECRET',
];

const folder = mkdtempSync(join(tmpdir(), 'compose-test-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** The environment of compose.yaml's app service `name` with `.env` copied from `.env.example`. */
function containerEnvironment(name: string): Record<string, string> {
  const service = composeFile().services[name]!;
  const dotEnv = envExample();
  return { ...imageEnvironment(), ...dotEnv, ...serviceEnvironment(service, dotEnv) };
}

function runHealthcheck(env: Record<string, string>): Promise<number> {
  const healthcheck = dockerfileStages()
    .at(-1)!
    .instructions.find((i) => i.keyword === 'HEALTHCHECK')!;
  const [command, ...args] = execForm(healthcheck);
  expect(command).toBe('node');
  return new Promise((resolve) => {
    execFile(process.execPath, args, { cwd: ROOT, env: { PATH: process.env.PATH ?? '', ...env } }, (error) =>
      resolve(error ? Number(error.code ?? 1) : 0),
    );
  });
}

describe('.env.example', () => {
  it('names every variable of the configuration schema, and nothing the service or compose does not read', () => {
    const names = envExampleNames();
    const known = new Set([...Object.keys(envSchema.shape), ...composeVariables()]);
    expect(
      Object.keys(envSchema.shape).filter((name) => !names.includes(name)),
      'add these to .env.example',
    ).toEqual([]);
    expect(
      names.filter((name) => !known.has(name)),
      'neither src/config.ts nor compose.yaml reads these',
    ).toEqual([]);
    expect(
      composeVariables().filter((name) => !names.includes(name)),
      'compose.yaml interpolates these',
    ).toEqual([]);
  });

  it('says how to generate each secret an operator makes up', () => {
    const blocks = read('.env.example').split(/\n\s*\n/);
    for (const secret of GENERATED_SECRETS) {
      const block = blocks.find((b) => new RegExp(`^#?\\s*${secret}=`, 'm').test(b));
      expect(block, secret).toMatch(/openssl rand -hex 32/);
    }
  });
});

describe('compose.yaml', () => {
  it('runs at least two app services, identical, each reading the required .env', () => {
    const apps = appServices();
    expect(apps.length).toBeGreaterThanOrEqual(2);
    for (const [name, service] of apps) {
      expect(service, name).toEqual(apps[0]![1]);
      const envFiles = [service.env_file ?? []].flat();
      expect(envFiles, name).toContainEqual(expect.objectContaining({ path: '.env', required: true }));
    }
  });

  it('refuses to start without .env, naming the file to copy', () => {
    const [, service] = appServices()[0]!;
    expect(() => serviceEnvironment(service, {})).toThrow(/cp \.env\.example \.env/);
    expect(() => interpolate(read('compose.yaml'), {})).toThrow(/POSTGRES_PASSWORD/);
  });
});

describe.each(await testEngines())('the container environment on %s', (engine) => {
  it('health-checks port 8787 when PORT is empty in .env, as the server reads it', async () => {
    // `.env` overrides the image's PORT=8787; an empty value is unset for the server (config.ts).
    expect(envSchema.shape.PORT.parse('')).toBe(8787);
    const stub = createServer((request, response) => {
      response.writeHead(request.url === READINESS_PATH ? 200 : 404).end();
    });
    await new Promise<void>((resolve, reject) =>
      stub.once('error', reject).listen(8787, '127.0.0.1', resolve),
    );
    try {
      expect(await runHealthcheck({ PORT: '' })).toBe(0);
    } finally {
      await new Promise((resolve) => stub.close(resolve));
    }
  });

  it('starts the server, which becomes ready and passes the image health check', async () => {
    const [name] = appServices()[0]!;
    const database =
      engine === 'sqlite'
        ? { url: `sqlite:${join(folder, 'app.db')}`, dispose: async () => {} }
        : await createTestDatabase('postgres');
    const env = { ...containerEnvironment(name), DATABASE_URL: database.url, PORT: '0' };
    expect(env).toMatchObject({ NODE_ENV: 'production', TRUST_PROXY: 'xff', HOST: '0.0.0.0' });
    const server = await spawnServer(env);
    try {
      const response = await fetch(`${server.url}${READINESS_PATH}`);
      expect(response.status).toBe(200);
      // nginx must close an idle upstream connection before the app does (deploy/nginx.conf).
      const appIdleSeconds = Number(/timeout=(\d+)/.exec(response.headers.get('keep-alive') ?? '')?.[1]);
      const upstream = /upstream app \{[^}]*\}/.exec(read('deploy/nginx.conf'))![0];
      const nginxIdleSeconds = Number(/keepalive_timeout (\d+)s;/.exec(upstream)?.[1]);
      expect(nginxIdleSeconds).toBeLessThan(appIdleSeconds);
      expect(await runHealthcheck({ ...env, PORT: String(server.port) })).toBe(0);
    } finally {
      expect(await server.stop()).toBe(0);
      await database.dispose();
    }
  });
});
