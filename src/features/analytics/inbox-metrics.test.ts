import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trackedEvent } from '../../../test/support/features/analytics.ts';
import { createTestApp, type TestContext } from '../../../test/support/test-app.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({ env: { METRICS_API_SECRET: 'metrics-secret' } });
});
afterAll(() => ctx.close());

describe('the analytics inbox on /metrics', () => {
  it('reports the events waiting to be folded and how long the oldest has waited', async () => {
    const headers = { Authorization: 'Bearer metrics-secret' };
    const scrape = async () => (await ctx.app.request('/metrics', { headers })).text();
    expect(await scrape()).toMatch(/^analytics_inbox_events 0$/m);
    expect(await scrape()).toMatch(/^analytics_inbox_oldest_seconds 0$/m);

    const minuteAgo = (Date.now() - 60_000).toString(16).padStart(12, '0');
    const event = (page: string) => JSON.stringify(trackedEvent('m', page));
    await ctx.deps.db
      .insertInto('analytics_inbox')
      .values([
        { id: `${minuteAgo}00000001metrics0`, event: event('/a') },
        { id: `${minuteAgo}00000002metrics0`, event: event('/b') },
      ])
      .execute();
    const text = await scrape();
    expect(text).toMatch(/^analytics_inbox_events 2$/m);
    const age = Number(/^analytics_inbox_oldest_seconds (\S+)$/m.exec(text)?.[1]);
    expect(age).toBeGreaterThanOrEqual(59);
    expect(age).toBeLessThan(120);

    await ctx.deps.flush();
    expect(await scrape()).toMatch(/^analytics_inbox_events 0$/m);
  });
});
