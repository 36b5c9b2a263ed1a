/**
 * No secret in logs: the real server process (`node src/main.ts`, debug logging, production mode)
 * with every secret configured runs a full session against stand-ins of every outside service, first
 * healthy, then failing in the ways real services fail (errors that echo the key back, as OpenAI and
 * Google do, 500s, refused SMTP credentials). Its whole stdout and stderr must not contain any secret.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completion } from '../support/llm-stand-in.ts';
import { startPipedriveStandIn } from '../support/pipedrive-stand-in.ts';
import { type ServerProcess, spawnServer } from '../support/process.ts';
import { type StandIn, sendJson, startStandIn } from '../support/stand-in.ts';

const SECRETS = {
  CHAT_API_SECRET: 'chat-SECRET-7f3a9c1e5b',
  ADMIN_API_SECRET: 'admin-SECRET-2d8e4f6a0c',
  CACHE_API_SECRET: 'cache-SECRET-9b1d3f5e7a',
  METRICS_API_SECRET: 'metrics-SECRET-4c6e8a0b2d',
  CAPTCHA_SECRET: 'captcha-SECRET-1a3c5e7b9d',
  PIPEDRIVE_API_TOKEN: 'pipedrive-SECRET-8e0a2c4f6b',
  SMTP_PASSWORD: 'smtp-SECRET-5f7b9d1a3e',
  AI_API_KEY: 'sk-ai-SECRET-0c2e4a6b8d',
  V0_API_KEY: 'v0-SECRET-6a8c0e2b4f',
  PAGESPEED_API_KEY: 'psi-SECRET-3b5d7f9a1c',
  PRIVACY_AUDIT_SECRET: 'audit-SECRET-7d9f1b3c5e',
};

const PSI_FIXTURE = readFileSync(new URL('../support/fixtures/psi-response.json', import.meta.url), 'utf8');

let failing = false;
let server: ServerProcess;
let dir: string;
const standIns: StandIn[] = [];
let pipedrive: Awaited<ReturnType<typeof startPipedriveStandIn>>;
let smtp: SMTPServer;
let smtpAuthFailures = 0;
let smtpMessages = 0;

async function standIn(handler: Parameters<typeof startStandIn>[0]) {
  const started = await startStandIn(handler);
  standIns.push(started);
  return started;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'secrets-'));
  const siteverify = await standIn((req, res) => {
    if (failing)
      return sendJson(res, 500, {
        error: `backend error for secret=${new URLSearchParams(req.body).get('secret')}`,
      });
    const ok = new URLSearchParams(req.body).get('secret') === SECRETS.CAPTCHA_SECRET;
    sendJson(
      res,
      200,
      ok ? { success: true, score: 0.9 } : { success: false, 'error-codes': ['invalid-input-secret'] },
    );
  });
  const llm = await standIn((req, res) => {
    // Like OpenAI: a refused key is echoed in the error message.
    if (failing)
      return sendJson(res, 401, {
        error: { message: `Incorrect API key provided: ${req.headers.authorization}` },
      });
    const recommendation = {
      summary: 'A website.',
      recommendedPath: 'Build',
      rationale: { summary: 'Needs a site.', signals: ['website', 'bookings'] },
      alternatives: [],
      detectedNeeds: ['website'],
      missingInformation: [],
      confidence: 'medium',
      classification: 'lead',
      reason: 'a genuine enquiry',
    };
    sendJson(res, 200, completion(JSON.stringify(recommendation)));
  });
  const psi = await standIn((req, res) => {
    // Like Google: the error repeats the request, key included.
    if (failing)
      return sendJson(res, 400, { error: { code: 400, message: `API key not valid: ${req.url}` } });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(PSI_FIXTURE);
  });
  const v0 = await standIn((req, res) =>
    sendJson(res, 401, { error: `bad key ${req.headers.authorization}` }),
  );
  const wordpress = await standIn((_req, res) => sendJson(res, 200, []));
  pipedrive = await startPipedriveStandIn(SECRETS.PIPEDRIVE_API_TOKEN);
  pipedrive.fail = () => failing;
  smtp = new SMTPServer({
    authOptional: false,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, callback) {
      if (!failing && auth.username === 'mailer' && auth.password === SECRETS.SMTP_PASSWORD) {
        return callback(null, { user: 'mailer' });
      }
      smtpAuthFailures++;
      callback(new Error(`Invalid login for ${auth.username}:${auth.password}`));
    },
    onData(stream, _session, callback) {
      stream.resume();
      stream.on('end', () => {
        smtpMessages++;
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
  const smtpPort = (smtp.server.address() as AddressInfo).port;

  server = await spawnServer({
    NODE_ENV: 'production',
    LOG_LEVEL: 'debug',
    DATABASE_URL: `sqlite:${join(dir, 'app.db')}`,
    TRUST_PROXY: 'xff',
    PUBLIC_BASE_URL: 'https://api.agency.example',
    CHAT_API_SECRET: SECRETS.CHAT_API_SECRET,
    ADMIN_API_SECRET: SECRETS.ADMIN_API_SECRET,
    CACHE_API_SECRET: SECRETS.CACHE_API_SECRET,
    METRICS_API_SECRET: SECRETS.METRICS_API_SECRET,
    CAPTCHA_SECRET: SECRETS.CAPTCHA_SECRET,
    CAPTCHA_VERIFY_URL: `${siteverify.url}/siteverify`,
    PIPEDRIVE_API_TOKEN: SECRETS.PIPEDRIVE_API_TOKEN,
    PIPEDRIVE_API_URL: pipedrive.url,
    SMTP_URL: `smtp://mailer:${SECRETS.SMTP_PASSWORD}@127.0.0.1:${smtpPort}`,
    SUPPORT_EMAIL: 'sales@agency.example',
    AI_BASE_URL: `${llm.url}/v1`,
    AI_MODEL: 'stand-in',
    AI_API_KEY: SECRETS.AI_API_KEY,
    AI_TIMEOUT_MS: '3000',
    V0_API_KEY: SECRETS.V0_API_KEY,
    V0_API_URL: `${v0.url}/v1`,
    PAGESPEED_API_KEY: SECRETS.PAGESPEED_API_KEY,
    PRIVACY_AUDIT_SECRET: SECRETS.PRIVACY_AUDIT_SECRET,
    PAGESPEED_API_URL: `${psi.url}/runPagespeed`,
    WORDPRESS_API_URL: `${wordpress.url}/wp-json/wp/v2`,
  });
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
  await pipedrive?.close();
  for (const s of standIns) await s.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

let ipCounter = 0;
function call(
  path: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
) {
  ipCounter++;
  return fetch(`${server.url}${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: {
      'x-forwarded-for': `203.0.113.${ipCounter % 250}`,
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...init.headers,
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
}

const lead = (email: string) => ({
  personal: { name: 'Secret Tester', email_address: email, company: 'Keys Ltd', phone_number: '+1 555 0100' },
  steps: {
    initial_choice: 'create',
    service: 'build-website',
    goal: 'A website with bookings',
    industry: 'hospitality',
  },
  recaptchaToken: 'ok-token',
  language: 'en',
});

async function waitFor(condition: () => boolean, ms: number) {
  const deadline = Date.now() + ms;
  while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
}

/** The routes that use each secret, healthy then failing, and the wrong-key paths. */
async function session() {
  const chat = { 'x-chat-api-key': SECRETS.CHAT_API_SECRET };
  const admin = { 'x-admin-api-key': SECRETS.ADMIN_API_SECRET };
  const statuses: Record<string, number> = {};
  const note = async (name: string, response: Promise<Response>) => {
    const r = await response;
    await r.text();
    statuses[name] = r.status;
  };

  // Healthy outside services.
  await note('lead', call('/api/leads', { body: lead('ok@example.com') }));
  await note(
    'support send',
    call('/api/support/send', {
      body: {
        name: 'Ana',
        email: 'ana@example.com',
        message: 'We need a new website for our hotel with bookings.',
        recaptchaToken: 'ok',
      },
    }),
  );
  await note(
    'recommend',
    call('/api/ai/recommend-plan', { body: { message: 'A website with bookings for our hotel.' } }),
  );
  await note('diagnostic', call('/api/diagnostic/analyze', { body: { url: 'https://example.com/' } }));
  await note('lookup', call('/api/leads/lookup?email=ok@example.com', { headers: chat }));
  await note('admin', call('/admin/api/leads', { headers: admin }));
  await note(
    'metrics',
    call('/metrics', { headers: { authorization: `Bearer ${SECRETS.METRICS_API_SECRET}` } }),
  );
  await note(
    'purge',
    call('/api/posts/cache', { method: 'DELETE', headers: { 'x-cache-api-key': SECRETS.CACHE_API_SECRET } }),
  );
  await waitFor(() => smtpMessages > 0 && pipedrive.deals.length > 0, 15_000);
  // The erasure (its audit hash is keyed by PRIVACY_AUDIT_SECRET) reaching the CRM, and the audit look-up.
  await note(
    'erase',
    call('/admin/api/personal-data?email=ok@example.com&crm=true', { method: 'DELETE', headers: admin }),
  );
  await note('audit', call('/admin/api/privacy/audit?email=ok@example.com', { headers: admin }));

  // Every outside service failing.
  failing = true;
  const crmCalls = pipedrive.standIn.requests.length;
  await note('lead, captcha down', call('/api/leads', { body: lead('down@example.com') }));
  await note(
    'lead, trusted (CRM and SMTP down)',
    call('/api/leads', { body: lead('trusted@example.com'), headers: chat }),
  );
  await note(
    'support send, captcha down',
    call('/api/support/send', {
      body: {
        name: 'Bo',
        email: 'bo@example.com',
        message: 'Please call me about a new application.',
        recaptchaToken: 'ok',
      },
    }),
  );
  await note(
    'recommend, key refused',
    call('/api/ai/recommend-plan', { body: { message: 'A shop for our bakery.' } }),
  );
  await note('refine, key refused', call('/api/ai/refine', { body: { message: 'A shop for our bakery.' } }));
  await note(
    'diagnostic, key refused',
    call('/api/diagnostic/analyze', { body: { url: 'https://example.org/' } }),
  );
  await note(
    'erase, CRM down',
    call('/admin/api/personal-data?email=trusted@example.com&crm=true', { method: 'DELETE', headers: admin }),
  );
  // Wrong keys that contain the right one (a log of the presented header would leak it).
  await note(
    'lookup, wrong key',
    call('/api/leads/lookup?email=x@example.com', {
      headers: { 'x-chat-api-key': `${SECRETS.CHAT_API_SECRET}x` },
    }),
  );
  await note(
    'admin, wrong key',
    call('/admin/api/leads', { headers: { 'x-admin-api-key': `${SECRETS.ADMIN_API_SECRET}x` } }),
  );
  await note(
    'metrics, wrong key',
    call('/metrics', { headers: { authorization: `Bearer ${SECRETS.METRICS_API_SECRET}x` } }),
  );
  await note(
    'purge, wrong key',
    call('/api/posts/cache/clear', {
      method: 'POST',
      headers: { 'x-cache-api-key': `${SECRETS.CACHE_API_SECRET}x` },
    }),
  );
  // Queue jobs retry against the failing CRM and SMTP: wait for both to have been tried.
  await waitFor(() => pipedrive.standIn.requests.length > crmCalls && smtpAuthFailures > 0, 20_000);
  return statuses;
}

describe('no secret in logs', () => {
  it('a full session, healthy and failing, never writes a secret to stdout or stderr', {
    timeout: 120_000,
  }, async () => {
    const statuses = await session();
    // The session really went through the healthy and the failing paths.
    expect(statuses.lead).toBe(200);
    expect(statuses.recommend).toBe(200);
    expect(statuses.diagnostic).toBe(200);
    expect(statuses.lookup).toBe(200);
    expect(statuses.admin).toBe(200);
    expect(statuses.metrics).toBe(200);
    expect(statuses['recommend, key refused']).toBe(502);
    expect(statuses['diagnostic, key refused']).toBe(502);
    expect(statuses['admin, wrong key']).toBe(401);
    expect(statuses.erase).toBe(200);
    expect(statuses['erase, CRM down']).toBe(200);
    expect(smtpAuthFailures).toBeGreaterThan(0);
    expect(smtpMessages).toBeGreaterThan(0);

    await server.stop('SIGTERM');
    const output = server.output.join('\n');
    expect(output.length).toBeGreaterThan(1000);
    // Some failure was logged at all (the greps below are not vacuous).
    expect(output).toMatch(/"level":(40|50)/);
    // Personal data is not a log's business either: the addresses sent in the session appear nowhere.
    for (const address of ['ok@example.com', 'trusted@example.com', 'ana@example.com']) {
      expect(output, address).not.toContain(address);
    }
    const leaked = Object.entries(SECRETS).filter(([, value]) => output.includes(value));
    if (process.env.SHOW_LEAKS)
      for (const line of server.output)
        if (Object.values(SECRETS).some((v) => line.includes(v))) console.log(line.slice(0, 1500));
    expect(
      leaked.map(([name]) => name),
      `statuses: ${JSON.stringify(statuses)}`,
    ).toEqual([]);
  });
});
