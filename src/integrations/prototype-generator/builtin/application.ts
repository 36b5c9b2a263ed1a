import { esc } from '../html.ts';
import { type IconName, icon } from './icons.ts';
import { initialsOf, type PageModel } from './model.ts';
import { document, ribbon } from './parts.ts';

interface NavItem {
  icon: IconName;
  label: string;
  count?: number;
}

/** The sidebar: the dashboard, the industry's records, then one entry per feature the lead asked for. */
export function appNavigation(m: PageModel): NavItem[] {
  const a = m.ui.app;
  const f = m.features.ids;
  const items: NavItem[] = [
    { icon: 'grid', label: a.dashboard },
    { icon: 'users', label: m.pack.entity.many, count: 12 },
  ];
  if (f.has('booking')) items.push({ icon: 'calendar', label: a.calendar });
  if (f.has('shop')) items.push({ icon: 'package', label: a.products });
  if (f.has('invoices')) items.push({ icon: 'dollar', label: a.invoices });
  if (f.has('messaging') || f.has('chat')) items.push({ icon: 'message', label: a.messages, count: 3 });
  if (f.has('blog')) items.push({ icon: 'file', label: a.content });
  if (f.has('analytics') || items.length < 4) items.push({ icon: 'chart', label: a.reports });
  if (f.has('team')) items.push({ icon: 'briefcase', label: a.team });
  return items;
}

/** Twelve points of a smooth-ish series, stable for one lead. */
function series(seed: number, base: number, spread: number): number[] {
  const points: number[] = [];
  let value = base;
  let s = seed || 1;
  for (let i = 0; i < 12; i++) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    value += ((s % 1000) / 1000 - 0.35) * spread;
    points.push(Math.max(10, Math.min(180, value)));
  }
  return points;
}

function chart(m: PageModel): string {
  const w = 640;
  const h = 290;
  const now = series(m.seed, 60, 26);
  const last = series(m.seed ^ 0x5bd1e995, 55, 18);
  const x = (i: number) => 20 + (i * (w - 40)) / 11;
  const y = (v: number) => h - 30 - v * 1.2;
  const line = (pts: number[]) =>
    pts.map((v, i) => `${i === 0 ? 'M' : 'L'}${x(i).toFixed(1)} ${y(v).toFixed(1)}`).join(' ');
  const area = `${line(now)} L${x(11)} ${h - 30} L${x(0)} ${h - 30} Z`;
  const grid = [0, 1, 2, 3]
    .map(
      (i) =>
        `<line x1="20" x2="${w - 20}" y1="${20 + i * 60}" y2="${20 + i * 60}" stroke="var(--border)" stroke-opacity=".7" stroke-dasharray="4 6"/>`,
    )
    .join('');
  const labels = m.ui.app.months
    .map(
      (mo, i) =>
        `<text x="${x(i)}" y="${h - 8}" text-anchor="middle" font-size="11" fill="var(--muted)">${esc(mo)}</text>`,
    )
    .join('');
  const lastPoint = now[11]!;
  return `<svg viewBox="0 0 ${w} ${h}" role="img" aria-label="${esc(m.ui.app.chartTitle)}">
<defs><linearGradient id="fill" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="var(--c1)" stop-opacity=".28"/><stop offset="1" stop-color="var(--c1)" stop-opacity="0"/></linearGradient></defs>
${grid}<path d="${area}" fill="url(#fill)"/><path d="${line(last)}" fill="none" stroke="var(--c2)" stroke-width="2" stroke-dasharray="6 6"/>
<path d="${line(now)}" fill="none" stroke="var(--c1)" stroke-width="3" stroke-linejoin="round"/>
<circle cx="${x(11)}" cy="${y(lastPoint).toFixed(1)}" r="5" fill="var(--surface)" stroke="var(--c1)" stroke-width="3"/>${labels}</svg>`;
}

function sparkline(seed: number, up: boolean): string {
  const pts = series(seed, 60, 30);
  const min = Math.min(...pts);
  const span = Math.max(1, Math.max(...pts) - min);
  // Scaled to the box; a falling KPI's line is drawn going down.
  const yOf = (v: number) => 30 - ((up ? v - min : span - (v - min)) / span) * 26;
  const path = pts
    .map((v, i) => `${i === 0 ? 'M' : 'L'}${((i * 100) / 11).toFixed(1)} ${yOf(v).toFixed(1)}`)
    .join(' ');
  return `<svg viewBox="0 0 100 34" preserveAspectRatio="none"><path d="${path}" fill="none" stroke="${up ? 'var(--c1)' : '#ef4444'}" stroke-width="2" vector-effect="non-scaling-stroke"/></svg>`;
}

function sidebar(m: PageModel): string {
  const nav = appNavigation(m)
    .map(
      (item, i) =>
        `<a href="#" class="${i === 0 ? 'on' : ''}">${icon(item.icon, 19)}<span>${esc(item.label)}</span>${item.count ? `<span class="count">${item.count}</span>` : ''}</a>`,
    )
    .join('');
  const a = m.ui.app;
  return `<aside class="app-sidebar"><div class="app-brand"><span class="mark">${esc(m.initials)}</span><span>${esc(m.brand)}</span></div>
<nav class="app-nav"><div class="nav-label">${esc(a.menu)}</div>${nav}<a href="#">${icon('settings', 19)}<span>${esc(a.settings)}</span></a></nav>
<div class="side-card"><strong>${esc(a.plan)}</strong><span>${esc(m.features.labels.slice(0, 3).join(' · ') || m.pack.hero.eyebrow)}</span><a class="btn btn-accent btn-sm" href="#">${esc(a.upgrade)}</a></div></aside>`;
}

function topbar(m: PageModel): string {
  const a = m.ui.app;
  const lang = m.features.ids.has('multilingual')
    ? `<span class="badge badge-new">${m.language.toUpperCase()}</span>`
    : '';
  const who = m.firstName || m.brand;
  return `<header class="app-top"><div class="search">${icon('search', 18)}<span>${esc(a.search)}</span></div>
<div class="top-actions">${lang}<span class="bell">${icon('bell', 20)}</span><div class="me"><span class="avatar">${esc(m.personInitials)}</span><div><span>${esc(who)}</span><small>${esc(a.loggedAs)}</small></div></div></div></header>`;
}

function kpis(m: PageModel): string {
  return `<section class="kpis">${m.pack.kpis
    .map(
      (k, i) =>
        `<article class="card kpi"><div class="label"><span>${esc(k.label)}</span></div><div class="value">${esc(k.value)}</div><span class="delta ${k.up ? 'up' : 'down'}">${esc(k.delta)}</span>${sparkline(m.seed + i * 7919, k.up)}</article>`,
    )
    .join('')}</section>`;
}

function table(m: PageModel): string {
  const a = m.ui.app;
  const [c1, c2, c3, c4] = m.pack.columns;
  const rows = m.pack.rows
    .map(
      (r, i) =>
        `<tr><td><div class="who"><span class="avatar" style="background:var(--c${(i % 3) + 1})">${esc(initialsOf(r.name))}</span>${esc(r.name)}</div></td><td class="muted">${esc(r.detail)}</td><td><span class="badge badge-${r.status}">${esc(a.status[r.status])}</span></td><td>${esc(r.amount)}</td></tr>`,
    )
    .join('');
  return `<article class="card panel"><div class="panel-head"><h2>${esc(a.recent)} · ${esc(m.pack.entity.many)}</h2><a href="#">${esc(a.viewAll)}</a></div>
<table class="table"><thead><tr><th>${esc(c1)}</th><th>${esc(c2)}</th><th>${esc(c3)}</th><th>${esc(c4)}</th></tr></thead><tbody>${rows}</tbody></table></article>`;
}

function sidePanel(m: PageModel): string {
  const a = m.ui.app;
  if (m.features.ids.has('booking')) {
    const items = m.pack.rows
      .slice(0, 4)
      .map(
        (r, i) =>
          `<div class="item"><span class="date">${14 + i}<small>${esc(a.months[2]!)}</small></span><div><strong>${esc(r.detail)}</strong><div class="muted" style="font-size:.82rem">${esc(r.name)}</div></div><span class="when">${esc(r.amount.includes(':') ? r.amount : `${9 + i * 2}:00`)}</span></div>`,
      )
      .join('');
    return `<article class="card panel"><div class="panel-head"><h2>${esc(a.upcoming)}</h2><a href="#">${esc(a.calendar)}</a></div><div class="list">${items}</div></article>`;
  }
  const values = [72, 91, 64];
  const goals = a.goalItems
    .map(
      (g, i) =>
        `<div class="progress"><div><span>${esc(g)}</span><strong>${values[i]}%</strong></div><div class="bar"><span style="width:${values[i]}%;background:var(--c${i + 1})"></span></div></div>`,
    )
    .join('');
  return `<article class="card panel"><div class="panel-head"><h2>${esc(a.goals)}</h2></div><div class="list" style="gap:20px">${goals}</div></article>`;
}

function activity(m: PageModel): string {
  const a = m.ui.app;
  const items = m.pack.rows
    .slice(0, 4)
    .map(
      (r, i) =>
        `<div class="item"><span class="avatar" style="width:34px;height:34px;font-size:.72rem;background:var(--c${(i % 3) + 1})">${esc(initialsOf(r.name))}</span><div><strong>${esc(r.name.split(' ')[0])}</strong> <span class="muted">${esc(a.activityItems[i] ?? '')}</span></div><span class="when">${(i + 1) * 7} min</span></div>`,
    )
    .join('');
  return `<article class="card panel"><div class="panel-head"><h2>${esc(a.activity)}</h2><a href="#">${esc(a.viewAll)}</a></div><div class="list">${items}</div></article>`;
}

export function renderApplication(m: PageModel): string {
  const a = m.ui.app;
  const greeting = m.firstName ? `${a.greeting}, ${m.firstName}` : a.greeting;
  const main = `<main class="app-content">
<div class="page-head"><div><h1>${esc(greeting)}</h1><p>${esc(a.overview)}</p></div>
<div class="actions"><a class="btn btn-ghost btn-sm" href="#">${icon('file', 16)} ${esc(a.export)}</a><a class="btn btn-primary btn-sm" href="#">${icon('plus', 16)} ${esc(a.newItem)} ${esc(m.pack.entity.one)}</a></div></div>
${kpis(m)}
<section class="panels"><article class="card panel chart"><div class="panel-head"><h2>${esc(a.chartTitle)}</h2><div class="legend"><span><i style="background:var(--c1)"></i>${esc(a.thisPeriod)}</span><span><i style="background:var(--c2)"></i>${esc(a.lastPeriod)}</span></div></div>${chart(m)}</article>${sidePanel(m)}</section>
<section class="panels">${table(m)}${activity(m)}</section>
</main>`;
  const body = `${ribbon(m)}<div class="app">${sidebar(m)}<div class="app-main">${topbar(m)}${main}</div></div>`;
  return document(m, 'application', body);
}
