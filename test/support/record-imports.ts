/**
 * Loaded with `--import` into a server process (test/startup-imports.test.ts): records every module
 * the process resolves, through Node's documented module hooks, and writes their URLs one a line to
 * RECORD_IMPORTS_FILE when the process exits.
 */
import { writeFileSync } from 'node:fs';
import { registerHooks } from 'node:module';

const file = process.env.RECORD_IMPORTS_FILE;
if (!file) throw new Error('RECORD_IMPORTS_FILE is not set');
const urls = new Set<string>();

registerHooks({
  resolve(specifier, context, nextResolve) {
    const resolved = nextResolve(specifier, context);
    urls.add(resolved.url);
    return resolved;
  },
});
process.on('exit', () => writeFileSync(file, [...urls].join('\n')));
