/**
 * What the app's registered routes answer, built once from them: which methods each known path
 * answers (so the 404 handler can tell "no such path" from "wrong method", 405 with `Allow`, and CORS
 * preflights answer with the path's real methods), and which route pattern a request matched (the
 * `route` of the log line and the metrics label).
 */
export class RouteTable {
  readonly #entries: { pattern: RegExp; path: string; methods: Set<string> }[] = [];
  /** Parameterless paths, looked up directly (the stored pattern string is returned, not the caller's). */
  readonly #staticRoutes = new Map<string, { path: string; methods: Set<string> }>();

  constructor(routes: readonly { method: string; path: string }[]) {
    const byPath = new Map<string, Set<string>>();
    for (const route of routes) {
      if (route.method === 'ALL' || route.path.includes('*')) continue; // middleware, not endpoints
      const methods = byPath.get(route.path) ?? new Set<string>();
      methods.add(route.method.toUpperCase());
      byPath.set(route.path, methods);
    }
    for (const [path, methods] of byPath) {
      // Exactly as the router matches (strict): `/health/` is another path, so 404, not 405.
      this.#entries.push({ pattern: new RegExp(`^${patternSource(path)}$`), path, methods });
      if (!path.includes(':')) this.#staticRoutes.set(path, { path, methods });
    }
  }

  /**
   * The methods the path answers (plus OPTIONS), or null when no route has that path. HEAD is still
   * answered for GET routes (Hono serves it) but not advertised: ai-api.md fixes `Allow: GET, OPTIONS`.
   */
  allowedMethods(path: string): string[] | null {
    const methods = new Set<string>();
    for (const entry of this.#entries) {
      if (entry.pattern.test(path)) for (const m of entry.methods) methods.add(m);
    }
    if (methods.size === 0) return null;
    const order = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];
    return [...[...methods].sort((a, b) => order.indexOf(a) - order.indexOf(b)), 'OPTIONS'];
  }

  /**
   * The pattern of the route that answers `method` on `path` (`/api/leads/:id`), or null when none
   * does (404, 405, preflights). HEAD is answered by the GET route.
   */
  routeOf(method: string, path: string): string | null {
    const routeMethod = method === 'HEAD' ? 'GET' : method;
    const known = this.#staticRoutes.get(path);
    if (known?.methods.has(routeMethod)) return known.path;
    for (const entry of this.#entries) {
      if (entry.methods.has(routeMethod) && entry.pattern.test(path)) return entry.path;
    }
    return null;
  }
}

function patternSource(path: string): string {
  return path
    .split('/')
    .map((segment) => {
      const param = /^:\w+(\{(.+)\})?(\?)?$/.exec(segment);
      if (param) return param[2] ? `(?:${param[2]})` : '[^/]+';
      return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
}
