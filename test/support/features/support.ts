import { randomUUID } from 'node:crypto';
import type { Engine } from '../../../src/db/database.ts';
import { EMAIL_QUEUE } from '../../../src/integrations/mail/queue.ts';
import { type OutsideWorld, startOutsideWorld } from '../outside-world.ts';
import { startTestServer, type TestContext } from '../test-app.ts';

/** The support tests' outside world: siteverify, Pipedrive and SMTP stand-ins, and a served app. */
export type SupportWorld = OutsideWorld;

export const SUPPORT_EMAIL = 'support@agency.example';
export const CRM_BCC = 'crm-dropbox@pipedrivemail.example';

export const startWorld = startOutsideWorld;

export type ServedApp = TestContext & { url: string };

export function serveApp(engine: Engine, world: SupportWorld, extra: Record<string, string> = {}) {
  return startTestServer({
    engine,
    overrides: { backoffBaseMs: 1 },
    env: {
      CAPTCHA_SECRET: world.siteverify.secret,
      CAPTCHA_VERIFY_URL: `${world.siteverify.url}/siteverify`,
      PIPEDRIVE_API_TOKEN: world.pipedrive.token,
      PIPEDRIVE_API_URL: world.pipedrive.url,
      SMTP_URL: world.smtp.url,
      MAIL_FROM: 'Agency <hello@agency.example>',
      SUPPORT_EMAIL,
      CRM_BCC_EMAIL: CRM_BCC,
      TRUST_PROXY: 'xff',
      ...extra,
    },
  });
}

let ipCounter = 0;
/** A fresh client IP per request, so the per-IP limits of one test never touch another's. */
export function freshIp(): string {
  ipCounter++;
  return `198.18.${Math.floor(ipCounter / 250)}.${(ipCounter % 250) + 1}`;
}

export function uniqueEmail(prefix = 'customer'): string {
  return `${prefix}.${randomUUID().slice(0, 8)}@example.com`;
}

/** Delivers every queued e-mail to the SMTP stand-in. */
export async function deliverMail(ctx: TestContext): Promise<void> {
  await ctx.deps.worker.drain(EMAIL_QUEUE);
}

export function mailTo(world: SupportWorld, address: string) {
  return world.smtp.messages.filter((m) => m.envelopeTo.includes(address));
}

/** The smallest real files of each kind (their magic numbers are what the server checks). */
export const SAMPLE_FILES = {
  png: Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
    'base64',
  ),
  pdf: Buffer.from(
    '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Count 0/Kids[]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
  ),
  /** A Windows executable's header. */
  exe: Buffer.concat([Buffer.from('MZ'), Buffer.alloc(62), Buffer.from('PE\0\0'), Buffer.alloc(200, 1)]),
  text: Buffer.from('2026-11-15 10:00:01 ERROR booking failed: timeout\n2026-11-15 10:00:02 retrying\n'),
};
