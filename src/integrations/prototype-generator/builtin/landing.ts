import { esc } from '../html.ts';
import type { FeatureId } from './features.ts';
import { icon } from './icons.ts';
import { initialsOf, type PageModel } from './model.ts';
import { document, ribbon, stars } from './parts.ts';

type SectionId = Extract<
  FeatureId,
  'booking' | 'shop' | 'gallery' | 'testimonials' | 'pricing' | 'team' | 'blog' | 'faq' | 'newsletter' | 'map'
>;
const SECTION_ORDER: SectionId[] = [
  'booking',
  'shop',
  'gallery',
  'testimonials',
  'pricing',
  'team',
  'blog',
  'faq',
  'newsletter',
  'map',
];

/** The sections the lead's features ask for; a thin brief still gets social proof and answers. */
export function landingSections(m: PageModel): SectionId[] {
  const chosen = SECTION_ORDER.filter((id) => m.features.ids.has(id));
  if (chosen.length < 2) {
    for (const extra of ['testimonials', 'faq'] as const) if (!chosen.includes(extra)) chosen.push(extra);
  }
  return SECTION_ORDER.filter((id) => chosen.includes(id));
}

function navLabel(m: PageModel, id: SectionId): string | null {
  const n = m.ui.nav;
  const labels: Partial<Record<SectionId, string>> = {
    booking: n.book,
    shop: n.shop,
    gallery: n.work,
    pricing: n.pricing,
    team: n.about,
    blog: n.blog,
    faq: n.faq,
  };
  return labels[id] ?? null;
}

function header(m: PageModel, sections: SectionId[]): string {
  const links = [`<a href="#services">${esc(m.ui.nav.services)}</a>`];
  for (const id of sections) {
    const label = navLabel(m, id);
    if (label && links.length < 5) links.push(`<a href="#${id}">${esc(label)}</a>`);
  }
  links.push(`<a href="#contact">${esc(m.ui.nav.contact)}</a>`);
  const f = m.features.ids;
  const lang = f.has('multilingual')
    ? `<div class="lang"><span class="${m.language === 'en' ? 'on' : ''}">EN</span><span class="${m.language === 'es' ? 'on' : ''}">ES</span></div>`
    : '';
  const search = f.has('search') ? `<span class="muted">${icon('search', 18)}</span>` : '';
  const login = f.has('accounts') ? `<a class="login" href="#">${esc(m.ui.nav.login)}</a>` : '';
  return `<header class="site-header"><div class="container nav">
<a class="logo" href="#"><span class="mark">${esc(m.initials)}</span><span>${esc(m.brand)}</span></a>
<nav class="links">${links.join('')}</nav>
<div class="nav-actions">${search}${lang}${login}<a class="btn btn-primary btn-sm" href="#contact">${esc(m.ui.cta[m.audience])}</a></div>
</div></header>`;
}

function heroArt(m: PageModel): string {
  const p = m.pack;
  const second = m.features.ids.has('shop')
    ? { i: icon('cart'), t: p.products[0]!.name, s: p.products[0]!.price }
    : { i: icon('calendar'), t: p.booking, s: m.language === 'es' ? 'Hoy · 10:30' : 'Today · 10:30' };
  return `<div class="art" aria-hidden="true">
<div class="art-main"><div class="art-bar"><i></i><i></i><i></i></div>
<svg viewBox="0 0 400 380" preserveAspectRatio="xMidYMid slice"><circle cx="320" cy="90" r="120" fill="rgba(255,255,255,.14)"/><circle cx="60" cy="330" r="150" fill="rgba(255,255,255,.10)"/>
<rect x="40" y="90" width="190" height="16" rx="8" fill="rgba(255,255,255,.75)"/><rect x="40" y="120" width="140" height="10" rx="5" fill="rgba(255,255,255,.45)"/>
<rect x="40" y="160" width="150" height="110" rx="14" fill="rgba(255,255,255,.22)"/><rect x="205" y="160" width="150" height="110" rx="14" fill="rgba(255,255,255,.32)"/>
<path d="M52 250 L90 215 L120 232 L175 185" stroke="#fff" stroke-width="4" fill="none" stroke-linecap="round"/>
<rect x="220" y="180" width="90" height="10" rx="5" fill="rgba(255,255,255,.7)"/><rect x="220" y="200" width="60" height="8" rx="4" fill="rgba(255,255,255,.45)"/>
<rect x="40" y="292" width="110" height="34" rx="17" fill="#fff"/></svg><span class="art-icon">${icon(p.offerings[0]!.icon, 72)}</span></div>
<div class="float float-a"><span class="chip">${icon('star')}</span><div><strong>${esc(p.stats[1]!.value)}</strong>${esc(p.stats[1]!.label)}</div></div>
<div class="float float-b"><span class="chip">${second.i}</span><div><strong>${esc(second.t)}</strong>${esc(second.s)}</div></div>
</div>`;
}

function hero(m: PageModel): string {
  const h = m.pack.hero;
  const stats = m.pack.stats
    .map((s) => `<li><strong>${esc(s.value)}</strong><span>${esc(s.label)}</span></li>`)
    .join('');
  return `<section class="hero"><div class="container hero-grid"><div>
<span class="eyebrow">${esc(h.eyebrow)}</span><h1>${esc(h.title)}</h1><p class="lead">${esc(h.lead)}</p>
<div class="actions"><a class="btn btn-primary" href="#contact">${esc(m.ui.cta[m.audience])} ${icon('arrow', 18)}</a><a class="btn btn-ghost" href="#services">${esc(m.ui.secondaryCta)}</a></div>
<ul class="stats">${stats}</ul></div>${heroArt(m)}</div></section>`;
}

function head(title: string, lead: string, center = false): string {
  return `<div class="section-head${center ? ' center' : ''}"><h2>${esc(title)}</h2><div class="divider"></div><p>${esc(lead)}</p></div>`;
}

function services(m: PageModel): string {
  const cards = m.pack.offerings
    .map(
      (o) =>
        `<article class="card"><span class="chip">${icon(o.icon)}</span><h3>${esc(o.title)}</h3><p>${esc(o.text)}</p><a class="more" href="#contact">${esc(m.ui.learnMore)} ${icon('arrow', 16)}</a></article>`,
    )
    .join('');
  const extras = m.features.labels.length
    ? `<ul class="checks">${m.features.labels.map((l) => `<li>${icon('check', 18)}${esc(l)}</li>`).join('')}</ul>`
    : '';
  return `<section id="services" class="section"><div class="container">${head(m.ui.servicesTitle, m.ui.servicesLead)}<div class="grid grid-3">${cards}</div>${extras ? `<div class="card highlights" style="margin-top:24px"><h3 style="margin-top:0">${esc(m.ui.highlights)}</h3>${extras}</div>` : ''}</div></section>`;
}

function booking(m: PageModel): string {
  const u = m.ui.booking;
  const slots = ['09:00', '10:30', '12:00', '15:30', '17:00']
    .map((s, i) => `<span class="${i === 1 ? 'on' : ''}">${s}</span>`)
    .join('');
  return `<section id="booking" class="section section-alt"><div class="container split"><div>
<span class="eyebrow">${esc(m.ui.nav.book)}</span><h2 style="font-size:clamp(1.8rem,3vw,2.5rem)">${esc(m.pack.booking)}</h2><div class="divider"></div>
<p class="muted" style="margin-top:14px;font-size:1.08rem">${esc(u.lead)}</p>
<ul class="checks">${m.pack.offerings.map((o) => `<li>${icon('check', 18)}${esc(o.title)}</li>`).join('')}</ul></div>
<form class="card booking-card" action="#"><label>${esc(u.service)}<select>${m.pack.offerings.map((o) => `<option>${esc(o.title)}</option>`).join('')}</select></label>
<div class="row"><label>${esc(u.date)}<input value="2027-03-14"></label><label>${esc(u.name)}<input placeholder="${esc(u.name)}"></label></div>
<label>${esc(u.time)}<div class="slots">${slots}</div></label>
<button class="btn btn-primary" type="button">${icon('calendar', 18)} ${esc(u.confirm)}</button></form></div></section>`;
}

function shop(m: PageModel): string {
  const items = m.pack.products
    .map(
      (p, i) =>
        `<article class="card product"><div class="ph ph-${i + 1}">${i === 0 ? `<span class="label">${esc(m.ui.shop.bestSeller)}</span>` : ''}${icon(i === 0 ? 'package' : i === 1 ? 'tag' : 'star', 44)}</div>
<div class="body"><div><h3 style="margin:0;font-size:1.05rem">${esc(p.name)}</h3><span class="price">${esc(p.price)}</span></div><a class="btn btn-primary btn-sm" href="#">${icon('cart', 16)}</a></div></article>`,
    )
    .join('');
  return `<section id="shop" class="section"><div class="container">${head(m.ui.shop.title, m.ui.shop.lead)}<div class="grid grid-3">${items}</div></div></section>`;
}

function gallery(m: PageModel): string {
  const tiles = m.pack.gallery
    .map((g, i) => `<div class="tile ph-${(i % 3) + 1}"><span>${esc(g)}</span></div>`)
    .join('');
  return `<section id="gallery" class="section section-alt"><div class="container">${head(m.ui.gallery.title, m.ui.gallery.lead)}<div class="gallery">${tiles}</div></div></section>`;
}

function testimonials(m: PageModel): string {
  const cards = m.pack.testimonials
    .map(
      (t) =>
        `<figure class="card quote" style="margin:0">${stars()}<p>“${esc(t.quote)}”</p><figcaption class="person"><span class="avatar">${esc(initialsOf(t.author))}</span><div><strong>${esc(t.author)}</strong><small>${esc(t.role)}</small></div></figcaption></figure>`,
    )
    .join('');
  return `<section id="testimonials" class="section"><div class="container">${head(m.ui.testimonials.title, m.ui.testimonials.lead, true)}<div class="grid grid-3">${cards}</div></div></section>`;
}

function pricing(m: PageModel): string {
  const p = m.ui.pricing;
  const tiers = p.tiers
    .map((t, i) => {
      const featured = i === 1;
      return `<article class="card tier${featured ? ' featured' : ''}">${featured ? `<span class="pill">${esc(p.popular)}</span>` : ''}<h3 style="margin:0">${esc(t.name)}</h3>
<div class="amount">${esc(t.price)}<small>${esc(p.month)}</small></div><ul>${t.items.map((x) => `<li>${icon('check', 18)}${esc(x)}</li>`).join('')}</ul>
<a class="btn ${featured ? '' : 'btn-ghost'}" href="#contact">${esc(p.choose)}</a></article>`;
    })
    .join('');
  return `<section id="pricing" class="section section-alt"><div class="container">${head(p.title, p.lead, true)}<div class="grid grid-3" style="align-items:stretch">${tiers}</div></div></section>`;
}

function team(m: PageModel): string {
  const people = m.pack.rows.slice(0, 4).map((r, i) => ({ name: r.name, role: m.ui.team.roles[i] ?? '' }));
  const cards = people
    .map(
      (p, i) =>
        `<article class="card member"><span class="avatar" style="background:var(--c${(i % 3) + 1})">${esc(initialsOf(p.name))}</span><h3 style="margin:0;font-size:1.05rem">${esc(p.name)}</h3><p style="font-size:.9rem">${esc(p.role)}</p></article>`,
    )
    .join('');
  return `<section id="team" class="section"><div class="container">${head(m.ui.team.title, m.ui.team.lead)}<div class="grid grid-4">${cards}</div></div></section>`;
}

function blog(m: PageModel): string {
  const posts = m.pack.articles
    .map(
      (a, i) =>
        `<article class="card post"><div class="ph ph-${i + 1}"></div><div class="body"><div class="meta">${3 + i * 2} ${esc(m.ui.blog.minutes)}</div><h3 style="margin:0 0 10px;font-size:1.12rem">${esc(a)}</h3><a class="more" href="#">${esc(m.ui.blog.read)} ${icon('arrow', 16)}</a></div></article>`,
    )
    .join('');
  return `<section id="blog" class="section section-alt"><div class="container">${head(m.ui.blog.title, m.ui.blog.lead)}<div class="grid grid-3">${posts}</div></div></section>`;
}

function faq(m: PageModel): string {
  const items = m.ui.faq.items
    .map(
      (f, i) =>
        `<details${i === 0 ? ' open' : ''}><summary>${esc(f.q)}</summary><p>${esc(f.a)}</p></details>`,
    )
    .join('');
  return `<section id="faq" class="section"><div class="container"><div class="section-head center"><h2>${esc(m.ui.faq.title)}</h2></div><div class="faq">${items}</div></div></section>`;
}

function newsletter(m: PageModel): string {
  const n = m.ui.newsletter;
  return `<section id="newsletter" class="section" style="padding-top:0"><div class="container"><div class="news"><div><h2 style="font-size:1.8rem">${esc(n.title)}</h2><p>${esc(n.lead)}</p></div>
<form action="#"><input type="email" placeholder="${esc(n.placeholder)}"><button class="btn" type="button">${esc(n.button)}</button></form></div></div></section>`;
}

function map(m: PageModel): string {
  const u = m.ui.map;
  const streets =
    '<path d="M0 120 H800 M0 250 H800 M180 0 V400 M470 0 V400 M650 0 V400 M0 340 L800 40" stroke="#fff" stroke-width="14" fill="none"/>';
  return `<section id="map" class="section section-alt"><div class="container split"><div class="map">
<svg viewBox="0 0 800 400" preserveAspectRatio="xMidYMid slice"><rect width="800" height="400" fill="var(--surface-alt)"/><rect x="200" y="140" width="250" height="90" rx="8" fill="var(--tint)"/><rect x="490" y="270" width="140" height="110" rx="8" fill="var(--tint)"/><circle cx="90" cy="60" r="50" fill="var(--tint)"/>${streets}</svg>
<span class="pin">${icon('pin', 44)}</span></div>
<div><h2 style="font-size:clamp(1.8rem,3vw,2.4rem);margin-bottom:24px">${esc(u.title)}</h2><div class="info">
<div><span class="chip">${icon('pin')}</span><div><strong>${esc(u.address)}</strong><span class="muted">Av. Central 125, ${esc(m.brand)}</span></div></div>
<div><span class="chip">${icon('clock')}</span><div><strong>${esc(u.hours)}</strong><span class="muted">${esc(u.hoursValue)}</span></div></div></div>
<a class="btn btn-ghost" style="margin-top:24px" href="#">${esc(u.directions)} ${icon('arrow', 16)}</a></div></div></section>`;
}

function contact(m: PageModel): string {
  const c = m.ui.contact;
  const slug =
    m.brand
      .normalize('NFD')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '') || 'hello';
  return `<section id="contact" class="section"><div class="container contact-grid"><div>
<span class="eyebrow">${esc(m.ui.nav.contact)}</span><h2 style="font-size:clamp(1.8rem,3vw,2.5rem)">${esc(c.title)}</h2><p class="muted" style="margin:14px 0 28px;font-size:1.08rem">${esc(c.lead)}</p>
<div class="info"><div><span class="chip">${icon('mail')}</span><div><strong>${esc(c.email)}</strong><span class="muted">hello@${esc(slug.slice(0, 24))}.com</span></div></div>
<div><span class="chip">${icon('message')}</span><div><strong>${esc(c.phone)}</strong><span class="muted">+1 (555) 010-2030</span></div></div></div></div>
<form class="card form" action="#"><div class="row"><label>${esc(c.name)}<input placeholder="${esc(c.name)}"></label><label>${esc(c.email)}<input type="email" placeholder="${esc(m.ui.newsletter.placeholder)}"></label></div>
<label>${esc(c.message)}<textarea placeholder="${esc(c.message)}"></textarea></label><button class="btn btn-primary" type="button">${esc(c.send)} ${icon('arrow', 16)}</button></form></div></section>`;
}

const RENDERERS: Record<SectionId, (m: PageModel) => string> = {
  booking,
  shop,
  gallery,
  testimonials,
  pricing,
  team,
  blog,
  faq,
  newsletter,
  map,
};

export function renderLanding(m: PageModel): string {
  const sections = landingSections(m);
  const year = new Date().getFullYear();
  const chat = m.features.ids.has('chat')
    ? `<div class="chat" aria-hidden="true"><div class="bubble">${esc(m.ui.chatBubble)}</div><span class="fab">${icon('message', 24)}</span></div>`
    : '';
  const body = `${ribbon(m)}${header(m, sections)}<main>${hero(m)}${services(m)}${sections.map((id) => RENDERERS[id](m)).join('')}
<section class="band"><div class="container"><h2>${esc(m.ui.band.title)}</h2><p>${esc(m.ui.band.lead)}</p><a class="btn btn-primary" href="#contact">${esc(m.ui.cta[m.audience])}</a></div></section>
${contact(m)}</main>
<footer class="footer"><div class="container"><a class="logo" href="#"><span class="mark">${esc(m.initials)}</span><span>${esc(m.brand)}</span></a><span>© ${year} ${esc(m.brand)}. ${esc(m.ui.footer.rights)}</span><nav><a href="#">${esc(m.ui.footer.privacy)}</a><a href="#">${esc(m.ui.footer.terms)}</a></nav></div></footer>${chat}`;
  return document(m, 'landing', body);
}
