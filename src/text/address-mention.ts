/**
 * Finding one person's e-mail address in stored text (a queued job's payload, an e-mail's body, a
 * chat message) without taking someone else's: `ana@example.co` is inside `juana@example.com`, and
 * both LIKE and a plain substring search would say it is there. SQL narrows the rows with
 * `mentionPatterns`, then `mentionsAddress` checks each match is the whole address. Both also find
 * the address as a URL carries it (`ana%40example.co`, a plus as `%2B`): a form link or a redirect
 * pasted into a chat holds it so.
 */

/** A LIKE pattern (with `escape '\'`) for text containing `value` anywhere; `_` and `%` are literal. */
export function containsPattern(value: string): string {
  return `%${value.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}

// What may stand right before an address's local part, or continue its domain, as part of it.
const LOCAL_PART_CHAR = /[\p{L}\p{N}._%+-]/u;
const DOMAIN_CHAR = /[\p{L}\p{N}-]/u;

/** LIKE patterns for lower-cased text holding `address` (lower-cased) as written or percent-encoded. */
export function mentionPatterns(address: string): string[] {
  return [containsPattern(address), containsPattern(percentEncoded(address))];
}

function percentEncoded(address: string): string {
  return address.replaceAll('+', '%2b').replace('@', '%40');
}

/** True when `text` holds `address` (lower-cased) as a whole address, in any letter case, or percent-encoded. */
export function mentionsAddress(text: string, address: string): boolean {
  if (!address) return false;
  const lower = text.toLowerCase();
  return (
    holdsWhole(lower, address) ||
    (lower.includes('%40') && holdsWhole(lower.replaceAll('%40', '@').replaceAll('%2b', '+'), address))
  );
}

function holdsWhole(haystack: string, address: string): boolean {
  for (let at = haystack.indexOf(address); at >= 0; at = haystack.indexOf(address, at + 1)) {
    const before = haystack[at - 1] ?? '';
    const next = haystack[at + address.length] ?? '';
    const afterNext = haystack[at + address.length + 1] ?? '';
    const startsHere = before === '' || !LOCAL_PART_CHAR.test(before);
    // A full stop ends a sentence unless a domain label follows it (`ana@example.co.uk`).
    const endsHere = !DOMAIN_CHAR.test(next) && !(next === '.' && DOMAIN_CHAR.test(afterNext));
    if (startsHere && endsHere) return true;
  }
  return false;
}

/** Anything shaped like an e-mail address, as an outside service's error message may quote one. */
const ANY_ADDRESS = /[^\s<>"'`,;:()[\]]+@[^\s<>"'`,;:()[\]]+/gu;

/** `text` with every address in it as `<address>`: for log lines, which must name nobody. */
export function maskAddresses(text: string): string {
  return text.replace(ANY_ADDRESS, '<address>');
}
