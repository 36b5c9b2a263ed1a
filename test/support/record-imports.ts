/**
 * `node --import ./test/support/record-imports.ts …`: writes `resolved <url>` to stderr for every
 * module the process resolves (imports, dynamic imports and requires), so that a test can tell which
 * modules a path of the service loads.
 */
import { writeSync } from 'node:fs';
import { registerHooks } from 'node:module';

registerHooks({
  resolve(specifier, context, nextResolve) {
    const resolved = nextResolve(specifier, context);
    writeSync(2, `resolved ${resolved.url}\n`);
    return resolved;
  },
});
