import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/support/test-app.ts';

type Operation = {
  summary: string;
  description?: string;
  security?: Record<string, string[]>[];
  requestBody?: { required?: boolean; content: Record<string, { schema: { $ref?: string } }> };
  responses: Record<string, unknown>;
};
type Doc = {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
};

describe('classification corrections in the API description', () => {
  let ctx: TestContext;
  let doc: Doc;
  beforeAll(async () => {
    ctx = await createTestApp();
    doc = (await (await ctx.app.request('/openapi.json')).json()) as Doc;
  });
  afterAll(() => ctx.close());

  it.each(['/admin/api/leads/{id}/classification', '/admin/api/support/messages/{id}/classification'])(
    'POST %s: the admin key, a body of lead, spam or vendor, what it does and its errors',
    (path) => {
      const post = doc.paths[path]?.post;
      expect(post?.security).toEqual([{ AdminApiKey: [] }]);
      expect(post?.requestBody?.required).toBe(true);
      expect(post?.requestBody?.content['application/json']?.schema.$ref).toBe(
        '#/components/schemas/ClassificationCorrectionRequest',
      );
      expect(
        doc.components.schemas.ClassificationCorrectionRequest?.properties?.classification,
      ).toMatchObject({
        enum: ['lead', 'spam', 'vendor'],
      });
      expect(Object.keys(post?.responses ?? {}).sort()).toEqual([
        '200',
        '400',
        '401',
        '404',
        '413',
        '415',
        '500',
        '503',
      ]);
      for (const words of ['at most once', 'durable queue', 'changed: false', 'cancelled', 'decline']) {
        expect(post?.description).toContain(words);
      }
    },
  );

  it('the lead correction says what a lead made spam or vendor loses and what it gets back', () => {
    const description = doc.paths['/admin/api/leads/{id}/classification']?.post?.description ?? '';
    for (const words of [
      'confirmation e-mail',
      'CRM sync',
      'prototype',
      'monthly quota',
      'already running',
    ]) {
      expect(description).toContain(words);
    }
  });

  it('the support messages list, and the score, reasons and corrections of the lead detail', () => {
    expect(doc.paths['/admin/api/support/messages']?.get?.security).toEqual([{ AdminApiKey: [] }]);
    expect(Object.keys(doc.components.schemas.AdminSupportMessage?.properties ?? {})).toEqual(
      expect.arrayContaining(['classificationScore', 'classificationReasons', 'corrections', 'language']),
    );
    const detail = JSON.stringify(doc.components.schemas.AdminLeadDetail);
    for (const field of ['classificationScore', 'classificationReasons', 'ClassificationCorrection']) {
      expect(detail).toContain(field);
    }
    expect(Object.keys(doc.components.schemas.ClassificationCorrection?.properties ?? {})).toEqual([
      'at',
      'from',
      'to',
      'fromStatus',
      'toStatus',
      'started',
      'stopped',
      'kept',
    ]);
  });
});
