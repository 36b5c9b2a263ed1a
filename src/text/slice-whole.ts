/**
 * The first `max` UTF-16 units of `text`, one fewer when the cut would split an astral character
 * (an emoji) in two: half of one is a lone surrogate, which is not text and which strict JSON
 * readers refuse.
 */
export function sliceWhole(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}
