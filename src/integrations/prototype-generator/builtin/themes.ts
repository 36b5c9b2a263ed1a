import { STYLES, type Style } from '../../../wizard.ts';

/**
 * One visual theme per wizard `style`: palette, typography, shapes and a few flourishes. System font
 * stacks only: the prototype loads nothing from the network (it is shown sandboxed, maybe offline).
 */
export interface Theme {
  id: Style;
  bodyFont: string;
  headingFont: string;
  headingWeight: number;
  /** e.g. `-0.03em` for tight modern headings. */
  headingTracking: string;
  colors: {
    bg: string;
    surface: string;
    surfaceAlt: string;
    text: string;
    muted: string;
    border: string;
    primary: string;
    primaryText: string;
    accent: string;
    /** Soft tint of the primary (icon chips, badges). */
    tint: string;
    heroBg: string;
    heroText: string;
    heroMuted: string;
    dark: string;
    darkText: string;
    /** The app's sidebar. */
    sidebar: string;
    sidebarText: string;
    chart: [string, string, string];
  };
  radius: string;
  radiusLarge: string;
  buttonRadius: string;
  shadow: string;
  /** Eyebrow labels: uppercase and spaced for elegant/corporate looks. */
  eyebrowCase: 'uppercase' | 'none';
  extraCss: string;
}

const SYSTEM_SANS =
  "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans', 'Liberation Sans', sans-serif";

const THEMES: Record<Style, Theme> = {
  modernMinimalist: {
    id: 'modernMinimalist',
    bodyFont: `Inter, ${SYSTEM_SANS}`,
    headingFont: `Inter, ${SYSTEM_SANS}`,
    headingWeight: 700,
    headingTracking: '-0.035em',
    colors: {
      bg: '#ffffff',
      surface: '#ffffff',
      surfaceAlt: '#f6f7f9',
      text: '#0f172a',
      muted: '#5b6474',
      border: '#e6e8ec',
      primary: '#111827',
      primaryText: '#ffffff',
      accent: '#4f46e5',
      tint: '#eef0ff',
      heroBg: 'radial-gradient(1200px 500px at 85% -10%, #eef0ff 0%, rgba(238,240,255,0) 60%), #ffffff',
      heroText: '#0f172a',
      heroMuted: '#5b6474',
      dark: '#0b0f19',
      darkText: '#e5e7eb',
      sidebar: '#ffffff',
      sidebarText: '#334155',
      chart: ['#4f46e5', '#a5b4fc', '#0f172a'],
    },
    radius: '12px',
    radiusLarge: '20px',
    buttonRadius: '10px',
    shadow: '0 1px 2px rgba(15,23,42,.04), 0 8px 24px rgba(15,23,42,.06)',
    eyebrowCase: 'none',
    extraCss: '.card{border:1px solid var(--border)} .app-sidebar{border-right:1px solid var(--border)}',
  },
  boldColorful: {
    id: 'boldColorful',
    bodyFont: SYSTEM_SANS,
    headingFont: `'Arial Black', 'Helvetica Neue', ${SYSTEM_SANS}`,
    headingWeight: 900,
    headingTracking: '-0.02em',
    colors: {
      bg: '#fffaf5',
      surface: '#ffffff',
      surfaceAlt: '#fff1e6',
      text: '#1a1033',
      muted: '#5d5470',
      border: '#f1e4d8',
      primary: '#ff3d7f',
      primaryText: '#ffffff',
      accent: '#7c3aed',
      tint: '#ffe4ef',
      heroBg: 'linear-gradient(135deg, #7c3aed 0%, #ff3d7f 55%, #ff9f1c 100%)',
      heroText: '#ffffff',
      heroMuted: 'rgba(255,255,255,.86)',
      dark: '#1a1033',
      darkText: '#f5efff',
      sidebar: '#1a1033',
      sidebarText: '#e9ddff',
      chart: ['#ff3d7f', '#7c3aed', '#ff9f1c'],
    },
    radius: '18px',
    radiusLarge: '28px',
    buttonRadius: '999px',
    shadow: '0 10px 30px rgba(124,58,237,.16)',
    eyebrowCase: 'uppercase',
    extraCss:
      '.hero .btn-primary{background:#fff;color:#1a1033} .hero .btn-ghost{border-color:rgba(255,255,255,.6);color:#fff} .section-alt{background:linear-gradient(180deg,#fff1e6,#fffaf5)} .card:nth-child(3n+1) .chip{background:#ffe4ef;color:#ff3d7f} .card:nth-child(3n+2) .chip{background:#efe7ff;color:#7c3aed} .card:nth-child(3n) .chip{background:#fff0d9;color:#d97706}',
  },
  elegantSophisticated: {
    id: 'elegantSophisticated',
    bodyFont: `'Iowan Old Style', 'Palatino Linotype', Palatino, 'URW Palladio L', Georgia, serif`,
    headingFont: `'Didot', 'Bodoni 72', 'Playfair Display', 'Libre Baskerville', Georgia, 'DejaVu Serif', serif`,
    headingWeight: 500,
    headingTracking: '-0.01em',
    colors: {
      bg: '#f8f5ef',
      surface: '#fffdf8',
      surfaceAlt: '#f1ece2',
      text: '#1f1b16',
      muted: '#6b6256',
      border: '#e3dccf',
      primary: '#1f1b16',
      primaryText: '#f8f5ef',
      accent: '#a8834a',
      tint: '#efe5d3',
      heroBg: 'linear-gradient(180deg, #1f1b16 0%, #2d261e 100%)',
      heroText: '#f8f5ef',
      heroMuted: '#cfc4b2',
      dark: '#16130f',
      darkText: '#e9e1d3',
      sidebar: '#1f1b16',
      sidebarText: '#e9e1d3',
      chart: ['#a8834a', '#1f1b16', '#cdb58c'],
    },
    radius: '2px',
    radiusLarge: '4px',
    buttonRadius: '0',
    shadow: '0 1px 0 rgba(31,27,22,.04), 0 20px 40px -24px rgba(31,27,22,.25)',
    eyebrowCase: 'uppercase',
    extraCss:
      '.eyebrow{letter-spacing:.22em;font-size:.72rem} .hero .btn-primary{background:var(--accent);color:#fff} .hero .btn-ghost{color:#f8f5ef;border-color:rgba(248,245,239,.4)} h2{font-style:italic} .card{border:1px solid var(--border)} .divider{width:56px;height:1px;background:var(--accent);margin:18px 0}',
  },
  funCreative: {
    id: 'funCreative',
    bodyFont: `'Nunito', 'Avenir Next', 'Trebuchet MS', ${SYSTEM_SANS}`,
    headingFont: `'Baloo 2', 'Fredoka', 'Trebuchet MS', 'Comic Sans MS', ${SYSTEM_SANS}`,
    headingWeight: 800,
    headingTracking: '-0.01em',
    colors: {
      bg: '#fffdf4',
      surface: '#ffffff',
      surfaceAlt: '#fff6d6',
      text: '#23213a',
      muted: '#5f5b7a',
      border: '#23213a',
      primary: '#ff6b6b',
      primaryText: '#ffffff',
      accent: '#2ec4b6',
      tint: '#d6f5f2',
      heroBg:
        'radial-gradient(circle at 47% 92%, #ffd93d 0 80px, transparent 81px), radial-gradient(circle at 96% 12%, #2ec4b6 0 110px, transparent 111px), #fff6d6',
      heroText: '#23213a',
      heroMuted: '#4d4968',
      dark: '#23213a',
      darkText: '#fff6d6',
      sidebar: '#2ec4b6',
      sidebarText: '#0d2b29',
      chart: ['#ff6b6b', '#2ec4b6', '#ffd93d'],
    },
    radius: '20px',
    radiusLarge: '28px',
    buttonRadius: '16px',
    shadow: '5px 5px 0 #23213a',
    eyebrowCase: 'none',
    extraCss:
      '.card{border:2px solid #23213a} .btn{border:2px solid #23213a;box-shadow:3px 3px 0 #23213a} .card:nth-child(odd){transform:rotate(-.6deg)} .card:nth-child(even){transform:rotate(.6deg)} .chip{border:2px solid #23213a} .card:nth-child(3n+1) .chip{background:#ffd93d} .card:nth-child(3n+2) .chip{background:#d6f5f2} .card:nth-child(3n) .chip{background:#ffd6d6} .app .card:nth-child(n){transform:none} .app-nav a.on{background:#fff;color:#23213a;border:2px solid #23213a} .app-brand .mark{background:#ffd93d;color:#23213a;border:2px solid #23213a} .app-nav .count{background:#23213a} .float{border:2px solid #23213a}',
  },
  professionalCorporate: {
    id: 'professionalCorporate',
    bodyFont: `'Segoe UI', Roboto, 'Helvetica Neue', Arial, ${SYSTEM_SANS}`,
    headingFont: `'Segoe UI', Roboto, 'Helvetica Neue', Arial, ${SYSTEM_SANS}`,
    headingWeight: 700,
    headingTracking: '-0.015em',
    colors: {
      bg: '#ffffff',
      surface: '#ffffff',
      surfaceAlt: '#f3f6fa',
      text: '#0b2545',
      muted: '#52627a',
      border: '#dbe3ee',
      primary: '#1d4ed8',
      primaryText: '#ffffff',
      accent: '#0ea5a4',
      tint: '#e6eefc',
      heroBg: 'linear-gradient(120deg, #0b2545 0%, #13315c 60%, #1d4ed8 130%)',
      heroText: '#ffffff',
      heroMuted: '#c5d3e8',
      dark: '#0b2545',
      darkText: '#d6e0ee',
      sidebar: '#0b2545',
      sidebarText: '#c5d3e8',
      chart: ['#1d4ed8', '#0ea5a4', '#93c5fd'],
    },
    radius: '8px',
    radiusLarge: '12px',
    buttonRadius: '6px',
    shadow: '0 1px 3px rgba(11,37,69,.08), 0 6px 18px rgba(11,37,69,.06)',
    eyebrowCase: 'uppercase',
    extraCss:
      '.card{border:1px solid var(--border)} .hero .btn-ghost{color:#fff;border-color:rgba(255,255,255,.45)} .eyebrow{letter-spacing:.12em;font-size:.74rem}',
  },
};

/** Maps a wizard style value (any case or separator) to a theme; unknown styles get the minimalist one. */
export function themeFor(style: string | null | undefined): Theme {
  const key = (style ?? '').toLowerCase().replace(/[^a-z]/g, '');
  const found = STYLES.find((id) => id.toLowerCase() === key);
  if (found) return THEMES[found];
  if (/bold|colou?r|vibrant|vivid/.test(key)) return THEMES.boldColorful;
  if (/elegan|luxur|sophistic|classic/.test(key)) return THEMES.elegantSophisticated;
  if (/fun|creativ|playful/.test(key)) return THEMES.funCreative;
  if (/corporat|professional|business/.test(key)) return THEMES.professionalCorporate;
  return THEMES.modernMinimalist;
}
