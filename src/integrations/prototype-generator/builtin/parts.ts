import { esc } from '../html.ts';
import { icon } from './icons.ts';
import type { PageModel } from './model.ts';
import { stylesheet } from './styles.ts';

/** The small banner that says whose draft this is, with the goal in the lead's own words. */
export function ribbon(m: PageModel): string {
  const r = m.ui.ribbon;
  const who = m.preparedFor
    ? `<span>${esc(r.preparedFor)} <strong>${esc(m.preparedFor)}</strong></span>`
    : '';
  const goal = m.goal ? `<span>· ${esc(r.goal)}: <q>${esc(m.goal)}</q></span>` : '';
  return `<div class="ribbon"><span class="tag">${esc(r.label)}</span>${who}${goal}</div>`;
}

export function stars(): string {
  return `<div class="stars">${icon('star', 16).repeat(5)}</div>`;
}

/** A complete, self-contained HTML document: inline CSS, no script, nothing fetched. */
export function document(m: PageModel, kind: 'landing' | 'application', body: string): string {
  const title = `${m.brand} — ${m.ui.ribbon.label}`;
  return `<!doctype html>
<html lang="${m.language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<meta name="generator" content="agency-backend built-in prototype generator (${kind}, ${m.theme.id})">
<title>${esc(title)}</title>
<link rel="icon" href="data:,">
<style>
${stylesheet(m.theme, kind)}
</style>
</head>
<body class="${kind} style-${m.theme.id}">
${body}
</body>
</html>
`;
}
