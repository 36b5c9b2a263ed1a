import { readFile } from 'node:fs/promises';
import { createRouter } from '../../http/openapi.ts';
import type { PrototypePorts } from './context.ts';
import { PREVIEW_SCRIPT_PATH, PREVIEW_STYLE_PATH } from './preview.ts';
import { generationViews } from './views/generate.ts';
import { pageViews } from './views/pages.ts';
import { streamViews } from './views/stream.ts';

/**
 * The prototype routes: the preview page's assets here, each view's routes in views/ (mounted in the
 * order /openapi.json lists them).
 */
export function prototypeRoutes(ports: PrototypePorts) {
  const assets = new Map<string, Promise<string>>();
  const asset = (file: string) => {
    let text = assets.get(file);
    if (!text) {
      text = readFile(new URL(`./assets/${file}`, import.meta.url), 'utf8');
      assets.set(file, text);
    }
    return text;
  };
  const router = createRouter();
  router.get(PREVIEW_SCRIPT_PATH, async (c) => {
    c.header('Cache-Control', 'public, max-age=300');
    return c.body(await asset('preview.js'), 200, { 'Content-Type': 'text/javascript; charset=utf-8' });
  });
  router.get(PREVIEW_STYLE_PATH, async (c) => {
    c.header('Cache-Control', 'public, max-age=300');
    return c.body(await asset('preview.css'), 200, { 'Content-Type': 'text/css; charset=utf-8' });
  });
  return router
    .route('/', generationViews(ports))
    .route('/', streamViews(ports))
    .route('/', pageViews(ports));
}
