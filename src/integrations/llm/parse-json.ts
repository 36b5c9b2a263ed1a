/**
 * Finds the JSON object in a model's answer: the raw text, a ```json fenced block, or the first
 * balanced `{…}` embedded in prose. Returns null when none parses to an object.
 */
export function parseModelJson(text: string): Record<string, unknown> | null {
  const candidates: string[] = [text.trim()];
  for (const match of text.matchAll(/```(?:json|JSON)?\s*\n?([\s\S]*?)```/g))
    candidates.push(match[1]!.trim());
  candidates.push(...balancedObjects(text));
  for (const candidate of candidates) {
    try {
      const value: unknown = JSON.parse(candidate);
      if (value !== null && typeof value === 'object' && !Array.isArray(value))
        return value as Record<string, unknown>;
    } catch {
      // try the next candidate
    }
  }
  return null;
}

/** Every top-level `{…}` span with balanced braces, ignoring braces inside JSON strings. */
function balancedObjects(text: string): string[] {
  const spans: string[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  let escaped = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (ch === '\\') escaped = true;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"' && depth > 0) inString = true;
    else if (ch === '{') {
      if (depth === 0) start = i;
      depth++;
    } else if (ch === '}' && depth > 0) {
      depth--;
      if (depth === 0) spans.push(text.slice(start, i + 1));
    }
  }
  return spans;
}
