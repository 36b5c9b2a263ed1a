import { randomUUID } from 'node:crypto';
import type { Engine } from '../../../src/db/database.ts';
import { type OutsideWorld, startOutsideWorld } from '../outside-world.ts';
import { createTestApp, type TestContext } from '../test-app.ts';

/** Shared set-up of the leads tests: the three stand-ins and an app wired to them. */
export const CHAT_KEY = 'chat-test-key';

export type LeadsWorld = OutsideWorld;

export const startWorld = startOutsideWorld;

export function worldEnv(world: LeadsWorld, extra: Record<string, string> = {}): Record<string, string> {
  return {
    CAPTCHA_SECRET: world.siteverify.secret,
    CAPTCHA_VERIFY_URL: `${world.siteverify.url}/siteverify`,
    PIPEDRIVE_API_TOKEN: world.pipedrive.token,
    PIPEDRIVE_API_URL: world.pipedrive.url,
    SMTP_URL: world.smtp.url,
    MAIL_FROM: 'Agency <hello@agency.example>',
    SUPPORT_EMAIL: 'sales@agency.example',
    CHAT_API_SECRET: CHAT_KEY,
    TRUST_PROXY: 'xff',
    PUBLIC_BASE_URL: 'https://api.agency.example',
    ...extra,
  };
}

export async function leadsApp(
  engine: Engine,
  env: Record<string, string>,
  backoffBaseMs = 1,
): Promise<TestContext> {
  return createTestApp({ engine, env, overrides: { backoffBaseMs } });
}

let ipCounter = 0;
/** A fresh client IP per call, so the per-IP limits of one test never touch another's. */
export function freshIp(): string {
  ipCounter++;
  return `198.18.${Math.floor(ipCounter / 250)}.${(ipCounter % 250) + 1}`;
}

export function uniqueEmail(prefix = 'visitor'): string {
  return `${prefix}.${randomUUID().slice(0, 8)}@example.com`;
}

export interface SubmitOptions {
  ip?: string;
  chatKey?: string;
  headers?: Record<string, string>;
}

export function submission(overrides: Record<string, unknown> = {}) {
  const { personal, steps, ...rest } = overrides as {
    personal?: Record<string, unknown>;
    steps?: Record<string, unknown>;
  };
  return {
    personal: {
      name: 'Ana García',
      email_address: uniqueEmail(),
      phone_number: '+57 300 000 0000',
      company: 'Hotel Sol',
      position: 'Owner',
      ...personal,
    },
    steps: {
      initial_choice: 'create',
      service: 'build-website',
      prototype: 'landing',
      goal: 'More direct bookings for our hotel',
      industry: 'hospitality',
      features: ['booking', 'gallery'],
      style: 'modernMinimalist',
      audience: 'b2c',
      ...steps,
    },
    recaptchaToken: 'ok-token',
    source_url: 'https://agency.example/wizard',
    language: 'en',
    ...rest,
  };
}

export function postLead(ctx: TestContext, body: unknown, options: SubmitOptions = {}) {
  return ctx.app.request('/api/leads', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-forwarded-for': options.ip ?? freshIp(),
      ...(options.chatKey ? { 'x-chat-api-key': options.chatKey } : {}),
      ...options.headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}
