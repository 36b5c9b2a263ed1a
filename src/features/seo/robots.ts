import { SEO_LIMITS } from './limits.ts';

/**
 * robots.txt as Google reads it (RFC 9309): the group for the most specific matching user agent (or
 * `*`), the longest matching rule wins, `allow` wins a tie, `*` and `$` are wildcards. Patterns and
 * paths are compared in one percent-encoded form (`normalizeRobotsPath`).
 */
export interface RobotsTxt {
  groups: { agents: string[]; rules: RobotsRule[] }[];
  sitemaps: string[];
}

export interface RobotsRule {
  allow: boolean;
  /** The pattern as normalised: its length is the rule's priority. */
  pattern: string;
  /** The pattern cut at its `*`s (without a final `$`), each piece with its KMP failure table. */
  pieces: { text: string; failure: Int32Array }[];
  /** A final `$`: the path must end where the pattern does. */
  anchored: boolean;
}

/** Work done by the matcher, counted by a caller that wants to know (tests: it must stay linear). */
export interface RobotsWork {
  steps: number;
}

const HEX_DIGIT = /^[0-9A-Fa-f]$/;

/**
 * A robots.txt path or pattern in the form both are compared in, as Google's robots.txt parser
 * writes them (its MaybeEscapePattern): each non-ASCII character as its UTF-8 bytes in `%XX`, each
 * `%xx` escape with upper-case hex digits, everything else as it was (a reserved character stays
 * encoded or not, as written: `%2F` is not `/`). So `Disallow: /diseño` blocks `/dise%C3%B1o-web`,
 * the path a browser requests, and `/dise%c3%b1o` does too. One pass over the text.
 */
export function normalizeRobotsPath(value: string): string {
  let out = '';
  let from = 0;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code === 0x25 /* % */) {
      const a = value[i + 1] ?? '';
      const b = value[i + 2] ?? '';
      if (HEX_DIGIT.test(a) && HEX_DIGIT.test(b)) {
        out += `${value.slice(from, i)}%${a.toUpperCase()}${b.toUpperCase()}`;
        i += 2;
        from = i + 1;
      }
    } else if (code >= 0x80) {
      const pair = code >= 0xd800 && code <= 0xdbff ? value.charCodeAt(i + 1) : Number.NaN;
      const whole = pair >= 0xdc00 && pair <= 0xdfff;
      // A lone surrogate has no UTF-8 form: U+FFFD, as an encoder writes it.
      const char = whole ? value.slice(i, i + 2) : code >= 0xd800 && code <= 0xdfff ? '\uFFFD' : value[i]!;
      out += `${value.slice(from, i)}${encodeURIComponent(char)}`;
      if (whole) i++;
      from = i + 1;
    }
  }
  return from === 0 ? value : out + value.slice(from);
}

/** KMP's failure table of a piece: the longest proper prefix that is also a suffix, per length. */
function failureTable(piece: string): Int32Array {
  const failure = new Int32Array(piece.length + 1);
  failure[0] = -1;
  let k = -1;
  for (let i = 0; i < piece.length; i++) {
    while (k >= 0 && piece[k] !== piece[i]) k = failure[k]!;
    failure[i + 1] = ++k;
  }
  return failure;
}

function compileRule(allow: boolean, raw: string): RobotsRule {
  const pattern = normalizeRobotsPath(raw);
  const anchored = pattern.endsWith('$');
  const pieces = (anchored ? pattern.slice(0, -1) : pattern)
    .split('*')
    .map((text) => ({ text, failure: failureTable(text) }));
  return { allow, pattern, pieces, anchored };
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
      current.rules.push(compileRule(field === 'allow', value));
      ruleCount++;
    }
  }
  return { groups, sitemaps };
}

/**
 * Where `piece` first occurs in `text` at or after `from` (-1 if nowhere), by Knuth–Morris–Pratt:
 * each character of the text is looked at a bounded number of times, whatever the two hold
 * (`indexOf` may compare the same characters again at every position).
 */
function findPiece(
  text: string,
  piece: RobotsRule['pieces'][number],
  from: number,
  work: RobotsWork,
): number {
  const { text: p, failure } = piece;
  if (p.length === 0) return from <= text.length ? from : -1;
  let k = 0;
  for (let i = from; i < text.length; i++) {
    work.steps++;
    while (k >= 0 && p[k] !== text[i]) {
      k = failure[k]!;
      work.steps++;
    }
    if (++k === p.length) return i - p.length + 1;
  }
  return -1;
}

/**
 * Whether a rule's pattern matches the path: a prefix match where `*` stands for any run of
 * characters and a final `$` anchors the end. Matched without a regular expression (the site writes
 * both the pattern and the path, and `.*` per star backtracks exponentially): each piece between
 * stars is found at its leftmost place after the previous one, which leaves the most room for the
 * rest; the searches go forward through the path, so one rule costs its length plus the path's.
 */
function robotsPatternMatches(rule: RobotsRule, path: string, work: RobotsWork): boolean {
  const { pieces, anchored } = rule;
  const first = pieces[0]!.text;
  work.steps += first.length;
  if (pieces.length === 1) return anchored ? path === first : path.startsWith(first);
  if (!path.startsWith(first)) return false;
  let position = first.length;
  const last = pieces.length - 1;
  for (let i = 1; i < last; i++) {
    const found = findPiece(path, pieces[i]!, position, work);
    if (found < 0) return false;
    position = found + pieces[i]!.text.length;
  }
  const tail = pieces[last]!;
  if (anchored) {
    work.steps += tail.text.length;
    return path.length - tail.text.length >= position && path.endsWith(tail.text);
  }
  return findPiece(path, tail, position, work) >= 0;
}

/**
 * Whether `agent` may fetch `pathAndQuery` under these rules. The path is normalised as the
 * patterns were (`normalizeRobotsPath`); `work` counts what the matching cost.
 */
export function robotsAllows(
  robots: RobotsTxt,
  agent: string,
  pathAndQuery: string,
  work: RobotsWork = { steps: 0 },
): boolean {
  const token = agent.toLowerCase();
  const specific = robots.groups.filter((g) => g.agents.some((a) => a !== '*' && a === token));
  const groups = specific.length > 0 ? specific : robots.groups.filter((g) => g.agents.includes('*'));
  const path = normalizeRobotsPath(pathAndQuery);
  work.steps += pathAndQuery.length;
  let best: { allow: boolean; length: number } | null = null;
  for (const group of groups) {
    for (const rule of group.rules) {
      if (!robotsPatternMatches(rule, path, work)) continue;
      const length = rule.pattern.length;
      if (!best || length > best.length || (length === best.length && rule.allow))
        best = { allow: rule.allow, length };
    }
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
