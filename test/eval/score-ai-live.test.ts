import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLlmStandIn } from '../support/llm-stand-in.ts';
import type { StandIn } from '../support/stand-in.ts';

const run = promisify(execFile);
const ROOT = new URL('../../', import.meta.url).pathname;

/** A set in the newer format: two recommend items, one refine item with gold sections. */
const SET = {
  about: 'test set',
  recommend: [
    {
      id: 'x-rec-en-1',
      locale: 'en',
      tags: [],
      message: 'We need a website for our bakery.',
      path: 'Build',
      acceptable: ['Build'],
    },
    {
      id: 'x-rec-en-2',
      locale: 'en',
      tags: [],
      message: 'When can we talk?',
      fields: { service: 'workflow-automation' },
      path: 'Custom',
      acceptable: ['Custom'],
    },
  ],
  refine: [
    {
      id: 'x-ref-en-1',
      locale: 'en',
      tags: [],
      message: 'A new website for our bakery with a menu and online orders. Budget $3,000.',
      fields: {
        initialChoice: 'create',
        service: 'build-website',
        industry: 'retail',
        audience: null,
        style: null,
      },
      sections: {
        service: ['new website'],
        features: ['menu', 'online orders'],
        constraints: ['Budget $3,000'],
      },
    },
  ],
};

describe('npm run eval -- --live', () => {
  let model: StandIn;
  let dir: string;
  beforeAll(async () => {
    // The stand-in answers like a model would: Build for every recommendation (with one signal that is
    // a statement about the message, which the post-processing drops), a refinement with a section.
    model = await startLlmStandIn((req) => {
      const body = JSON.parse(req.body) as { messages: { role: string; content: string }[] };
      const system = body.messages[0]!.content;
      if (system.includes('Recommend exactly ONE service path')) {
        return JSON.stringify({
          summary: 'A website.',
          recommendedPath: 'Build',
          rationale: {
            summary: 'Build fits.',
            signals: ['The message gives few details about the project.', 'website for our bakery'],
          },
          detectedNeeds: ['website'],
          missingInformation: ['key features'],
          confidence: 'medium',
        });
      }
      return JSON.stringify({
        summary: 'A bakery website.',
        sections: [{ key: 'features', items: ['menu'] }],
        suggestions: [],
        fields: {
          initialChoice: 'create',
          service: 'build-website',
          industry: 'retail',
          audience: 'b2c',
          style: null,
        },
      });
    });
    dir = mkdtempSync(join(tmpdir(), 'eval-live-'));
    writeFileSync(join(dir, 'set.json'), JSON.stringify(SET));
  });
  afterAll(async () => {
    await model.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs the sets through the configured model with the routes’ prompts and post-processing', async () => {
    const { stdout } = await run(process.execPath, ['eval/score-ai.ts', '--live', join(dir, 'set.json')], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', AI_BASE_URL: model.url, AI_MODEL: 'stand-in' },
    });
    expect(stdout).toContain('(model stand-in)');
    expect(stdout).toMatch(/path in the acceptable set\s+50\.0% \(1\/2\)/);
    expect(stdout).toMatch(/signals not traceable\s+0 answers/);
    expect(stdout).toMatch(/exact field accuracy\s+80\.0% \(4\/5\)/);
    expect(stdout).toMatch(/features\s+precision 100\.0% \(1\/1\)\s+recall 100\.0% \(1\/1\)/);
    expect(stdout).toMatch(/missingInformation asking for what was said\s+1 of 1 messages/);
    // Three recommendations (two items, one refine message) and one refinement reached the model.
    expect(model.requests.length).toBe(4);
    const recommendFacts = model.requests.find((r) => r.body.includes('workflow-automation'));
    expect(recommendFacts).toBeDefined();
  });

  it('is also reached with --model, the former name of the flag', async () => {
    const { stdout } = await run(process.execPath, ['eval/score-ai.ts', '--model', join(dir, 'set.json')], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', AI_BASE_URL: model.url, AI_MODEL: 'stand-in' },
    });
    expect(stdout).toContain('(model stand-in)');
  });
});
