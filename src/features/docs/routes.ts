import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Hono } from 'hono';
import type { AppEnv } from '../../http/env.ts';
import { ApiError } from '../../http/errors.ts';

const swaggerDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
};

const DOCS_HTML = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>API reference</title>
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/assets/init.js"></script>
</body>
</html>`;

const INIT_JS = `window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#swagger-ui', deepLinking: true });`;

/** `/docs`: Swagger UI served from the installed package (no CDN, works offline), no inline script. */
export function docsRoutes() {
  const loaded = new Map<string, Buffer>();
  return new Hono<AppEnv>()
    .get('/docs', (c) => {
      // Never framed: a page of forms that send requests must not sit under another site's clicks.
      c.header(
        'Content-Security-Policy',
        "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'",
      );
      c.header('X-Frame-Options', 'DENY');
      return c.html(DOCS_HTML);
    })
    .get('/docs/assets/init.js', (c) =>
      c.body(INIT_JS, 200, { 'Content-Type': 'text/javascript; charset=utf-8' }),
    )
    .get('/docs/assets/:file{[a-z.-]+}', async (c) => {
      const file = c.req.param('file');
      const type = ASSETS[file];
      if (!type) throw new ApiError('NOT_FOUND', 'No such asset.');
      let content = loaded.get(file);
      if (!content) {
        content = await readFile(join(swaggerDir, file));
        loaded.set(file, content);
      }
      return c.body(new Uint8Array(content), 200, {
        'Content-Type': type,
        'Cache-Control': 'public, max-age=86400',
      });
    });
}
