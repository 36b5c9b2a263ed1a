/**
 * The entry point (`npm start`, `node src/main.js`). Turns on Node's on-disk compile cache first, so
 * that a restart reuses the type-stripped and compiled modules of the last start instead of doing that
 * work again. The cache lives in NODE_COMPILE_CACHE or else the system's temporary folder; when it
 * cannot be written, Node just starts without it. Then `start.ts` runs: configuration → dependencies
 * → serve → graceful shutdown.
 *
 * Plain JavaScript on purpose: Node strips the types of a `.ts` entry before the entry can turn the
 * cache on, and stripping loads Node's TypeScript stripper (a WebAssembly module, ~20 MB resident).
 * With a `.js` entry a warm start never loads it: every `.ts` module comes stripped from the cache.
 */
import { enableCompileCache } from 'node:module';

enableCompileCache();
await import('./start.ts');
