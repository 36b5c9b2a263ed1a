import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readClassifySet } from '../../eval/classify/sets.ts';
import { startLlmStandIn } from '../support/llm-stand-in.ts';
import type { StandIn } from '../support/stand-in.ts';

const ROOT = new URL('../../', import.meta.url).pathname;

// Five submissions of a tuning set: the stand-in model answers three (one of them wrongly), answers
// one in prose and fails on one.
const items = readClassifySet('tune-a.json').filter((item) =>
  ['ta-en-005', 'ta-en-003', 'ta-en-038', 'ta-en-002', 'ta-en-006'].includes(item.id),
);
const byEmail = new Map(items.map((item) => [item.submission.email, item]));

let model: StandIn;
let dir: string;
beforeAll(async () => {
  model = await startLlmStandIn((req) => {
    const body = JSON.parse(req.body) as { messages: { content: string }[] };
    const item = byEmail.get((JSON.parse(body.messages[1]!.content) as { email: string }).email)!;
    if (item.id === 'ta-en-006') throw new Error('model down');
    if (item.id === 'ta-en-002') return 'Hard to say, probably junk.';
    const classification = item.id === 'ta-en-038' ? 'lead' : item.label;
    return `{"classification": "${classification}", "reason": "Stand-in says ${classification}."}`;
  });
  dir = mkdtempSync(join(tmpdir(), 'classify-live-'));
  writeFileSync(join(dir, 'five.json'), JSON.stringify({ about: 'five tuning items', items }));
});
afterAll(async () => {
  await model.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('npm run eval -- classify --live', () => {
  it('asks the configured model through the routes’ prompt and parser, and counts failures apart', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['eval/run.ts', 'classify', '--live', join(dir, 'five.json')],
      {
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? '', AI_BASE_URL: model.url, AI_MODEL: 'stand-in-model' },
      },
    );
    expect(stdout).toContain('(5 submissions, model stand-in-model)');
    expect(stdout).toContain('model answers: 3 of 5; model failures: 2');
    expect(stdout).toMatch(/failure ta-en-002 \(unusable\): Hard to say/);
    expect(stdout).toMatch(/failure ta-en-006 \(error\)/);
    // Where the model failed, the routes fall back to the built-in classifier.
    expect(stdout).toContain('as the routes would decide');
    // The model's own figures count its answers only, and name its miss with its reason.
    expect(stdout).toContain('accuracy  66.7% (2/3)');
    expect(stdout).toMatch(/ta-en-038 \[.*\]: vendor → lead: Stand-in says lead\./);
    // The routes' prompt: the policy, and the submission as data.
    const sent = JSON.parse(model.requests[0]!.body) as { messages: { content: string }[] };
    expect(sent.messages[0]!.content).toContain(
      'who is writing to the agency, and would they pay the agency for work?',
    );
  }, 60_000);
});
