/**
 * The production image, read from the Dockerfile and .dockerignore (Docker cannot run here): Node pinned
 * to the lockfile, `engines` true to what runs, Chromium behind a build argument, and nothing of the
 * tests in it.
 */
import { execFile, execFileSync } from 'node:child_process';
import { builtinModules } from 'node:module';
import { dirname, join, normalize } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { OUT_DIR } from '../scripts/build-server.ts';
import { dockerfileStages, dockerignore, execForm, imageFiles, ROOT, read } from './deploy-files.ts';

interface LockPackage {
  version: string;
  dev?: boolean;
  devOptional?: boolean;
  engines?: { node?: string };
}
const lock = JSON.parse(read('package-lock.json')) as { packages: Record<string, LockPackage> };
const pkg = JSON.parse(read('package.json')) as {
  engines: { node: string };
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const LOCKED_NODE = lock.packages['node_modules/node']!.version;

/**
 * Node features the service needs and the releases that brought them without a flag, per release line
 * (from Node's changelogs). Type stripping: ERR_UNKNOWN_FILE_EXTENSION before; node:sqlite needs
 * --experimental-sqlite before 22.13; `backup()` is the online backup of `npm run db:backup`;
 * `StatementSync.columns()` tells reading statements in src/db/node-sqlite-dialect.ts.
 */
const NODE_FEATURES: Record<string, string> = {
  'type stripping by default': '^22.18.0 || >=23.6.0',
  'node:sqlite without a flag': '^22.13.0 || >=23.4.0',
  'node:sqlite backup()': '^22.16.0 || >=23.8.0',
  'StatementSync.columns()': '^22.16.0 || >=23.11.0',
};

/** The lowest version of each alternative of a range (`^22.19.0 || >=24` → 22.19.0, 24.0.0). */
function lowestVersions(range: string): string[] {
  return new semver.Range(range).set.map(
    (comparators) => semver.minVersion(comparators.map((c) => c.value).join(' '))!.version,
  );
}

describe('Node', () => {
  it("is the lockfile's exact version in package.json and in every FROM line", () => {
    expect(pkg.devDependencies.node).toBe(LOCKED_NODE);
    const froms = dockerfileStages().map((stage) => stage.from);
    expect(froms.length).toBeGreaterThan(0);
    for (const from of froms)
      expect(from).toMatch(new RegExp(`^node:${LOCKED_NODE.replaceAll('.', '\\.')}-`));
  });

  it('engines admits the locked version, and its lowest versions have every feature and satisfy every runtime dependency', () => {
    const range = pkg.engines.node;
    expect(semver.satisfies(LOCKED_NODE, range), `${LOCKED_NODE} in ${range}`).toBe(true);
    const lowest = lowestVersions(range);
    const runtime = Object.entries(lock.packages).filter(
      ([path, entry]) => path !== '' && !entry.dev && !entry.devOptional && entry.engines?.node,
    );
    expect(runtime.length).toBeGreaterThan(10);
    const unmet: string[] = [];
    for (const version of lowest) {
      for (const [feature, since] of Object.entries(NODE_FEATURES)) {
        if (!semver.satisfies(version, since)) unmet.push(`${version}: ${feature} needs ${since}`);
      }
      for (const [path, entry] of runtime) {
        if (!semver.satisfies(version, entry.engines!.node!)) {
          unmet.push(`${version}: ${path.replace(/^.*node_modules\//, '')} needs ${entry.engines!.node}`);
        }
      }
    }
    expect(unmet).toEqual([]);
  });
});

describe('the Chromium build argument', () => {
  const runtime = dockerfileStages().at(-1)!;
  const install = runtime.instructions.find(
    (i) => i.keyword === 'RUN' && i.args.includes('apt-get install'),
  )!;

  /** Runs the install step with apt-get and rm only echoed, and no PATH: nothing outside the shell runs. */
  function installStep(withChromium: string) {
    const script = install.args.replace(/\bapt-get /g, 'echo apt-get ').replace(/\brm -rf /g, 'echo rm -rf ');
    return new Promise<{ code: number; stdout: string }>((resolve) => {
      execFile(
        '/bin/sh',
        ['-c', script],
        { env: { WITH_CHROMIUM: withChromium, PATH: '/nonexistent' } },
        (e, out) => resolve({ code: e ? Number(e.code) : 0, stdout: out }),
      );
    });
  }

  it('is on by default, documented, and off installs no browser', async () => {
    expect(runtime.instructions).toContainEqual({ keyword: 'ARG', args: 'WITH_CHROMIUM=true' });
    expect(read('Dockerfile')).toMatch(/WITH_CHROMIUM=false/);
    expect(read('README.md')).toMatch(/WITH_CHROMIUM=false/);
    const on = await installStep('true');
    expect(on.code).toBe(0);
    expect(on.stdout).toMatch(/^apt-get install .*\btini\b.*\bchromium\b/m);
    const off = await installStep('false');
    expect(off.code).toBe(0);
    expect(off.stdout).toMatch(/^apt-get install .*\btini\b/m);
    expect(off.stdout).not.toContain('chromium');
    expect((await installStep('yes')).code).not.toBe(0);
  });
});

describe('the files in the image', () => {
  const checkout = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
    encoding: 'utf8',
  })
    .split('\n')
    .filter(Boolean);
  const files = imageFiles(checkout);
  const inImage = new Set(files);
  const TEST_CODE =
    /(\.test|\.spec)\.ts$|(^|\/)(test|testing|fixtures|__fixtures__|test-support)(\/|\.ts$)|stand-in/;

  it('hold the service, its commands and its migrations', () => {
    const runtime = dockerfileStages().at(-1)!;
    const commands = runtime.instructions
      .filter((i) => i.keyword === 'CMD' || i.keyword === 'HEALTHCHECK')
      .map(
        (i) =>
          execForm(i)
            .slice(1)
            .find((arg) => !arg.startsWith('-'))!,
      );
    const migrations = checkout.filter((f) => /^src\/db\/migrations\/.+\.ts$/.test(f));
    expect(migrations.length).toBeGreaterThan(0);
    for (const file of ['package.json', 'package-lock.json', 'scripts/db-migrate.ts', 'scripts/db-backup.ts'])
      expect(inImage, file).toContain(file);
    // The server's bundle is built in the image (scripts/build-server.ts), from files the image holds.
    const bundled = commands.filter((file) => file.startsWith(`${OUT_DIR}/`));
    if (bundled.length > 0) {
      expect(runtime.instructions).toContainEqual(
        expect.objectContaining({ keyword: 'RUN', args: 'node scripts/build-server.ts' }),
      );
      expect(inImage).toContain('scripts/build-server.ts');
      expect(inImage).toContain('src/main.js');
    }
    for (const file of [...commands.filter((file) => !bundled.includes(file)), ...migrations])
      expect(inImage, file).toContain(file);
  });

  it("run the server as package.json's start script does (bundle and Node options)", () => {
    const cmd = dockerfileStages()
      .at(-1)!
      .instructions.filter((i) => i.keyword === 'CMD')
      .at(-1)!;
    expect(execForm(cmd).join(' ')).toBe(pkg.scripts.start);
  });

  it('hold no tests, test support, stand-ins or fixtures', () => {
    expect(files.filter((file) => TEST_CODE.test(file))).toEqual([]);
  });

  it('.dockerignore keeps out test code wherever it is put', () => {
    const ignored = dockerignore();
    const testCode = [
      'src/features/leads/leads.test.ts',
      'scripts/db-commands.test.ts',
      'src/testing/process.ts',
      'src/testing/fixtures/queue-worker-process.ts',
      'test/e2e/support.ts',
      'test/support/stand-in.ts',
      'src/features/admin/test-support.ts',
      'src/features/admin/test-support/seed.ts',
      'src/integrations/crm/pipedrive-stand-in.ts',
      'src/integrations/sales-agent/stand-in-agent.ts',
      'src/integrations/pagespeed/fixtures/psi-response.json',
    ];
    expect(testCode.filter((file) => !ignored(file))).toEqual([]);
    expect(['src/main.js', 'src/features/leads/routes.ts', 'scripts/healthcheck.ts'].filter(ignored)).toEqual(
      [],
    );
  });

  it('import only each other, Node and production dependencies', () => {
    const builtins = new Set(builtinModules);
    const broken: string[] = [];
    for (const file of files.filter((f) => f.endsWith('.ts'))) {
      const source = read(file);
      // Whole `import type` statements are erased by type stripping; every other import is loaded.
      const specifiers = [
        ...source.matchAll(/^\s*(?:import|export)\s+(?!type\s)(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm),
        ...source.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g),
        ...source.matchAll(/\bcreateRequire\([^)]*\)\(\s*['"]([^'"]+)['"]\s*\)/g),
      ].map((m) => m[1]!);
      for (const specifier of specifiers) {
        if (specifier.startsWith('.')) {
          const target = normalize(join(dirname(file), specifier));
          if (!inImage.has(target)) broken.push(`${file} → ${specifier} (not in the image)`);
        } else if (!specifier.startsWith('node:') && !builtins.has(specifier)) {
          const name = specifier
            .split('/')
            .slice(0, specifier.startsWith('@') ? 2 : 1)
            .join('/');
          if (!(name in pkg.dependencies))
            broken.push(`${file} → ${specifier} (not a production dependency)`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it('come with production dependencies only', () => {
    const deps = dockerfileStages().find((stage) => stage.name === 'deps')!;
    expect(deps.instructions).toContainEqual(
      expect.objectContaining({ keyword: 'RUN', args: expect.stringMatching(/npm ci .*--omit=dev/) }),
    );
  });
});
