import { type OutgoingHttpHeaders, ServerResponse } from 'node:http';

/** The headers the edge puts on every response: names in lower case, values ready to send. */
export type EdgeHeaders = Record<string, string>;

/**
 * The server's response class (Node's documented `ServerResponse` option of `createServer`): writes
 * the edge's headers (request id, `nosniff`, CORS) in the same `writeHead` call as the handler's own,
 * whatever built the response (a handler, an error handler, the adapter's own fallback, a stream).
 * Node documents that `write()`/`end()` without `writeHead()` call it with the implicit headers, so
 * every response goes through the override.
 *
 * Why not `c.header()`: any header set through Hono's context turns the response's headers into a
 * WHATWG `Headers` object, which @hono/node-server must then copy header by header into a plain
 * object; a handler's plain-object headers go straight to Node. Measured on `/health`: 5 µs of CPU
 * per request through `c.header()`, 2 µs here. In-process requests (`app.request()`, no Node
 * response) still get the same headers through `c.header()` (see `edge.ts`).
 */
export class EdgeServerResponse extends ServerResponse {
  edgeHeaders: EdgeHeaders | undefined;
  /** The request's path as the app routed it (for the answer to a request that never arrived). */
  routedPath: string | undefined;
  /**
   * The status the server's `clientError` handler sent on the connection while this request's body
   * was arriving (src/http/client-error.ts); the app logs and counts the request with it.
   */
  clientErrorStatus: number | undefined;

  override writeHead(
    statusCode: number,
    reasonOrHeaders?: string | OutgoingHttpHeaders | RawHeaders,
    maybeHeaders?: OutgoingHttpHeaders | RawHeaders,
  ): this {
    const edge = this.edgeHeaders;
    const reason = typeof reasonOrHeaders === 'string' ? reasonOrHeaders : undefined;
    const given = reason === undefined ? reasonOrHeaders : maybeHeaders;
    if (edge === undefined) {
      return reason === undefined
        ? super.writeHead(statusCode, given as OutgoingHttpHeaders)
        : super.writeHead(statusCode, reason, given as OutgoingHttpHeaders);
    }
    const headers = Array.isArray(given)
      ? this.#mergeRaw(given, edge)
      : this.#merge(given as OutgoingHttpHeaders | undefined, edge);
    return reason === undefined
      ? super.writeHead(statusCode, headers as OutgoingHttpHeaders)
      : super.writeHead(statusCode, reason, headers as OutgoingHttpHeaders);
  }

  /**
   * A copy of the handler's headers (handlers may pass one constant object for every response) with
   * each edge header the handler did not set, in any letter case, here or earlier through
   * `setHeader`; `Vary` is combined instead, so a handler's `Vary: Accept-Encoding` and the edge's
   * `Vary: Origin` both reach caches.
   */
  #merge(given: OutgoingHttpHeaders | undefined, edge: EdgeHeaders): OutgoingHttpHeaders {
    const headers: OutgoingHttpHeaders = { ...given };
    for (const name in edge) {
      const value = edge[name]!;
      const key = keyOf(headers, name);
      if (key !== undefined) {
        if (name === 'vary') headers[key] = `${String(headers[key])}, ${value}`;
        continue;
      }
      const earlier = this.getHeader(name);
      if (earlier === undefined) headers[name] = value;
      else if (name === 'vary') headers[name] = `${String(earlier)}, ${value}`;
    }
    return headers;
  }

  /** The same rules for headers given as a flat `[name, value, …]` array. */
  #mergeRaw(given: RawHeaders, edge: EdgeHeaders): RawHeaders {
    const headers = [...given];
    for (const name in edge) {
      const value = edge[name]!;
      let index = -1;
      for (let i = 0; i < headers.length; i += 2) {
        if (String(headers[i]).toLowerCase() === name) index = i;
      }
      if (index >= 0) {
        if (name === 'vary') headers[index + 1] = `${String(headers[index + 1])}, ${value}`;
        continue;
      }
      const earlier = this.getHeader(name);
      if (earlier === undefined) headers.push(name, value);
      else if (name === 'vary') headers.push(name, `${String(earlier)}, ${value}`);
    }
    return headers;
  }
}

type RawHeaders = OutgoingHttpHeaders[keyof OutgoingHttpHeaders][];

/** The key under which `headers` holds `name` (lower case), in whatever letter case it was set. */
function keyOf(headers: OutgoingHttpHeaders, name: string): string | undefined {
  if (headers[name] !== undefined) return name;
  for (const candidate in headers) {
    if (candidate.length === name.length && candidate.toLowerCase() === name) return candidate;
  }
  return undefined;
}
