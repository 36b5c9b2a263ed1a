import { SEO_LIMITS } from './limits.ts';

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
  let ruleCount = 0;
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
      // An empty Disallow allows everything: it adds no rule. The site writes the rules and each one
      // is matched against the path, so an over-long pattern, or any rule past the cap, is dropped.
      if (value === '' || value.length > SEO_LIMITS.robotsPatternMaxChars) continue;
      if (ruleCount >= SEO_LIMITS.robotsMaxRules) continue;
      current.rules.push({ allow: field === 'allow', pattern: value });
      ruleCount++;
    }
  }
  return { groups, sitemaps };
}

/**
 * Whether a rule's pattern matches the path: a prefix match where `*` stands for any run of
 * characters and a final `$` anchors the end. Matched without a regular expression (the site writes
 * both the pattern and the path, and `.*` per star backtracks exponentially): each piece between
 * stars is found at its leftmost place after the previous one, which leaves the most room for the
 * rest, so one pass with `indexOf` decides.
 */
function robotsPatternMatches(pattern: string, path: string): boolean {
  const anchored = pattern.endsWith('$');
  const pieces = (anchored ? pattern.slice(0, -1) : pattern).split('*');
  const first = pieces[0]!;
  if (pieces.length === 1) return anchored ? path === first : path.startsWith(first);
  if (!path.startsWith(first)) return false;
  let position = first.length;
  const last = pieces.length - 1;
  for (let i = 1; i < last; i++) {
    const found = path.indexOf(pieces[i]!, position);
    if (found < 0) return false;
    position = found + pieces[i]!.length;
  }
  const tail = pieces[last]!;
  if (anchored) return path.length - tail.length >= position && path.endsWith(tail);
  return path.indexOf(tail, position) >= 0;
}

/** Whether `agent` may fetch `pathAndQuery` under these rules. */
export function robotsAllows(robots: RobotsTxt, agent: string, pathAndQuery: string): boolean {
  const token = agent.toLowerCase();
  const specific = robots.groups.filter((g) => g.agents.some((a) => a !== '*' && a === token));
  const groups = specific.length > 0 ? specific : robots.groups.filter((g) => g.agents.includes('*'));
  let best: { allow: boolean; length: number } | null = null;
  for (const rule of groups.flatMap((g) => g.rules)) {
    if (!robotsPatternMatches(rule.pattern, pathAndQuery)) continue;
    const length = rule.pattern.length;
    if (!best || length > best.length || (length === best.length && rule.allow))
      best = { allow: rule.allow, length };
  }
  return best?.allow ?? true;
}

/** Robots directives written `name: value`, which name no crawler. */
const VALUED_ROBOTS_DIRECTIVES = new Set([
  'max-snippet',
  'max-image-preview',
  'max-video-preview',
  'unavailable_after',
]);

/**
 * Whether robots directives (`<meta name="robots">` or `X-Robots-Tag`, comma-separated) keep the page
 * out of the index: `noindex` or `none` as a whole directive (not inside `max-image-preview:none`),
 * for every crawler or for Googlebot (`otherbot: noindex` is another crawler's business).
 */
export function blocksIndexing(directives: string): boolean {
  let crawler: string | null = null;
  for (const raw of directives.toLowerCase().split(',')) {
    let directive = raw.trim();
    // "googlebot: noindex, nofollow" names the crawler for the directives that follow it. Split at
    // the colon rather than with one regex: `\s*:\s*(.*)$` backtracks quadratically on a long run
    // of spaces before a line break, and the page writes this text.
    const colon = directive.indexOf(':');
    const name = colon < 0 ? '' : directive.slice(0, colon).trimEnd();
    if (/^[a-z][\w-]*$/.test(name) && !VALUED_ROBOTS_DIRECTIVES.has(name)) {
      crawler = name;
      directive = directive.slice(colon + 1).trim();
    }
    if (crawler !== null && crawler !== 'googlebot' && crawler !== 'all') continue;
    if (directive === 'noindex' || directive === 'none') return true;
  }
  return false;
}
