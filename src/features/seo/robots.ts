/**
 * robots.txt as Google reads it (RFC 9309): the group for the most specific matching user agent (or
 * `*`), the longest matching rule wins, `allow` wins a tie, `*` and `$` are wildcards.
 */
export interface RobotsTxt {
  groups: { agents: string[]; rules: { allow: boolean; pattern: string }[] }[];
  sitemaps: string[];
}

export function parseRobots(text: string): RobotsTxt {
  const groups: RobotsTxt['groups'] = [];
  const sitemaps: string[] = [];
  let current: RobotsTxt['groups'][number] | null = null;
  let lastWasAgent = false;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/#.*$/, '').trim();
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const field = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (field === 'user-agent') {
      if (!current || !lastWasAgent) {
        current = { agents: [], rules: [] };
        groups.push(current);
      }
      // The product token: "Googlebot/2.1" names googlebot (RFC 9309 matches the token exactly).
      current.agents.push(value.toLowerCase().split('/')[0]!.trim());
      lastWasAgent = true;
      continue;
    }
    lastWasAgent = false;
    if (field === 'sitemap' && value) sitemaps.push(value);
    else if ((field === 'allow' || field === 'disallow') && current) {
      // An empty Disallow allows everything: it adds no rule.
      if (value !== '') current.rules.push({ allow: field === 'allow', pattern: value });
    }
  }
  return { groups, sitemaps };
}

function patternMatches(pattern: string, path: string): boolean {
  const anchored = pattern.endsWith('$');
  const body = anchored ? pattern.slice(0, -1) : pattern;
  const source = body
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${source}${anchored ? '$' : ''}`).test(path);
}

/** Whether `agent` may fetch `pathAndQuery` under these rules. */
export function robotsAllows(robots: RobotsTxt, agent: string, pathAndQuery: string): boolean {
  const token = agent.toLowerCase();
  const specific = robots.groups.filter((g) => g.agents.some((a) => a !== '*' && a === token));
  const groups = specific.length > 0 ? specific : robots.groups.filter((g) => g.agents.includes('*'));
  let best: { allow: boolean; length: number } | null = null;
  for (const rule of groups.flatMap((g) => g.rules)) {
    if (!patternMatches(rule.pattern, pathAndQuery)) continue;
    const length = rule.pattern.length;
    if (!best || length > best.length || (length === best.length && rule.allow))
      best = { allow: rule.allow, length };
  }
  return best?.allow ?? true;
}
