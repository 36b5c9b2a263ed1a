/**
 * The hostile-input suite's harness: a real server (in-process, over a socket) with every secret set
 * and local stand-ins for the outside services, the route list read from /openapi.json plus the
 * app's own route table, a sender that never trusts the answer, and the checks every answer must pass.
 */
import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import { Agent, FormData, request } from 'undici';
import type { Engine } from '../../src/db/database.ts';
import { engineOf } from '../../src/db/database.ts';
import { ERROR_STATUS } from '../../src/http/errors.ts';
import { type StandIn, sendJson, startStandIn } from '../support/stand-in.ts';
import { startTestServer, type TestContext } from '../support/test-app.ts';

export const SECRETS = {
  chat: 'fuzz-chat-secret-0123456789',
  admin: 'fuzz-admin-secret-0123456789',
  cache: 'fuzz-cache-secret-0123456789',
  metrics: 'fuzz-metrics-secret-0123456789',
} as const;

/** The header each protected area reads, and its right value. */
export const AUTH_HEADERS: Array<[prefix: string, header: string, value: string]> = [
  ['/api/leads', 'x-chat-api-key', SECRETS.chat],
  ['/api/chat', 'x-chat-api-key', SECRETS.chat],
  ['/admin/api', 'x-admin-api-key', SECRETS.admin],
  ['/api/posts/cache', 'x-cache-api-key', SECRETS.cache],
  ['/metrics', 'authorization', `Bearer ${SECRETS.metrics}`],
];

export interface Operation {
  method: string;
  /** OpenAPI-style template, `/api/leads/{id}`. */
  path: string;
  params: string[];
  query: string[];
  /** The JSON or multipart request body schema (resolved), when the route takes one. */
  body: { type: 'json' | 'multipart' | 'text'; schema: Schema } | null;
  documented: boolean;
}

export type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  example?: unknown;
  default?: unknown;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  $ref?: string;
  const?: unknown;
};

export interface FuzzServer extends TestContext {
  url: string;
  engine: Engine;
  operations: Operation[];
  standIns: StandIn[];
  agent: Agent;
}

const PSI_FIXTURE = readFileSync(new URL('../support/fixtures/psi-response.json', import.meta.url), 'utf8');

/** WordPress stand-in: lists for collections, an object for `/<collection>/<id>`. */
function wordpress(req: { url: string }, res: import('node:http').ServerResponse) {
  const path = new URL(req.url, 'http://x').pathname;
  if (/\/\d+$/.test(path)) {
    return sendJson(res, 200, {
      id: 1,
      slug: 'hello',
      title: { rendered: 'Hello' },
      content: { rendered: '<p>x</p>' },
    });
  }
  sendJson(res, 200, [], { 'x-wp-total': '0', 'x-wp-totalpages': '0' });
}

export async function startFuzzServer(engine: Engine): Promise<FuzzServer> {
  const wp = await startStandIn(wordpress);
  const psi = await startStandIn((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(PSI_FIXTURE);
  });
  const ctx = await startTestServer({
    engine,
    env: {
      TRUST_PROXY: 'xff',
      CHAT_API_SECRET: SECRETS.chat,
      ADMIN_API_SECRET: SECRETS.admin,
      CACHE_API_SECRET: SECRETS.cache,
      METRICS_API_SECRET: SECRETS.metrics,
      WORDPRESS_API_URL: `${wp.url}/wp-json/wp/v2`,
      PAGESPEED_API_KEY: 'fuzz-psi-key',
      PAGESPEED_API_URL: `${psi.url}/runPagespeed`,
      UPLOAD_TIMEOUT_MS: '5000',
    },
  });
  const agent = new Agent({ keepAliveTimeout: 2000, connections: 8 });
  const doc = (await (await fetch(`${ctx.url}/openapi.json`)).json()) as OpenApiDoc;
  return { ...ctx, engine, operations: operationsOf(doc, ctx.app.routes), standIns: [wp, psi], agent };
}

export async function stopFuzzServer(server: FuzzServer) {
  await server.agent.close();
  await server.close();
  for (const s of server.standIns) await s.close();
}

interface OpenApiDoc {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, Schema> };
}
interface OpenApiOperation {
  parameters?: Array<{ name: string; in: string; schema?: Schema }>;
  requestBody?: { content?: Record<string, { schema?: Schema }> };
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/**
 * Every route: the documented ones from /openapi.json, and the rest (the docs page and its assets,
 * the admin shell's static files, /openapi.json itself) from the app's route table.
 */
export function operationsOf(doc: OpenApiDoc, table: Array<{ method: string; path: string }>): Operation[] {
  const components = doc.components?.schemas ?? {};
  const resolve = (schema: Schema | undefined, depth = 0): Schema => {
    if (!schema || depth > 20) return {};
    if (schema.$ref) return resolve(components[schema.$ref.split('/').pop() ?? ''], depth + 1);
    const out: Schema = { ...schema };
    if (schema.properties) {
      out.properties = Object.fromEntries(
        Object.entries(schema.properties).map(([k, v]) => [k, resolve(v, depth + 1)]),
      );
    }
    if (schema.items) out.items = resolve(schema.items, depth + 1);
    for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
      if (schema[key]) out[key] = schema[key].map((s) => resolve(s, depth + 1));
    }
    return out;
  };
  const ops: Operation[] = [];
  const seen = new Set<string>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!METHODS.includes(method)) continue;
      const content = op.requestBody?.content ?? {};
      const bodyType = content['application/json']
        ? 'json'
        : content['multipart/form-data']
          ? 'multipart'
          : Object.keys(content).length > 0
            ? 'text'
            : null;
      const schema =
        content['application/json'] ?? content['multipart/form-data'] ?? Object.values(content)[0];
      ops.push({
        method: method.toUpperCase(),
        path,
        params: (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name),
        query: (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
        body: bodyType ? { type: bodyType, schema: resolve(schema?.schema) } : null,
        documented: true,
      });
      seen.add(`${method.toUpperCase()} ${path}`);
    }
  }
  for (const route of table) {
    if (!METHODS.includes(route.method.toLowerCase())) continue;
    // `/docs/assets/:file{[a-z.-]+}` → `/docs/assets/{file}`
    const path = route.path.replace(/:(\w+)(\{[^}]*\})?/g, '{$1}');
    if (path.includes('*') || seen.has(`${route.method} ${path}`)) continue;
    seen.add(`${route.method} ${path}`);
    ops.push({
      method: route.method,
      path,
      params: [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string),
      query: [],
      body: null,
      documented: false,
    });
  }
  return ops;
}

/** A valid-looking example of a schema (its own example first), the seed every mutation starts from. */
export function exampleOf(schema: Schema, depth = 0): unknown {
  if (schema.example !== undefined) return schema.example;
  if (schema.default !== undefined) return schema.default;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants?.length) return exampleOf(variants.find((v) => v.type !== 'null') ?? variants[0]!, depth + 1);
  if (schema.allOf?.length) return Object.assign({}, ...schema.allOf.map((s) => exampleOf(s, depth + 1)));
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (depth > 8) return null;
  switch (type) {
    case 'object':
      return Object.fromEntries(
        Object.entries(schema.properties ?? {}).map(([k, v]) => [k, exampleOf(v, depth + 1)]),
      );
    case 'array':
      return schema.items ? [exampleOf(schema.items, depth + 1)] : [];
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return true;
    case 'string':
      if (schema.format === 'email') return 'fuzz@example.com';
      if (schema.format === 'uri' || schema.format === 'url') return 'https://example.com/';
      return 'x'.repeat(Math.max(1, schema.minLength ?? 5));
    default:
      return schema.properties ? exampleOf({ ...schema, type: 'object' }, depth) : 'x';
  }
}

export interface SentRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer | string;
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  stream?: boolean;
}

const SSE_READ_MS = 5000;
const SSE_SETTLE_MS = 300;

/** Pages for people (not API answers): their errors are HTML pages, not the JSON envelope. */
const HTML_PAGES = [/^\/api\/leads\/[^/]+\/preview$/];

/**
 * A browser's post of a plain HTML form, whose errors are pages too: to the contact route any form
 * post not asking for JSON; to the ticket route one whose `Accept` also names `text/html` (a page
 * navigation; a script's upload keeps JSON). src/http/form-pages.ts.
 */
function isBrowserFormPost(req: SentRequest, pathname: string): boolean {
  const header = (name: string) =>
    Object.entries(req.headers).find(([key]) => key.toLowerCase() === name)?.[1] ?? '';
  // A FormData body gets its multipart Content-Type from the HTTP client, not from these headers.
  const contentType = req.body instanceof FormData ? 'multipart/form-data' : header('content-type');
  const formPost =
    req.method === 'POST' &&
    /^(application\/x-www-form-urlencoded|multipart\/form-data)\s*(;|$)/i.test(contentType.trim()) &&
    !/json/i.test(header('accept'));
  if (pathname === '/api/contact') return formPost;
  if (pathname === '/api/support/tickets') return formPost && /text\/html/i.test(header('accept'));
  return false;
}

/** Sends one request; an event stream is read up to its headers and then dropped. */
export async function send(server: FuzzServer, req: SentRequest): Promise<Answer> {
  const res = await request(`${server.url}${req.path}`, {
    method: req.method as 'GET',
    headers: req.headers,
    body: req.body,
    dispatcher: server.agent,
    headersTimeout: 60_000,
    bodyTimeout: 60_000,
  });
  if (!String(res.headers['content-type'] ?? '').includes('event-stream')) {
    return { status: res.statusCode, headers: res.headers, text: await res.body.text() };
  }
  // An event stream is read to its end (bounded), so what it writes is done before the next request.
  const reading = res.body.text().catch(() => '');
  let timer: NodeJS.Timeout | undefined;
  const text = await Promise.race([
    reading,
    new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), SSE_READ_MS);
    }),
  ]);
  clearTimeout(timer);
  if (text === null) res.body.destroy();
  // Writes that follow a stream's last event (history, progress) land before the next snapshot.
  await new Promise((resolve) => setTimeout(resolve, SSE_SETTLE_MS));
  return { status: res.statusCode, headers: res.headers, text: text ?? '', stream: true };
}

const AI_CODES: Record<string, number> = {
  invalid_request: 400,
  method_not_allowed: 405,
  not_found: 404,
  rate_limited: 429,
  ai_request_failed: 502,
};

/** Everything an answer to a hostile request must be; returns a reason when it is not. */
export function problemWith(server: FuzzServer, req: SentRequest, res: Answer): string | null {
  // Node's own parser refuses a request line and headers over 16 KiB before the app sees them.
  if (res.status === 431 && res.text === '') return null;
  if (res.status >= 500 && res.status !== 502 && res.status !== 503) return `status ${res.status}`;
  if (res.status < 100 || res.status > 599) return `status ${res.status}`;
  const requestId = res.headers['x-request-id'];
  if (typeof requestId !== 'string' || requestId.length === 0) return 'no X-Request-Id';
  if (res.status !== 204 && res.headers['x-content-type-options'] !== 'nosniff') return 'no nosniff';
  if (res.status < 400) return null;
  const pathname = new URL(req.path, server.url).pathname;
  if (
    (HTML_PAGES.some((page) => page.test(pathname)) || isBrowserFormPost(req, pathname)) &&
    String(res.headers['content-type']).startsWith('text/html')
  ) {
    return null;
  }
  let body: unknown;
  try {
    body = JSON.parse(res.text);
  } catch {
    return `error ${res.status} is not JSON: ${res.text.slice(0, 120)}`;
  }
  if (!String(res.headers['content-type']).startsWith('application/json'))
    return 'error not application/json';
  if (pathname.startsWith('/api/ai/')) {
    const envelope = body as { error?: { code?: unknown; message?: unknown } };
    const keys = Object.keys(body as object);
    if (keys.length !== 1 || !envelope.error) return `AI envelope expected: ${res.text.slice(0, 200)}`;
    const { code, message } = envelope.error;
    if (typeof code !== 'string' || AI_CODES[code] !== res.status)
      return `AI code ${String(code)} with ${res.status}`;
    if (typeof message !== 'string' || !message) return 'AI error without message';
    if (res.headers['cache-control'] !== 'no-store') return 'AI error without no-store';
    return null;
  }
  const envelope = body as {
    success?: unknown;
    error?: { code?: unknown; message?: unknown; requestId?: unknown };
  };
  if (envelope.success !== false || !envelope.error)
    return `backend envelope expected: ${res.text.slice(0, 200)}`;
  const { code, message, requestId: bodyId } = envelope.error;
  if (typeof code !== 'string' || ERROR_STATUS[code as keyof typeof ERROR_STATUS] !== res.status) {
    return `code ${String(code)} with ${res.status}`;
  }
  if (typeof message !== 'string' || !message) return 'error without message';
  if (/\n\s+at |node_modules|\.ts:\d+/.test(message)) return `internal detail in message: ${message}`;
  if (bodyId !== requestId) return 'requestId differs from X-Request-Id';
  if (code === 'RATE_LIMITED' && !/^\d+$/.test(String(res.headers['retry-after'])))
    return '429 without Retry-After';
  if (code === 'METHOD_NOT_ALLOWED' && !res.headers.allow) return '405 without Allow';
  return null;
}

/** Tables whose rows may change on any answer (counters, caches, limits). */
const VOLATILE = new Set(['rate_limits', 'counters', 'cache_entries', 'analytics_salts']);
/** Queues whose jobs record a run rather than a side effect (a failed diagnostic is still a run). */
const VOLATILE_QUEUES = new Set(['diagnostics']);

export async function tablesOf(server: FuzzServer): Promise<string[]> {
  const db = server.deps.db;
  const rows =
    engineOf(db) === 'sqlite'
      ? await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(db)
      : await sql<{ name: string }>`select table_name as name from information_schema.tables
          where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(db);
  return rows.rows
    .map((r) => r.name)
    .filter(
      (n) => !VOLATILE.has(n) && !n.startsWith('kysely_') && !n.startsWith('sqlite_') && !/_fts/.test(n),
    )
    .sort();
}

/** Row counts of every business table (jobs per queue), to compare before and after a request. */
export async function snapshot(server: FuzzServer, tables: string[]): Promise<Map<string, number>> {
  // The analytics inbox is folded in the background (at most a second after a 202): folded now, it
  // cannot fold between two snapshots of a request that must write nothing.
  await server.deps.flush();
  const db = server.deps.db;
  const counts = new Map<string, number>();
  const union = sql.join(
    tables.map((t) => sql`select ${t} as name, count(*) as n from ${sql.table(t)}`),
    sql` union all `,
  );
  for (const row of (await sql<{ name: string; n: number | string }>`${union}`.execute(db)).rows) {
    if (row.name !== 'jobs') counts.set(row.name, Number(row.n));
  }
  const jobs = await sql<{
    queue: string;
    n: number | string;
  }>`select queue, count(*) as n from jobs group by queue`.execute(db);
  for (const row of jobs.rows)
    if (!VOLATILE_QUEUES.has(row.queue)) counts.set(`jobs:${row.queue}`, Number(row.n));
  return counts;
}

export function changes(before: Map<string, number>, after: Map<string, number>): string[] {
  const names = new Set([...before.keys(), ...after.keys()]);
  return [...names]
    .filter((n) => (before.get(n) ?? 0) !== (after.get(n) ?? 0))
    .map((n) => `${n}: ${before.get(n) ?? 0} → ${after.get(n) ?? 0}`);
}

/** Rows that point at nothing: what a half-finished write leaves behind. */
export async function orphans(server: FuzzServer): Promise<Record<string, number>> {
  const db = server.deps.db;
  const one = async (query: ReturnType<typeof sql<{ n: number | string }>>) =>
    Number((await query.execute(db)).rows[0]?.n ?? 0);
  return {
    attachmentsWithoutTicket: await one(sql`select count(*) as n from support_attachments a
      where not exists (select 1 from support_tickets t where t.id = a.ticket_id)`),
    attachmentsWithoutBlob: await one(sql`select count(*) as n from support_attachments a
      where not exists (select 1 from blobs b where b.id = a.blob_id)`),
    // Only ticket attachments store blobs so far; a feature that adds another owner adds it here.
    blobsUnreferenced: await one(sql`select count(*) as n from blobs b
      where not exists (select 1 from support_attachments a where a.blob_id = b.id)`),
    quotaHoldsWithoutLead: await one(sql`select count(*) as n from prototype_quota_holds h
      where not exists (select 1 from leads l where l.id = h.lead_id)`),
  };
}

/** The header that unlocks `path`, if any. */
export function authFor(pathname: string): [string, string] | null {
  const hit = AUTH_HEADERS.filter(([prefix]) => pathname.startsWith(prefix)).sort(
    (a, b) => b[0].length - a[0].length,
  )[0];
  return hit ? [hit[1], hit[2]] : null;
}
