import type { Theme } from './themes.ts';

/** The theme as CSS custom properties plus the shared base (reset, type, buttons, cards, ribbon). */
function base(t: Theme): string {
  const c = t.colors;
  return `
:root{--bg:${c.bg};--surface:${c.surface};--surface-alt:${c.surfaceAlt};--text:${c.text};--muted:${c.muted};
--border:${c.border};--primary:${c.primary};--on-primary:${c.primaryText};--accent:${c.accent};--tint:${c.tint};
--hero-bg:${c.heroBg};--hero-text:${c.heroText};--hero-muted:${c.heroMuted};--dark:${c.dark};--dark-text:${c.darkText};
--sidebar:${c.sidebar};--sidebar-text:${c.sidebarText};--c1:${c.chart[0]};--c2:${c.chart[1]};--c3:${c.chart[2]};
--radius:${t.radius};--radius-lg:${t.radiusLarge};--btn-radius:${t.buttonRadius};--shadow:${t.shadow};
--body:${t.bodyFont};--heading:${t.headingFont}}
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%;scroll-behavior:smooth}
body{margin:0;background:var(--bg);color:var(--text);font-family:var(--body);font-size:16px;line-height:1.6;
-webkit-font-smoothing:antialiased;overflow-wrap:anywhere}
h1,h2,h3,h4{font-family:var(--heading);font-weight:${t.headingWeight};letter-spacing:${t.headingTracking};line-height:1.12;margin:0}
p{margin:0}
a{color:inherit;text-decoration:none}
img,svg{display:block}
.i{flex:none}
.container{width:100%;max-width:1160px;margin:0 auto;padding:0 24px}
.eyebrow{display:inline-block;font-size:.8rem;font-weight:700;text-transform:${t.eyebrowCase};letter-spacing:.06em;color:var(--accent);margin-bottom:14px}
.btn{display:inline-flex;align-items:center;justify-content:center;gap:8px;padding:13px 22px;border-radius:var(--btn-radius);
font-weight:650;font-size:.96rem;border:1.5px solid transparent;cursor:pointer;white-space:nowrap;font-family:var(--body)}
.btn-sm{padding:9px 16px;font-size:.88rem}
.btn-primary{background:var(--primary);color:var(--on-primary)}
.btn-ghost{border-color:var(--border);color:var(--text);background:transparent}
.btn-accent{background:var(--accent);color:#fff}
.card{background:var(--surface);border-radius:var(--radius-lg);box-shadow:var(--shadow);padding:28px}
.chip{width:46px;height:46px;border-radius:calc(var(--radius) + 2px);display:grid;place-items:center;background:var(--tint);color:var(--accent)}
.muted{color:var(--muted)}
.ribbon{background:var(--dark);color:var(--dark-text);font-size:.8rem;padding:8px 24px;display:flex;gap:10px;align-items:center;justify-content:center;flex-wrap:wrap;text-align:center}
.ribbon .tag{background:var(--accent);color:#fff;border-radius:999px;padding:2px 10px;font-weight:700;letter-spacing:.04em;text-transform:uppercase;font-size:.68rem}
.ribbon q{opacity:.85;font-style:italic}
.avatar{width:40px;height:40px;border-radius:50%;display:grid;place-items:center;font-weight:700;font-size:.85rem;color:#fff;background:var(--accent);flex:none}
.badge{display:inline-flex;align-items:center;gap:6px;padding:4px 10px;border-radius:999px;font-size:.76rem;font-weight:650}
.badge-ok{background:#e7f7ee;color:#15803d}.badge-pending{background:#fff4e0;color:#b45309}.badge-new{background:var(--tint);color:var(--accent)}
input,select,textarea{font:inherit;color:var(--text);background:var(--surface);border:1.5px solid var(--border);border-radius:var(--radius);padding:12px 14px;width:100%}
label{display:grid;gap:6px;font-size:.86rem;font-weight:600;color:var(--muted)}
`;
}

function landing(): string {
  return `
.site-header{position:sticky;top:0;z-index:10;background:color-mix(in srgb,var(--bg) 88%,transparent);backdrop-filter:saturate(1.4) blur(10px);border-bottom:1px solid color-mix(in srgb,var(--border) 70%,transparent)}
.nav{display:flex;align-items:center;gap:28px;height:72px}
.logo{display:flex;align-items:center;gap:10px;font-family:var(--heading);font-weight:800;font-size:1.15rem;letter-spacing:-.01em;min-width:0}
.logo span:last-child{white-space:nowrap;overflow:hidden;text-overflow:ellipsis;max-width:260px}
.mark{width:36px;height:36px;border-radius:calc(var(--radius) - 2px);display:grid;place-items:center;background:var(--primary);color:var(--on-primary);font-size:.85rem;font-weight:800;flex:none}
.links{display:flex;gap:24px;margin-left:auto;font-size:.94rem;font-weight:550;color:var(--muted)}
.nav-actions{display:flex;align-items:center;gap:14px;font-size:.9rem;font-weight:600}
.lang{display:flex;gap:2px;border:1px solid var(--border);border-radius:999px;padding:3px;font-size:.75rem}
.lang span{padding:2px 8px;border-radius:999px}.lang .on{background:var(--primary);color:var(--on-primary)}
.hero{background:var(--hero-bg);color:var(--hero-text);padding:88px 0 96px;overflow:hidden}
.hero-grid{display:grid;grid-template-columns:1.05fr .95fr;gap:56px;align-items:center}
.hero h1{font-size:clamp(2.3rem,4.6vw,3.7rem)}
.hero .lead{font-size:1.15rem;color:var(--hero-muted);margin:22px 0 32px;max-width:540px}
.hero .eyebrow{color:inherit;opacity:.9}
.actions{display:flex;gap:12px;flex-wrap:wrap}
.stats{display:flex;gap:36px;list-style:none;padding:0;margin:44px 0 0;flex-wrap:wrap}
.stats strong{display:block;font-family:var(--heading);font-size:1.7rem;letter-spacing:-.02em}
.stats span{font-size:.86rem;color:var(--hero-muted)}
.art{position:relative;min-height:420px}
.art-main{position:absolute;inset:0 30px 40px 0;border-radius:var(--radius-lg);overflow:hidden;box-shadow:0 30px 60px -20px rgba(0,0,0,.35);
background:linear-gradient(150deg,var(--c1),var(--c2) 60%,var(--c3))}
.art-main svg{position:absolute;inset:0;width:100%;height:100%}
.art-icon{position:absolute;right:34px;bottom:30px;color:rgba(255,255,255,.55)}
.art-bar{position:absolute;top:0;left:0;right:0;height:34px;background:rgba(255,255,255,.22);display:flex;gap:6px;align-items:center;padding:0 14px}
.art-bar i{width:9px;height:9px;border-radius:50%;background:rgba(255,255,255,.7)}
.float{position:absolute;background:var(--surface);color:var(--text);border-radius:var(--radius);box-shadow:0 18px 40px -12px rgba(0,0,0,.3);padding:16px 18px;display:flex;gap:12px;align-items:center;font-size:.88rem}
.float strong{display:block;font-size:1.05rem}
.float-a{left:-18px;bottom:0}.float-b{right:0;top:64px}
.section{padding:96px 0}
.section-alt{background:var(--surface-alt)}
.section-head{max-width:640px;margin-bottom:48px}
.section-head.center{text-align:center;margin-left:auto;margin-right:auto}
.center .divider{margin-left:auto;margin-right:auto}
.section-head h2{font-size:clamp(1.8rem,3vw,2.5rem)}
.section-head p{color:var(--muted);font-size:1.08rem;margin-top:14px}
.grid{display:grid;gap:24px}.grid-3{grid-template-columns:repeat(3,1fr)}.grid-4{grid-template-columns:repeat(4,1fr)}.grid-2{grid-template-columns:repeat(2,1fr)}
.card h3{font-size:1.2rem;margin:18px 0 8px}
.card p{color:var(--muted)}
.more{display:inline-flex;gap:6px;align-items:center;margin-top:16px;font-weight:650;color:var(--accent);font-size:.92rem}
.split{display:grid;grid-template-columns:1fr 1fr;gap:56px;align-items:center}
.booking-card{display:grid;gap:16px}
.booking-card .row{display:grid;grid-template-columns:1fr 1fr;gap:14px}
.slots{display:flex;gap:8px;flex-wrap:wrap}
.slots span{border:1.5px solid var(--border);border-radius:var(--radius);padding:8px 12px;font-size:.86rem;font-weight:600}
.slots .on{background:var(--primary);border-color:var(--primary);color:var(--on-primary)}
.checks{list-style:none;padding:0;margin:26px 0 0;display:grid;gap:12px}
.highlights .checks{grid-template-columns:repeat(auto-fill,minmax(230px,1fr));margin-top:18px}
.checks li{display:flex;gap:10px;align-items:center}
.checks .i{color:var(--accent)}
.product{padding:0;overflow:hidden}
.product .ph{height:210px;display:grid;place-items:center;color:rgba(255,255,255,.9);position:relative}
.product .body{padding:20px 22px 24px;display:flex;justify-content:space-between;align-items:center;gap:12px}
.product .price{font-weight:800;font-size:1.1rem}
.product .label{position:absolute;top:14px;left:14px;background:var(--surface);color:var(--text);font-size:.72rem;font-weight:700;padding:4px 10px;border-radius:999px}
.ph-1{background:linear-gradient(135deg,var(--c1),var(--c2))}.ph-2{background:linear-gradient(135deg,var(--c2),var(--c3))}.ph-3{background:linear-gradient(135deg,var(--c3),var(--c1))}
.post{padding:0;overflow:hidden}.post .ph{height:170px}.post .body{padding:22px}
.post .meta{font-size:.8rem;color:var(--muted);margin-bottom:8px}
.gallery{display:grid;grid-template-columns:repeat(3,1fr);grid-auto-rows:200px;gap:16px}
.tile{border-radius:var(--radius-lg);position:relative;overflow:hidden;display:flex;align-items:flex-end;padding:16px;color:#fff;font-weight:700}
.tile:nth-child(1){grid-column:span 2;grid-row:span 2}
.tile::after{content:"";position:absolute;inset:0;background:linear-gradient(180deg,transparent 50%,rgba(0,0,0,.35))}
.tile span{position:relative;z-index:1}
.quote{display:flex;flex-direction:column;gap:20px}
.quote p{color:var(--text);font-size:1.05rem}
.stars{display:flex;gap:3px;color:#f59e0b}
.stars .i{fill:currentColor}
.person{display:flex;gap:12px;align-items:center;font-size:.9rem}
.person small{display:block;color:var(--muted)}
.tier{display:flex;flex-direction:column;gap:14px}
.tier .amount{font-family:var(--heading);font-size:2.6rem;font-weight:800;letter-spacing:-.03em}
.tier .amount small{font-size:.95rem;color:var(--muted);font-weight:500;letter-spacing:0}
.tier ul{list-style:none;padding:0;margin:6px 0 10px;display:grid;gap:10px;flex:1}
.tier li{display:flex;gap:8px;align-items:center;color:var(--muted)}
.tier li .i{color:var(--accent)}
.tier.featured{background:var(--primary);color:var(--on-primary);transform:translateY(-10px)}
.tier.featured li,.tier.featured .amount small{color:inherit;opacity:.85}
.tier.featured .btn{background:var(--on-primary);color:var(--primary)}
.tier .pill{align-self:flex-start;background:var(--accent);color:#fff;font-size:.72rem;font-weight:700;padding:4px 10px;border-radius:999px}
.member{text-align:center}
.member .avatar{width:84px;height:84px;margin:0 auto 14px;font-size:1.4rem}
.faq{max-width:780px;margin:0 auto;display:grid;gap:12px}
.faq details{background:var(--surface);border:1px solid var(--border);border-radius:var(--radius);padding:18px 22px}
.faq summary{cursor:pointer;font-weight:650;list-style:none;display:flex;justify-content:space-between;gap:12px}
.faq summary::after{content:"+";color:var(--accent);font-weight:800}
.faq details[open] summary::after{content:"–"}
.faq details p{color:var(--muted);margin-top:10px}
.news{display:flex;gap:32px;align-items:center;justify-content:space-between;flex-wrap:wrap;background:var(--primary);color:var(--on-primary);border-radius:var(--radius-lg);padding:44px}
.news p{opacity:.8;margin-top:8px}
.news form{display:flex;gap:10px;flex:1;max-width:440px}
.news input{border-color:transparent}
.news .btn{background:var(--accent);color:#fff}
.map{height:320px;border-radius:var(--radius-lg);overflow:hidden;background:var(--surface-alt);position:relative}
.map svg{width:100%;height:100%}
.pin{position:absolute;left:50%;top:45%;transform:translate(-50%,-100%);color:var(--primary)}
.info{display:grid;gap:18px}
.info div{display:flex;gap:14px;align-items:flex-start}
.info strong{display:block}
.band{background:var(--dark);color:var(--dark-text);padding:72px 0;text-align:center}
.band h2{font-size:clamp(1.8rem,3vw,2.6rem);color:#fff}
.band p{opacity:.8;margin:14px 0 28px}
.band .btn-primary{background:var(--accent);color:#fff}
.contact-grid{display:grid;grid-template-columns:.9fr 1.1fr;gap:56px}
.form{display:grid;gap:16px}
.form .row{display:grid;grid-template-columns:1fr 1fr;gap:16px}
.form textarea{min-height:120px;resize:vertical}
.footer{border-top:1px solid var(--border);padding:36px 0;font-size:.88rem;color:var(--muted)}
.footer .container{display:flex;justify-content:space-between;gap:16px;flex-wrap:wrap;align-items:center}
.footer nav{display:flex;gap:20px}
.chat{position:fixed;right:22px;bottom:22px;display:flex;gap:10px;align-items:flex-end;z-index:20}
.chat .bubble{background:var(--surface);color:var(--text);border-radius:16px 16px 4px 16px;padding:12px 16px;box-shadow:var(--shadow);font-size:.88rem;max-width:220px;border:1px solid var(--border)}
.chat .fab{width:56px;height:56px;border-radius:50%;background:var(--accent);color:#fff;display:grid;place-items:center;box-shadow:0 10px 24px rgba(0,0,0,.2)}
@media (max-width:960px){
.links{display:none}.nav-actions .login{display:none}
.hero{padding:56px 0 64px}.hero-grid,.split,.contact-grid{grid-template-columns:1fr;gap:40px}
.art{min-height:320px}.grid-3,.grid-4{grid-template-columns:repeat(2,1fr)}
.gallery{grid-template-columns:repeat(2,1fr);grid-auto-rows:160px}
.section{padding:64px 0}.tier.featured{transform:none}}
@media (max-width:620px){
.container{padding:0 18px}.nav{gap:12px;height:64px}.nav-actions{margin-left:auto}
.ribbon{flex-wrap:nowrap;justify-content:flex-start;padding:8px 18px}.ribbon > span:not(.tag){white-space:nowrap;overflow:hidden;text-overflow:ellipsis;min-width:0}.ribbon > span:last-child:not(:nth-child(2)){display:none}.lang{display:none}.logo span:last-child{max-width:150px}
.grid-2,.grid-3,.grid-4,.booking-card .row,.form .row{grid-template-columns:1fr}
.stats{gap:22px}.news{padding:28px}.news form{flex-direction:column}
.chat .bubble{display:none}.float-a{left:0}}
`;
}

function application(): string {
  return `
body{background:var(--surface-alt)}
.app{display:grid;grid-template-columns:248px 1fr;min-height:100vh}
.app-sidebar{background:var(--sidebar);color:var(--sidebar-text);padding:22px 16px;display:flex;flex-direction:column;gap:26px;position:sticky;top:0;height:100vh}
.app-brand{display:flex;gap:10px;align-items:center;font-family:var(--heading);font-weight:800;font-size:1.05rem;padding:0 8px;min-width:0}
.app-brand span:last-child{white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.app-brand .mark{width:34px;height:34px;border-radius:calc(var(--radius) - 2px);display:grid;place-items:center;background:var(--accent);color:#fff;font-size:.8rem;flex:none}
.app-nav{display:grid;gap:4px}
.app-nav a{display:flex;gap:12px;align-items:center;padding:10px 12px;border-radius:var(--radius);font-size:.92rem;font-weight:550;opacity:.82}
.app-nav a.on{background:color-mix(in srgb,var(--accent) 16%,transparent);color:var(--accent);opacity:1;font-weight:700}
.app-nav .count{margin-left:auto;background:var(--accent);color:#fff;font-size:.7rem;padding:1px 8px;border-radius:999px}
.nav-label{font-size:.7rem;text-transform:uppercase;letter-spacing:.1em;opacity:.55;padding:0 12px;margin-bottom:4px}
.side-card{margin-top:auto;border-radius:var(--radius-lg);padding:18px;background:color-mix(in srgb,var(--accent) 14%,transparent);font-size:.86rem}
.side-card strong{display:block;margin-bottom:4px}
.side-card .btn{margin-top:12px;width:100%}
.app-main{min-width:0;display:flex;flex-direction:column}
.app-top{display:flex;gap:18px;align-items:center;padding:16px 32px;background:var(--surface);border-bottom:1px solid var(--border);position:sticky;top:0;z-index:5}
.search{display:flex;gap:10px;align-items:center;background:var(--surface-alt);border-radius:var(--radius);padding:10px 14px;color:var(--muted);font-size:.9rem;flex:1;max-width:420px}
.top-actions{margin-left:auto;display:flex;gap:18px;align-items:center}
.bell{position:relative;color:var(--muted)}
.bell::after{content:"";position:absolute;top:-1px;right:-1px;width:8px;height:8px;border-radius:50%;background:#ef4444;border:2px solid var(--surface)}
.me{display:flex;gap:10px;align-items:center;font-size:.88rem;font-weight:650;min-width:0}
.me small{display:block;color:var(--muted);font-weight:500}
.me > div{min-width:0;max-width:180px}
.me > div span{display:block;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.app-content{padding:30px 32px 40px;display:grid;gap:24px}
.page-head{display:flex;justify-content:space-between;align-items:flex-end;gap:16px;flex-wrap:wrap}
.page-head h1{font-size:1.75rem}
.page-head p{color:var(--muted);margin-top:6px}
.page-head .actions{display:flex;gap:10px}
.kpis{display:grid;grid-template-columns:repeat(4,1fr);gap:18px}
.kpi{padding:20px 22px}
.kpi .label{font-size:.84rem;color:var(--muted);display:flex;justify-content:space-between;gap:8px}
.kpi .value{font-family:var(--heading);font-size:1.8rem;font-weight:800;letter-spacing:-.02em;margin:8px 0 6px}
.delta{font-size:.78rem;font-weight:700;padding:2px 8px;border-radius:999px}
.delta.up{background:#e7f7ee;color:#15803d}.delta.down{background:#fdecec;color:#b91c1c}
.kpi svg{margin-top:8px;width:100%;height:34px}
.panels{display:grid;grid-template-columns:1.7fr 1fr;gap:18px}
.panel{padding:22px 24px}
.panel-head{display:flex;justify-content:space-between;align-items:center;gap:12px;margin-bottom:16px}
.panel-head h2{font-size:1.08rem}
.panel-head a{font-size:.84rem;font-weight:650;color:var(--accent)}
.legend{display:flex;gap:16px;font-size:.8rem;color:var(--muted)}
.legend i{display:inline-block;width:10px;height:10px;border-radius:3px;margin-right:6px;vertical-align:-1px}
.chart svg{width:100%;height:auto}.panels .panel{display:flex;flex-direction:column}
.table{width:100%;border-collapse:collapse;font-size:.9rem}
.table th{text-align:left;font-size:.75rem;text-transform:uppercase;letter-spacing:.06em;color:var(--muted);font-weight:650;padding:0 10px 12px}
.table td{padding:12px 10px;border-top:1px solid var(--border)}
.table td:last-child,.table th:last-child{text-align:right;font-weight:700}
.who{display:flex;gap:10px;align-items:center}
.who .avatar{width:32px;height:32px;font-size:.72rem}
.list{display:grid;gap:14px}
.item{display:flex;gap:12px;align-items:center;font-size:.9rem}
.item .when{margin-left:auto;color:var(--muted);font-size:.8rem;white-space:nowrap}
.date{width:46px;height:50px;border-radius:var(--radius);background:var(--tint);color:var(--accent);display:grid;place-items:center;text-align:center;line-height:1.05;font-weight:800;flex:none}
.date small{display:block;font-size:.66rem;font-weight:700;text-transform:uppercase}
.progress{display:grid;gap:6px;font-size:.86rem}
.progress .bar{height:8px;border-radius:999px;background:var(--surface-alt);overflow:hidden}
.progress .bar span{display:block;height:100%;border-radius:999px;background:var(--accent)}
.progress div:first-child{display:flex;justify-content:space-between}
@media (max-width:1100px){.kpis{grid-template-columns:repeat(2,1fr)}.panels{grid-template-columns:1fr}}
@media (max-width:820px){
.app{grid-template-columns:1fr}
.app-sidebar{position:static;height:auto;flex-direction:row;align-items:center;padding:12px 16px;gap:14px;overflow-x:auto}
.app-brand{flex:none;padding:0}.app-brand span:last-child{display:none}
.ribbon{flex-wrap:nowrap;justify-content:flex-start}.ribbon > span:not(.tag){white-space:nowrap;overflow:hidden;text-overflow:ellipsis;min-width:0}.ribbon > span:last-child:not(:nth-child(2)){display:none}
.app-nav{display:flex;gap:4px}.app-nav a{white-space:nowrap;padding:8px 10px}.nav-label,.side-card,.app-nav .count{display:none}
.app-top{position:static;padding:12px 16px}.me > div{display:none}
.app-content{padding:20px 16px}}
@media (max-width:520px){.kpis{grid-template-columns:1fr}.table th:nth-child(2),.table td:nth-child(2){display:none}.page-head .actions .btn-ghost{display:none}}
`;
}

export function stylesheet(theme: Theme, kind: 'landing' | 'application'): string {
  const css = base(theme) + (kind === 'landing' ? landing() : application()) + theme.extraCss;
  return css.replace(/\n+/g, '\n').trim();
}
