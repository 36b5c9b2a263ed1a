import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../src/http/limits.ts';
import type { OpenApiDocument } from '../src/http/openapi-document.ts';
import { createTestApp, type TestContext } from './support/test-app.ts';

/**
 * `/openapi.json` as a client generator reads it: every operation named, its credential stated, its
 * errors typed, the shared headers described. The rules hold for every operation, so a route added
 * without them fails here.
 */
const PUBLIC_BASE_URL = 'https://api.agency.test';

interface Operation {
  operationId?: string;
  security?: Record<string, string[]>[];
  responses: Record<string, { content?: Record<string, { schema?: unknown }>; headers?: object }>;
}

let ctx: TestContext;
let document: OpenApiDocument;
let operations: { name: string; operation: Operation }[];

beforeAll(async () => {
  ctx = await createTestApp({ env: { PUBLIC_BASE_URL } });
  document = await (await ctx.app.request('/openapi.json')).json();
  operations = Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    Object.entries(item as Record<string, Operation>).map(([method, operation]) => ({
      name: `${method.toUpperCase()} ${path}`,
      operation,
    })),
  );
});
afterAll(() => ctx.close());

/**
 * Operation ids already in clients' hands: generated clients name their methods after them, so a
 * renamed or dropped id breaks those clients. A new route adds its own; this list only grows.
 */
const PUBLISHED_IDS: Record<string, string> = {
  'GET /': 'getServiceInfo',
  'GET /health': 'getHealth',
  'GET /ready': 'getReadiness',
  'POST /api/leads': 'createLead',
  'GET /api/leads': 'listLeads',
  'GET /api/leads/lookup': 'lookupLead',
  'GET /api/leads/{id}': 'getLead',
  'POST /api/leads/{id}/trigger-generation': 'triggerPrototypeGeneration',
  'POST /api/leads/{id}/generate': 'generatePrototype',
  'GET /api/leads/{id}/generate-stream': 'streamPrototypeGeneration',
  'GET /api/leads/{id}/preview': 'getLeadPreview',
  'GET /api/leads/{id}/prototype': 'getLeadPrototype',
  'POST /api/chat/stream': 'streamChat',
  'GET /api/chat/{sessionId}/history': 'getChatHistory',
  'POST /api/contact': 'submitContactForm',
  'GET /api/contact': 'listContactSubmissions',
  'POST /api/analytics/track': 'trackAnalyticsEvent',
  'GET /api/analytics/stats': 'getAnalyticsStats',
  'GET /api/analytics/events': 'listAnalyticsEvents',
  'GET /api/analytics/script.js': 'getAnalyticsScript',
  'GET /api/analytics/export': 'exportAnalytics',
  'POST /api/support/send': 'sendSupportRequest',
  'POST /api/support/tickets': 'createSupportTicket',
  'POST /api/diagnostic/analyze': 'analyzePageSpeed',
  'GET /api/diagnostic/health': 'getDiagnosticsHealth',
  'POST /api/seo/analyze': 'analyzeSeo',
  'GET /api/seo/health': 'getSeoHealth',
  'GET /api/posts': 'listPosts',
  'GET /api/posts/search': 'searchPosts',
  'GET /api/posts/tags': 'listPostTags',
  'GET /api/posts/categories': 'listPostCategories',
  'GET /api/posts/author': 'searchPostAuthors',
  'GET /api/posts/author/{id}': 'getPostAuthor',
  'GET /api/posts/{id}': 'getPost',
  'GET /api/posts/cache/status': 'getPostsCacheStatus',
  'DELETE /api/posts/cache': 'purgePostsCache',
  'POST /api/posts/cache/clear': 'clearPostsCache',
  'POST /api/ai/recommend-plan': 'recommendPlan',
  'POST /api/ai/refine': 'refineProject',
  'GET /api/ai/search-test': 'probeSearchIndex',
  'GET /admin/leads': 'getAdminDashboard',
  'GET /admin/api/summary': 'getAdminSummary',
  'GET /admin/api/leads': 'listAdminLeads',
  'GET /admin/api/leads/{id}': 'getAdminLead',
  'GET /admin/api/contact': 'listAdminContactSubmissions',
  'GET /admin/api/outbox': 'listMailOutbox',
  'GET /admin/api/queues': 'listQueues',
  'POST /admin/api/queues/{name}/retry': 'retryDeadJobs',
  'POST /admin/api/queues/{name}/jobs/{id}/retry': 'retryDeadJob',
  'GET /admin/api/analytics': 'getAdminAnalytics',
  'POST /admin/api/leads/{id}/classification': 'correctLeadClassification',
  'POST /admin/api/support/messages/{id}/classification': 'correctSupportMessageClassification',
  'GET /admin/api/support/messages': 'listSupportMessages',
  'GET /admin/api/support/tickets/{ticketId}/files/{position}': 'downloadTicketFile',
  'GET /admin/api/personal-data': 'exportPersonalData',
  'DELETE /admin/api/personal-data': 'erasePersonalData',
  'GET /admin/api/privacy': 'getPrivacySettings',
  'GET /admin/api/privacy/audit': 'listPrivacyAudit',
  'GET /metrics': 'getMetrics',
};

/** Where a credential is optional: anyone, or with the key (the trusted chat path; in production, the personal data). */
const OPTIONAL_CREDENTIAL: Record<string, string[]> = {
  'POST /api/leads': ['ChatApiKey'],
  'GET /api/leads': ['AdminApiKey'],
  'GET /api/leads/{id}': ['AdminApiKey'],
  'GET /api/contact': ['AdminApiKey'],
};

/**
 * The credential each guarded operation requires (every `/admin/api/*` one, the admin key); the others
 * declare `security: []`.
 */
const GUARDED: Record<string, string[]> = {
  'GET /api/leads/lookup': ['ChatApiKey'],
  'POST /api/chat/stream': ['ChatApiKey'],
  'GET /api/chat/{sessionId}/history': ['ChatApiKey'],
  'DELETE /api/posts/cache': ['CacheApiKey'],
  'POST /api/posts/cache/clear': ['CacheApiKey'],
  'GET /metrics': ['MetricsBearer', 'AdminApiKey'],
  'GET /api/analytics/export': ['AdminApiKey'],
};
const guardOf = (name: string) => GUARDED[name] ?? (name.includes(' /admin/api/') ? ['AdminApiKey'] : []);

describe('/openapi.json for client generators', () => {
  it('names every operation with a unique camelCase operationId', () => {
    const ids = operations.map(({ name, operation }) => {
      expect(operation.operationId, name).toMatch(/^[a-z][a-zA-Z0-9]+$/);
      return operation.operationId;
    });
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('keeps the operationIds clients already use', () => {
    const published = Object.fromEntries(
      operations
        .filter(({ name }) => name in PUBLISHED_IDS)
        .map(({ name, operation }) => [name, operation.operationId]),
    );
    expect(published).toEqual(PUBLISHED_IDS);
  });

  it('states the security of every operation: [] when public, the scheme of its secret when guarded', () => {
    const schemes = Object.keys(document.components?.securitySchemes ?? {});
    for (const { name, operation } of operations) {
      expect(operation.security, name).toBeDefined();
      const alternatives = operation.security ?? [];
      // `{}` among the alternatives: no credential needed.
      const optional = alternatives.some((alternative) => Object.keys(alternative).length === 0);
      const names = alternatives.flatMap((alternative) => Object.keys(alternative));
      for (const scheme of names) expect(schemes, `${name}: ${scheme}`).toContain(scheme);
      expect(optional, name).toBe(name in OPTIONAL_CREDENTIAL);
      expect(names, name).toEqual(optional ? OPTIONAL_CREDENTIAL[name] : guardOf(name));
      // A 401 is documented where a credential is required, and only where one can be sent.
      if (names.length > 0 && !optional) expect(operation.responses, name).toHaveProperty('401');
      if ('401' in operation.responses) expect(names.length, name).toBeGreaterThan(0);
    }
  });

  it('types every error response with its envelope: ErrorEnvelope, or AiError under /api/ai/', () => {
    for (const { name, operation } of operations) {
      for (const [status, response] of Object.entries(operation.responses)) {
        if (Number(status) < 400) continue;
        const html = response.content?.['text/html'];
        // The preview page answers its errors as pages: a browser opens it.
        if (html && name === 'GET /api/leads/{id}/preview') continue;
        const expected = name.includes(' /api/ai/') ? 'AiError' : 'ErrorEnvelope';
        expect(response.content?.['application/json']?.schema, `${name} ${status}`).toEqual({
          $ref: `#/components/schemas/${expected}`,
        });
      }
    }
    const schemas = document.components?.schemas ?? {};
    expect(Object.keys(schemas)).toEqual(expect.arrayContaining(['ErrorEnvelope', 'AiError']));
  });

  it('describes X-Request-Id on every response, Retry-After on every 429 and 503, Cache-Control on the AI routes', () => {
    // Routes may describe more headers of their own (the rate-limit ones); these are everyone's.
    expect(Object.keys(document.components?.headers ?? {})).toEqual(
      expect.arrayContaining(['X-Request-Id', 'Retry-After', 'Cache-Control']),
    );
    for (const { name, operation } of operations) {
      for (const [status, response] of Object.entries(operation.responses)) {
        const expected = {
          'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' },
          ...(name.includes(' /api/ai/')
            ? { 'Cache-Control': { $ref: '#/components/headers/Cache-Control' } }
            : {}),
          ...(status === '429' || status === '503'
            ? { 'Retry-After': { $ref: '#/components/headers/Retry-After' } }
            : {}),
        };
        expect(response.headers, `${name} ${status}`).toMatchObject(expected);
      }
    }
  });

  it('lists the errors every operation can answer: 500, the database outage 503, 413 for a JSON body', () => {
    const databaseFree = [
      'GET /',
      'GET /health',
      'GET /api/seo/health',
      'GET /api/analytics/script.js',
      'GET /admin/leads',
    ];
    for (const { name, operation } of operations) {
      const statuses = Object.keys(operation.responses);
      expect(statuses, name).toContain('500');
      if (!databaseFree.includes(name)) expect(statuses, name).toContain('503');
      if (/^(POST|PUT|PATCH|DELETE) /.test(name) && !name.includes(' /api/ai/')) {
        expect(statuses, name).toContain('413');
      }
    }
  });

  it('documents the status of an oversized body on every operation that takes one', async () => {
    const body = JSON.stringify({ padding: 'x'.repeat(LIMITS.jsonBodyBytes) });
    for (const { name, operation } of operations) {
      const [method, path] = name.split(' ') as [string, string];
      if (!['POST', 'PUT', 'PATCH', 'DELETE'].includes(method)) continue;
      const response = await ctx.app.request(path.replace(/\{[^}]+\}/g, 'x'), {
        method,
        headers: { 'content-type': 'application/json' },
        body,
      });
      await response.arrayBuffer();
      expect(Object.keys(operation.responses), `${name} answered ${response.status}`).toContain(
        String(response.status),
      );
    }
  });

  it('documents the status the server answers for a path parameter far too long, on every operation that takes one', async () => {
    const keys = {
      admin: 'admin-secret-openapi',
      chat: 'chat-secret-openapi',
      cache: 'cache-secret-openapi',
    };
    const keyed = await createTestApp({
      env: { ADMIN_API_SECRET: keys.admin, CHAT_API_SECRET: keys.chat, CACHE_API_SECRET: keys.cache },
    });
    try {
      const headers = {
        'x-admin-api-key': keys.admin,
        'x-chat-api-key': keys.chat,
        'x-cache-api-key': keys.cache,
        'content-type': 'application/json',
      };
      let checked = 0;
      for (const { name, operation } of operations) {
        const [method, path] = name.split(' ') as [string, string];
        if (!path.includes('{')) continue;
        const response = await keyed.app.request(path.replace(/\{[^}]+\}/g, 'x'.repeat(300)), {
          method,
          headers,
          body: method === 'GET' || method === 'HEAD' ? undefined : '{}',
        });
        await response.arrayBuffer();
        expect
          .soft(Object.keys(operation.responses), `${name} answered ${response.status}`)
          .toContain(String(response.status));
        checked++;
      }
      expect(checked).toBeGreaterThan(10);
    } finally {
      await keyed.close();
    }
  });

  it('names the server from PUBLIC_BASE_URL', () => {
    expect(document.servers).toEqual([{ url: PUBLIC_BASE_URL, description: expect.any(String) }]);
  });
});
