import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'src/**/*.test.ts',
      'test/**/*.test.ts',
      'bench/**/*.test.ts',
      'scripts/**/*.test.ts',
      'deploy/**/*.test.ts',
    ],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Each file gets its own database; files run in parallel on the two cores.
    pool: 'forks',
    fileParallelism: true,
  },
});
