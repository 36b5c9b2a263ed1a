/**
 * Orders strings by code point, as SQLite's BINARY collation and PostgreSQL's "C" do: JavaScript's
 * `<` compares UTF-16 units, which puts U+E000–U+FFFF after astral characters. Surrogates are moved
 * above the rest of the BMP for the comparison.
 */
export function byCodePoint(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return weight(x) - weight(y);
  }
  return a.length - b.length;
}

const weight = (unit: number) => (unit >= 0xd800 ? (unit >= 0xe000 ? unit - 0x800 : unit + 0x2000) : unit);

/**
 * The first `top` of `rows` by `score` (descending), ties by value in code point order. Rollups are
 * read once per dimension, every value of the range, and ranked here: one scan serves a list, its
 * distinct count and (for visits) a second order, where SQL needed a scan for each.
 */
export function topBy<T extends { value: string }>(rows: T[], score: (row: T) => number, top: number): T[] {
  return rows
    .filter((row) => score(row) > 0)
    .sort((a, b) => score(b) - score(a) || byCodePoint(a.value, b.value))
    .slice(0, top);
}
