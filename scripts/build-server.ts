/**
 * `npm run build` (and `npm start`, through `prestart`): bundles the server (`src/main.js` and all it
 * imports, packages included) with esbuild into `dist/`, which `npm start` and the container run.
 * Nothing is built when the bundle is newer than every file that went into it (`--force` builds
 * anyway). Tests and the other scripts run the sources, not the bundle.
 *
 * Why (README, "Start-up and idle memory"): a start loads ~850 modules from the sources, each resolved,
 * read, compiled and linked on its own; the bundle is a handful of files, so a start takes less CPU and
 * its module records, and the young generation they make V8 grow, take less memory. The code is the
 * same: what is imported on first use (`import()`) stays so, as separate files of the bundle, and Node's
 * compile cache (turned on by `src/main.js`, the bundle's entry) covers them.
 *
 * What changes in a bundle, and how it is kept the same:
 * - `import.meta.url` and `import.meta.dirname` in `src/` name the file they are written in (the
 *   admin's static files, the engine's model, swagger-ui-dist beside the docs route…): each is
 *   rewritten to the source file's place, relative to the bundle, so `src/` travels with `dist/` (the
 *   image copies both).
 * - Packages that read files beside their own code or load other code by path stay outside the
 *   bundle, loaded from node_modules when first used (EXTERNAL).
 * - CommonJS packages inside an ES module bundle get a `require` of their own (the banner).
 * - Stack traces name the bundle's lines; identifiers are not minified (a top-level name that two
 *   modules share is renamed in one, `Hono2`: see EXTERNAL), and `dist/*.js.map` maps each line to
 *   its source (`node --enable-source-maps` to use it).
 */
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Metafile, type Plugin } from 'esbuild';

const ROOT = join(import.meta.dirname, '..');

/** Where the bundle goes, relative to the project; its entry is `main.js`. */
export const OUT_DIR = 'dist';

/**
 * Packages left out of the bundle: lighthouse reads its locales and gatherers by path, `pg` is loaded
 * through `createRequire` only on PostgreSQL. The AI SDK (loaded only when a model is configured)
 * stays out too: inside the bundle two of its error classes collide with names of its own other
 * copy and would be renamed (`TypeValidationError2`), and a logged error's `type` is its class's
 * name. The bundle's other renamed functions and classes (where two modules' top-level names collide)
 * are no error classes; esbuild's `keepNames`, which would keep every name, costs ~3 MB and ~30 ms of
 * start-up. The `undici` package (CommonJS, imported with `await import()` on the safe fetcher's
 * first use) stays out as well: esbuild makes its chunk export only `default`, so the named imports
 * were undefined and every URL analysis failed in the bundle alone (scripts/build-server.test.ts).
 */
const EXTERNAL = ['lighthouse', 'lighthouse/*', 'pg', '@ai-sdk/*', 'undici'];

/** The build's own record of its inputs, read to tell whether the bundle is up to date. */
const META_FILE = 'meta.json';

/**
 * Rewrites `import.meta.url` / `import.meta.dirname` in the project's own files to the source file's
 * URL and folder, reached from the bundle file they end up in (every output file sits in OUT_DIR).
 */
function sourcePlaces(outDir: string): Plugin {
  return {
    name: 'source-places',
    setup(b) {
      b.onLoad({ filter: /\.(ts|js)$/ }, (args) => {
        if (!args.path.startsWith(join(ROOT, 'src/'))) return undefined;
        const text = readFileSync(args.path, 'utf8');
        if (!text.includes('import.meta.')) return undefined;
        const file = relative(outDir, args.path).split('\\').join('/');
        const folder = relative(outDir, dirname(args.path)).split('\\').join('/');
        const contents = text.replace(/\bimport\.meta\.(\w+)/g, (whole, property: string) => {
          if (property === 'url') return `new URL(${JSON.stringify(file)}, import.meta.url).href`;
          if (property === 'dirname') return `(import.meta.dirname + ${JSON.stringify(`/${folder}`)})`;
          if (property === 'filename') return `(import.meta.dirname + ${JSON.stringify(`/${file}`)})`;
          throw new Error(`${args.path}: ${whole} has no rewriting for the bundle (scripts/build-server.ts)`);
        });
        return { contents, loader: args.path.endsWith('.ts') ? 'ts' : 'js' };
      });
    },
  };
}

/** True when a bundle exists and no file that went into it (nor this script) changed since. */
function upToDate(outDir: string): boolean {
  let meta: Metafile;
  let built: number;
  try {
    meta = JSON.parse(readFileSync(join(outDir, META_FILE), 'utf8')) as Metafile;
    built = statSync(join(outDir, META_FILE)).mtimeMs;
  } catch {
    return false;
  }
  const inputs = [...Object.keys(meta.inputs), 'package-lock.json', 'scripts/build-server.ts'];
  try {
    return inputs.every((input) => statSync(join(ROOT, input)).mtimeMs <= built);
  } catch {
    return false; // an input is gone
  }
}

/**
 * Builds the bundle into `outDir` (default OUT_DIR under the project) unless it is up to date;
 * returns whether it built.
 */
export async function buildServer(options: { outDir?: string; force?: boolean } = {}): Promise<boolean> {
  const outDir = options.outDir ?? join(ROOT, OUT_DIR);
  if (!options.force && upToDate(outDir)) return false;
  rmSync(outDir, { recursive: true, force: true }); // chunks of an earlier build have other names
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: ['src/main.js'],
    outdir: outDir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node22.19',
    external: EXTERNAL,
    // Whitespace and syntax only: names stay, so stack traces and logs read as in the sources.
    minifyWhitespace: true,
    minifySyntax: true,
    sourcemap: 'linked',
    metafile: true,
    logLevel: 'warning',
    banner: {
      js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);",
    },
    write: true,
    plugins: [sourcePlaces(outDir)],
  });
  writeFileSync(join(outDir, META_FILE), JSON.stringify(result.metafile));
  return true;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const built = await buildServer({ force: process.argv.includes('--force') });
  console.log(built ? `built ${OUT_DIR}/main.js` : `${OUT_DIR}/main.js is up to date`);
}
