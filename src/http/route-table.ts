/**
 * Which methods each known path answers, built once from the app's registered routes. It lets the
 * 404 handler tell "no such path" from "wrong method" (405 with `Allow`) and lets CORS preflights
 * answer with the path's real methods.
 */
export class RouteTable {
  readonly #entries: { pattern: RegExp; methods: Set<string> }[] = [];

  constructor(routes: readonly { method: string; path: string }[]) {
    const byPath = new Map<string, Set<string>>();
    for (const route of routes) {
      if (route.method === 'ALL' || route.path.includes('*')) continue; // middleware, not endpoints
      const methods = byPath.get(route.path) ?? new Set<string>();
      methods.add(route.method.toUpperCase());
      byPath.set(route.path, methods);
    }
    for (const [path, methods] of byPath) this.#entries.push({ pattern: compile(path), methods });
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
}

function compile(path: string): RegExp {
  const source = path
    .split('/')
    .map((segment) => {
      const param = /^:\w+(\{(.+)\})?(\?)?$/.exec(segment);
      if (param) return param[2] ? `(?:${param[2]})` : '[^/]+';
      return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  return new RegExp(`^${source}/?$`);
}
