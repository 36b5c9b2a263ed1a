/** HTML escaping for text and attribute values: every piece of lead text goes through `esc`. */
const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};

export function esc(value: unknown): string {
  return String(value ?? '').replace(/[&<>"'`]/g, (ch) => ENTITIES[ch] ?? ch);
}

/** Collapses whitespace and cuts a lead-supplied string to `max` characters (on a word when it can). */
export function clip(value: string | null | undefined, max: number): string {
  const text = (value ?? '').replace(/\s+/g, ' ').trim();
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
