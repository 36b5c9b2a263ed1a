/**
 * Tiny DOM helpers. Every piece of text goes in through textContent or attribute setters, never
 * through innerHTML: lead data can hold anything and must render as text.
 */

/**
 * Bidi embeddings, overrides and isolates (U+202A–202E, U+2066–2069) reorder the text after them:
 * a lead named "\u202Emoc.elgoog@nimda" would read "admin@google.com". Text shown here carries them
 * as visible markers (`[U+202E]`) instead; the stored data is unchanged.
 */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/g;
export const visible = (text) =>
  text.replace(BIDI_CONTROLS, (c) => `[U+${c.charCodeAt(0).toString(16).toUpperCase()}]`);

/**
 * el('td', { class: 'x', 'data-label': 'Name' }, 'text', childNode, …)
 * Attributes: `class`, `on*` functions as listeners, `hidden`/`disabled` booleans, anything else via setAttribute.
 */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  setAttrs(node, attrs);
  append(node, children);
  return node;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  setAttrs(node, attrs);
  append(node, children);
  return node;
}

function setAttrs(node, attrs) {
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function') {
      node.addEventListener(name.slice(2), value);
    } else if (value === true) {
      node.setAttribute(name, '');
    } else {
      node.setAttribute(name, visible(String(value)));
    }
  }
}

export function append(node, children) {
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(visible(String(child))));
  }
}

export function clear(node) {
  node.replaceChildren();
  return node;
}

export const $ = (selector, root = document) => root.querySelector(selector);
export const $$ = (selector, root = document) => [...root.querySelectorAll(selector)];

/** Shows a status line (loading, empty, error) in a `.state` box; `null` hides it. */
export function showState(node, message, kind = 'info') {
  if (message === null) {
    node.hidden = true;
    node.textContent = '';
    return;
  }
  node.hidden = false;
  node.className = kind === 'error' ? 'state error' : 'state';
  node.setAttribute('role', kind === 'error' ? 'alert' : 'status');
  node.textContent = message;
}

/**
 * A `.pager`'s Previous and Next buttons: they move `state.page` and call `show()` again.
 * `showPage` writes its "Page 2 of 5 · 120 leads" line and disables the buttons at either end.
 */
export function wirePager(pager, state, show) {
  $(`${pager} [data-page="prev"]`).addEventListener('click', () => {
    state.page = Math.max(1, state.page - 1);
    void show();
  });
  $(`${pager} [data-page="next"]`).addEventListener('click', () => {
    state.page += 1;
    void show();
  });
}

export function showPage(pager, { page, totalPages, total }, noun) {
  const pages = Math.max(1, totalPages);
  $(`${pager} .page-info`).textContent = `Page ${page} of ${pages} · ${formatNumber(total)} ${noun}`;
  $(`${pager} [data-page="prev"]`).disabled = page <= 1;
  $(`${pager} [data-page="next"]`).disabled = page >= pages;
}

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
// Analytics days are UTC days: format them in UTC so a day never shows as the one before.
const dateOnly = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' });
const numberFormat = new Intl.NumberFormat();

/** An instant in the operator's locale and time zone, as a <time> element. */
export function timeEl(iso) {
  if (!iso) return el('span', { class: 'muted' }, '—');
  const date = new Date(iso);
  return el('time', { datetime: iso, title: iso }, dateTime.format(date));
}

export const formatDay = (isoDay) => dateOnly.format(new Date(`${isoDay}T00:00:00Z`));
export const formatNumber = (n) => numberFormat.format(n);

/** `build-website` → `Build website`, `realEstate` → `Real estate`. */
export function humanize(value) {
  if (/^b2[bc]$/i.test(String(value))) return String(value).toUpperCase();
  const spaced = String(value)
    .replace(/[-_]+/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

export function badge(value, label = humanize(value)) {
  return el('span', { class: `badge ${String(value).replace(/[^a-z-]/gi, '')}` }, label);
}
