import fresh from 'fresh';

/**
 * Whether a GET whose response would carry `etag` can be answered 304 Not Modified: its
 * `If-None-Match` names that tag under RFC 9110's weak comparison (`W/"x"` matches `"x"`: a CDN that
 * compressed the body marks it weak), as one of a list, or `*`. `fresh` (the jshttp package Express
 * uses) compares them. Only that header is given to it: it would also refuse every request saying
 * `Cache-Control: no-cache`, which fetch() adds to any request carrying `If-None-Match` (the Fetch
 * standard), while an origin server answers a conditional request on its validators (RFC 9110 13.1.2).
 */
export function notModified(request: Request, etag: string): boolean {
  return fresh({ 'if-none-match': request.headers.get('if-none-match') ?? undefined }, { etag });
}
