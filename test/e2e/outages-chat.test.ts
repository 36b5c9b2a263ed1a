/**
 * Outside outages, part 3: the sales-agent backend (WebSocket) refusing connections, accepting and
 * never upgrading, answering garbage to the upgrade, and upgrading then staying silent, in front of a
 * real server process on PostgreSQL. Every chat stream must end with exactly one `error` event within
 * the relay's time bounds, and the chat must answer again once the agent is back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, postgresAvailable, type TestDatabase } from '../support/database.ts';
import type { ServerProcess } from '../support/process.ts';
import { type StandInAgent, startStandInAgent, streamingAgent } from '../support/sales-agent-stand-in.ts';
import {
  call,
  type FaultMode,
  type FaultSwitch,
  healthcheck,
  readSse,
  startFaultSwitch,
  startInstances,
} from './support.ts';

const hasPostgres = await postgresAvailable();
if (!hasPostgres) console.warn('chat outage e2e skipped: PostgreSQL is not reachable (TEST_DATABASE_URL)');

const CHAT_KEY = 'e2e-chat-key';
const CONNECT_TIMEOUT_MS = 2000;
const IDLE_TIMEOUT_MS = 2000;
const MARGIN_MS = 7000;
const HTTP_GARBAGE = 'HTTP/1.1 200 OK\r\nContent-Length: 7\r\nConnection: close\r\n\r\ngarbage';
const ANSWER = 'An online store starts with a catalogue and a checkout.';
const measured: Record<string, number> = {};

describe.skipIf(!hasPostgres)('outside outages: the sales agent', () => {
  let database: TestDatabase;
  let server: ServerProcess;
  let agent: StandInAgent;
  let agentSwitch: FaultSwitch;
  let session = 0;

  beforeAll(async () => {
    [database, agent] = await Promise.all([
      createTestDatabase('postgres'),
      startStandInAgent(streamingAgent(ANSWER)),
    ]);
    agentSwitch = await startFaultSwitch(Number(new URL(agent.url).port), HTTP_GARBAGE);
    [server] = (await startInstances(1, {
      DATABASE_URL: database.url,
      CHAT_API_SECRET: CHAT_KEY,
      CHAT_RATE_LIMIT: '0',
      SALES_AGENT_WS_URL: agentSwitch.url('ws'),
      SALES_AGENT_CONNECT_TIMEOUT_MS: String(CONNECT_TIMEOUT_MS),
      SALES_AGENT_IDLE_TIMEOUT_MS: String(IDLE_TIMEOUT_MS),
    })) as [ServerProcess];
  }, 60_000);

  afterAll(async () => {
    console.log(`outage durations (ms) ${JSON.stringify(measured)}`);
    await server?.stop();
    await agentSwitch?.close();
    await agent?.close();
    await database?.dispose();
  });

  const ask = (sessionId: string) =>
    readSse(
      `${server.url}/api/chat/stream`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-chat-api-key': CHAT_KEY },
        body: JSON.stringify({ sessionId, query: 'How much is an online store?', language: 'en' }),
      },
      ['done', 'error'],
      60_000,
    );

  const rows: [string, () => Promise<void>, number][] = [
    ['refuse', () => agentSwitch.set('refuse' as FaultMode), CONNECT_TIMEOUT_MS],
    ['hang', () => agentSwitch.set('hang'), CONNECT_TIMEOUT_MS],
    ['garbage', () => agentSwitch.set('garbage'), CONNECT_TIMEOUT_MS],
    // Connected, then silent: the idle bound ends it.
    ['silent', async () => agent.setBehaviour(() => {}), IDLE_TIMEOUT_MS],
  ];

  it.each(rows)(
    'agent %s: one `error` event within the bound, then answers again',
    async (mode, breakIt, bound) => {
      const sessionId = `e2e-outage-${mode}-${session++}`;
      await breakIt();
      try {
        const stream = await ask(sessionId);
        measured[`agent ${mode}`] = Math.round(stream.ms);
        expect(stream.ms).toBeLessThan(bound + MARGIN_MS);
        expect(stream.status).toBe(200);
        expect(stream.contentType).toContain('text/event-stream');
        const endings = stream.events.filter((event) => event.event === 'done' || event.event === 'error');
        expect(endings.map((event) => event.event)).toEqual(['error']);
        expect((JSON.parse(endings[0]!.data) as { message: string }).message).toBeTruthy();
        expect(await healthcheck(server.port)).toBe(0);
      } finally {
        await agentSwitch.set('up');
        agent.setBehaviour(streamingAgent(ANSWER));
      }
      // No half answer was kept for the session.
      const history = await call(`${server.url}/api/chat/${sessionId}/history`, {
        headers: { 'x-chat-api-key': CHAT_KEY },
      });
      expect((history.body!.messages as { role: string }[]).filter((m) => m.role === 'assistant')).toEqual(
        [],
      );
      const again = await ask(`${sessionId}-after`);
      expect(again.events.at(-1)?.event).toBe('done');
      expect((JSON.parse(again.events.at(-1)!.data) as { content: string }).content).toBe(ANSWER);
    },
    40_000,
  );
});
