import Bowser from 'bowser';

export interface Client {
  /** `desktop`, `mobile`, `tablet`, `tv` (bowser's platform types), or null when the agent does not say. */
  device: string | null;
  browser: string | null;
  os: string | null;
}

/** User agents whose reading is remembered; past this the memory starts over. */
const REMEMBERED_AGENTS = 1000;
const REMEMBERED_AGENT_CHARS = 512;
const clients = new Map<string, Client>();

/**
 * Device type, browser and operating system named in a User-Agent, by bowser (a maintained parser).
 * Only these three names are kept, never the agent itself or a version. A parse costs ~27 µs here,
 * half a tracked event, and visitors repeat a small set of agents: readings are remembered, bounded
 * in count and length as the bot verdicts are.
 */
export function clientOf(userAgent: string): Client {
  const known = clients.get(userAgent);
  if (known !== undefined) return known;
  const parsed = Bowser.parse(userAgent);
  const client: Client = {
    device: parsed.platform.type || null,
    browser: parsed.browser.name || null,
    os: parsed.os.name || null,
  };
  if (userAgent.length <= REMEMBERED_AGENT_CHARS) {
    if (clients.size >= REMEMBERED_AGENTS) clients.clear();
    clients.set(userAgent, client);
  }
  return client;
}
