import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { scoreClassification } from '../../eval/classify/score.ts';
import { readClassifySet } from '../../eval/classify/sets.ts';
import { testEngines } from '../support/database.ts';
import { ADMIN_KEY, SPAM_TEXT, VENDOR_SENDER, VENDOR_TEXT } from '../support/features/corrections.ts';
import { createTestApp, type TestContext } from '../support/test-app.ts';

const ROOT = new URL('../../', import.meta.url).pathname;
const CHAT_KEY = 'export-chat-key';
// The command runs in an empty folder, so no `.env` of the checkout is read.
const dir = mkdtempSync(join(tmpdir(), 'export-corrections-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.each(await testEngines())('npm run eval -- classify --export-corrections on %s', (engine) => {
  it('writes the corrected leads and support messages as labelled items of the eval format', async () => {
    const ctx: TestContext = await createTestApp({
      engine,
      sqlitePath: join(dir, `${engine}.db`),
      env: { ADMIN_API_SECRET: ADMIN_KEY, CHAT_API_SECRET: CHAT_KEY },
    });
    try {
      const lead = async (personal: Record<string, unknown>, goal: string, language = 'en') => {
        const res = await ctx.app.request('/api/leads', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-chat-api-key': CHAT_KEY },
          body: JSON.stringify({ personal, steps: { goal }, language }),
        });
        return ((await res.json()) as { leadId: string }).leadId;
      };
      const correct = async (path: string, classification: string) => {
        const res = await ctx.app.request(`${path}/classification`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-admin-api-key': ADMIN_KEY },
          body: JSON.stringify({ classification }),
        });
        expect(res.status).toBe(200);
      };
      const spam = await lead({ name: 'SEO King', email_address: 'king@blast.example' }, SPAM_TEXT);
      const vendor = await lead(
        {
          ...VENDOR_SENDER,
          name: 'Laura',
          email_address: 'laura@devforce.example',
          phone_number: '+57 300 1',
        },
        'Necesitamos una app de reservas para nuestra clínica veterinaria en Medellín.',
        'es-CO',
      );
      await lead({ name: 'Ana', email_address: 'ana@hotelsol.example' }, 'A new site for our hotel');
      const sent = await ctx.app.request('/api/support/send', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Victor', email: 'victor@devforce.example', message: VENDOR_TEXT }),
      });
      expect(sent.status).toBe(200);
      const message = await ctx.deps.db.selectFrom('support_messages').select('id').executeTakeFirstOrThrow();

      await correct(`/admin/api/leads/${spam}`, 'lead');
      await correct(`/admin/api/leads/${spam}`, 'vendor');
      await correct(`/admin/api/leads/${vendor}`, 'spam');
      await correct(`/admin/api/leads/${vendor}`, 'lead');
      await correct(`/admin/api/support/messages/${message.id}`, 'spam');

      const file = join(dir, `${engine}-corrections.json`);
      const { stdout } = await promisify(execFile)(
        process.execPath,
        [join(ROOT, 'eval/run.ts'), 'classify', '--export-corrections', file],
        { cwd: dir, env: { PATH: process.env.PATH ?? '', DATABASE_URL: ctx.database.url } },
      );
      expect(stdout).toContain(`3 corrected submission(s) written to ${file}: 1 lead, 1 spam, 1 vendor`);

      const items = readClassifySet(file);
      expect(items.map((i) => [i.id, i.label, i.channel, i.tags])).toEqual([
        ['corr-en-001', 'vendor', 'lead-form', ['real-traffic', 'corrected', 'classifier-said-spam', 'hard']],
        ['corr-es-001', 'lead', 'lead-form', ['real-traffic', 'corrected', 'classifier-said-lead']],
        ['corr-en-002', 'spam', 'support', ['real-traffic', 'corrected', 'classifier-said-vendor', 'hard']],
      ]);
      expect(items[1]).toMatchObject({
        language: 'es',
        region: 'neutral',
        submission: {
          name: 'Laura',
          email: 'laura@devforce.example',
          company: VENDOR_SENDER.company,
          position: VENDOR_SENDER.position,
          // The classifier never reads the phone: it is not exported.
          phone: null,
          texts: ['Necesitamos una app de reservas para nuestra clínica veterinaria en Medellín.'],
        },
      });
      expect(items[2]?.submission.texts).toEqual(['', VENDOR_TEXT]);

      // The file is a set the scorer reads like any other.
      const lines: string[] = [];
      await scoreClassification([file], (line) => lines.push(line));
      expect(lines.join('\n')).toContain('(3 submissions, built-in classifier');
    } finally {
      await ctx.close();
    }
  });
});
