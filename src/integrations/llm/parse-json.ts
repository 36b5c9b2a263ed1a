/**
 * Finds the JSON object in a model's answer: the raw text, a ```json fenced block, or a balanced
 * `{…}` embedded in prose (the outermost first). Returns null when none parses to an object.
 */
export function parseModelJson(text: string): Record<string, unknown> | null {
  const candidates: string[] = [text.trim()];
  for (const match of text.matchAll(/```(?:json|JSON)?\s*\n?([\s\S]*?)```/g))
    candidates.push(match[1]!.trim());
  for (const candidate of candidates) {
    const value = parseObject(candidate);
    if (value) return value;
  }
  for (const span of embeddedObjects(text)) {
    const value = parseObject(span);
    if (value) return value;
  }
  return null;
}

function parseObject(candidate: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(candidate);
    if (value !== null && typeof value === 'object' && !Array.isArray(value))
      return value as Record<string, unknown>;
  } catch {
    // not JSON
  }
  return null;
}

/** Characters the search for embedded objects may read in all (an answer is a few kB; a hostile one is not). */
const EMBEDDED_SCAN_BUDGET = 4_000_000;

/**
 * The balanced `{…}` span starting at each `{` of the text, in order, ignoring braces inside JSON
 * strings. Every `{` is a start, not only those at depth 0: a stray `{` or quote in the prose before
 * the object ("use the {path} field", a `<think>` block) would otherwise swallow it, and an outer
 * span that is not JSON ("{Answer: {…}}") would hide the object inside it.
 */
function* embeddedObjects(text: string): Generator<string> {
  let budget = EMBEDDED_SCAN_BUDGET;
  for (let start = text.indexOf('{'); start !== -1 && budget > 0; start = text.indexOf('{', start + 1)) {
    const end = balancedEnd(text, start, start + budget);
    budget -= (end === -1 ? Math.min(text.length, start + budget) : end + 1) - start;
    if (end !== -1) yield text.slice(start, end + 1);
  }
}

/** The index of the `}` closing the `{` at `start`, or -1 (none before `limit`). */
function balancedEnd(text: string, start: number, limit: number): number {
  let depth = 0;
  let inString = false;
  let escaped = false;
  for (let i = start; i < text.length && i < limit; i++) {
    const ch = text[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (ch === '\\') escaped = true;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === '{') depth++;
    else if (ch === '}' && --depth === 0) return i;
  }
  return -1;
}
