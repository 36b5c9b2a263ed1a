/**
 * The container's health check (Dockerfile HEALTHCHECK): exits 0 when GET /ready on this instance
 * answers 200 within 3 s (it serves, is not shutting down, and its database answers with the
 * migrations applied), 1 otherwise. The multi-instance tests run it the same way.
 */
// An empty PORT is unset, as the server reads it (.env.example leaves optional values empty).
const port = process.env.PORT || '8787';
try {
  const response = await fetch(`http://127.0.0.1:${port}/ready`, { signal: AbortSignal.timeout(3000) });
  process.exit(response.ok ? 0 : 1);
} catch {
  process.exit(1);
}
