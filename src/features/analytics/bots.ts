import { isbot } from 'isbot';

/** User agents whose verdict is remembered; past this the memory starts over. */
const REMEMBERED_AGENTS = 1000;
/** Longer user agents are checked every time instead of kept. */
const REMEMBERED_AGENT_CHARS = 512;

const verdicts = new Map<string, boolean>();

/**
 * Whether a user agent is a bot (isbot's maintained list; an empty one too, as no browser sends
 * that). isbot tests one large regular expression; visitors and crawlers repeat a small set of user
 * agents, so the verdicts are remembered (bounded in count and length).
 */
export function isBotAgent(userAgent: string): boolean {
  if (userAgent === '') return true;
  const known = verdicts.get(userAgent);
  if (known !== undefined) return known;
  const bot = isbot(userAgent);
  if (userAgent.length <= REMEMBERED_AGENT_CHARS) {
    if (verdicts.size >= REMEMBERED_AGENTS) verdicts.clear();
    verdicts.set(userAgent, bot);
  }
  return bot;
}
