import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LOADED_ON_FIRST_USE } from './support/loaded-on-first-use.ts';
import { spawnServer } from './support/process.ts';

const folder = mkdtempSync(join(tmpdir(), 'startup-imports-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('start-up (SQLite, no outside service configured)', () => {
  it('answers /health without loading what only some requests need', async () => {
    const server = await spawnServer({ DATABASE_URL: `sqlite:${join(folder, 'app.db')}` }, 15_000, {
      nodeArgs: ['--import', './test/support/record-imports.ts'],
    });
    try {
      expect((await fetch(`${server.url}/health`)).status).toBe(200);
    } finally {
      expect(await server.stop()).toBe(0);
    }
    const loaded = server.output.filter((line) => line.startsWith('resolved '));
    // The recording works: the database layer is loaded at start-up.
    expect(loaded.some((line) => line.includes('node_modules/kysely/'))).toBe(true);
    expect(LOADED_ON_FIRST_USE.filter((part) => loaded.some((line) => line.includes(part)))).toEqual([]);
  });
});
