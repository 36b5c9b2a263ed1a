/**
 * `node bench/track-cpu.ts [--against DIR [--against-start "node src/main.ts"]] [--rounds N]`: the
 * server's CPU time per committed `POST /api/analytics/track` at saturation (the track scenario of
 * `npm run bench`, 50 connections, 8 s after 2 s of warm-up; user + system time of the server over
 * the requests it answered 202, and a read of the stats after them, which folds the events still
 * waiting in the inbox). Throughput on a shared machine moves with the other tenants; CPU per
 * request moves much less, so this is how a change to the write path is compared with the code before
 * it: `--against` names a checkout of that code (its dependencies installed), started with its own
 * start command, and the two are measured in alternate rounds on fresh SQLite databases.
 *
 * `--visitors N` sends the traffic of a busy site instead of one visitor's page views: N visitors
 * (one User-Agent each, so one daily hash each) among 211 pages, five UTM sources, nine campaigns and
 * four referrers. Each commit then carries many visitors' events, so it writes as many visits and
 * far more rollup rows than the one visitor of `npm run bench`'s scenario.
 */
import { rmSync } from 'node:fs';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { APP, cpuMs, start, stop } from './process.ts';
import { scenarios } from './scenarios.ts';

const { values } = parseArgs({
  options: {
    against: { type: 'string' },
    'against-start': { type: 'string', default: 'node src/main.ts' },
    rounds: { type: 'string', default: '3' },
    visitors: { type: 'string' },
    duration: { type: 'string', default: '8' },
  },
});
const track = scenarios.find((s) => s.path === '/api/analytics/track')!;
const CONNECTIONS = 50;
const WARM_UP_SECONDS = 2;

interface Candidate {
  name: string;
  cwd?: string;
  args: string[];
}
const candidates: Candidate[] = [{ name: 'this checkout', args: APP }];
if (values.against) {
  candidates.push({
    name: values.against,
    cwd: values.against,
    args: values['against-start']!.split(' ').slice(1),
  });
}

const REFERRERS = ['https://www.google.com/', 'https://t.co/x', '', 'https://news.ycombinator.com/'];
let sent = 0;
/** The `--visitors` traffic: request k's visitor, page, tags and referrer all follow from k. */
function busySiteRequest(visitors: number) {
  const k = ++sent;
  const visitor = k % visitors;
  return {
    headers: {
      'content-type': 'text/plain;charset=UTF-8',
      'user-agent': `Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.${visitor}.0 Safari/537.36`,
    },
    body: JSON.stringify({
      type: 'page_view',
      page: `https://agency.example/page/${(k * 7) % 211}?utm_source=s${k % 5}&utm_campaign=c${k % 9}`,
      referrer: REFERRERS[k % REFERRERS.length],
      title: 'Page',
    }),
  };
}

async function load(url: string, seconds: number) {
  const visitors = values.visitors === undefined ? 0 : Number(values.visitors);
  const result = await autocannon({
    url: `${url}${track.path}`,
    method: track.method,
    body: track.body,
    headers: { 'content-type': 'application/json', ...track.headers },
    connections: CONNECTIONS,
    duration: seconds,
    ...(visitors > 0
      ? {
          requests: [
            { method: 'POST', setupRequest: (request) => ({ ...request, ...busySiteRequest(visitors) }) },
          ],
        }
      : {}),
  });
  return { answered: result['2xx'], other: result.non2xx + result.errors };
}

/**
 * Events are folded into visits and rollups up to a second after they are answered; a read of the
 * stats folds what is left. Read before and after the measured load, so that the CPU counted is
 * its events', fold included, no earlier one's, and one stats report's (a few milliseconds, alike
 * for both checkouts).
 */
async function readStats(url: string) {
  const stats = await fetch(`${url}/api/analytics/stats`);
  if (!stats.ok) throw new Error(`GET /api/analytics/stats answered ${stats.status}`);
  await stats.arrayBuffer();
}

const results = new Map<string, string[]>(candidates.map((c) => [c.name, []]));
const perRequestOf = new Map<string, number[]>(candidates.map((c) => [c.name, []]));
for (let round = 0; round < Number(values.rounds); round++) {
  // ABBA: each candidate goes first in every other round, so neither always meets the machine second.
  for (const candidate of round % 2 === 0 ? candidates : [...candidates].reverse()) {
    const db = `/tmp/track-cpu-${process.pid}.db`;
    rmSync(db, { force: true });
    const app = await start(
      candidate.args,
      { DATABASE_URL: `sqlite:${db}`, ...track.env },
      { cwd: candidate.cwd },
    );
    await load(app.url, WARM_UP_SECONDS);
    await readStats(app.url);
    const before = cpuMs(app.child.pid!);
    const { answered, other } = await load(app.url, Number(values.duration));
    await readStats(app.url);
    const used = cpuMs(app.child.pid!) - before;
    await stop(app.child);
    rmSync(db, { force: true });
    const perRequest = (used * 1000) / answered;
    perRequestOf.get(candidate.name)!.push(perRequest);
    results
      .get(candidate.name)!
      .push(
        `${perRequest.toFixed(1)} µs (${(answered / Number(values.duration)).toFixed(0)} req/s${other ? `, ${other} not 2xx` : ''})`,
      );
    console.log(`round ${round + 1} ${candidate.name}: ${results.get(candidate.name)!.at(-1)}`);
  }
}
console.log(`\nserver CPU per tracked event, ${new Date().toISOString()}`);
for (const [name, runs] of results) console.log(`${name}: ${runs.join(', ')}`);
const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length / 2;
  return Number.isInteger(mid) ? (sorted[mid - 1]! + sorted[mid]!) / 2 : sorted[Math.floor(mid)]!;
};
const medians = candidates.map((c) => median(perRequestOf.get(c.name)!));
console.log(`medians: ${candidates.map((c, i) => `${c.name} ${medians[i]!.toFixed(1)} µs`).join(', ')}`);
if (medians.length === 2)
  console.log(`this checkout / ${candidates[1]!.name}: ${(medians[0]! / medians[1]!).toFixed(2)}`);
