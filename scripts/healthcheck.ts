/**
 * The container's health check (Dockerfile HEALTHCHECK): exits 0 when GET /health on this instance
 * answers 200 within 3 s, 1 otherwise. The multi-instance test runs it the same way.
 */
const port = process.env.PORT ?? '8787';
try {
  const response = await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(3000) });
  process.exit(response.ok ? 0 : 1);
} catch {
  process.exit(1);
}
