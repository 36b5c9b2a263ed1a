import { describe, expect, it } from 'vitest';
import { createTestDatabase } from '../test/support/database.ts';
import { LogCapture, testConfig } from '../test/support/test-app.ts';
import { createDependencies } from './dependencies.ts';
import { createLogger } from './logger.ts';

describe('Dependencies.close', () => {
  it('returns within its bound even when the database never finishes closing (a hung connection)', async () => {
    const database = await createTestDatabase('sqlite');
    try {
      const logs = new LogCapture();
      const deps = await createDependencies(
        testConfig({ DATABASE_URL: database.url }),
        createLogger('info', logs.stream, [], {}),
        // A pool whose checked-out connection never answers: its end never comes.
        { database: { ...database.handle, close: () => new Promise<void>(() => {}) } },
      );
      await deps.close(50);
      expect(logs.lines).toContainEqual(
        expect.objectContaining({ msg: 'shutdown: the database did not close within the bound; leaving it' }),
      );
    } finally {
      await database.dispose();
    }
  });
});
