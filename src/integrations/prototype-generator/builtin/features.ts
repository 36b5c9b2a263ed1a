/**
 * Recognises the wizard's feature answers (free strings in EN or ES, any separator) as the sections
 * and widgets the built-in generator knows how to draw. Unknown features are kept as plain labels.
 */
export const FEATURE_IDS = [
  'booking',
  'shop',
  'blog',
  'gallery',
  'testimonials',
  'pricing',
  'newsletter',
  'faq',
  'team',
  'map',
  'contact',
  'chat',
  'analytics',
  'accounts',
  'notifications',
  'search',
  'multilingual',
  'messaging',
  'invoices',
] as const;
export type FeatureId = (typeof FEATURE_IDS)[number];

const PATTERNS: [FeatureId, RegExp][] = [
  ['booking', /book|appoint|reserv|schedul|calend|cita|agenda/],
  ['shop', /shop|commerce|store|cart|catalog|product|tienda|checkout|venta|ecom/],
  ['invoices', /invoic|billing|factur|payment|pago|cobro/],
  ['blog', /blog|news|article|content|noticia|articul|post/],
  ['gallery', /galler|galer|portfolio|portafolio|photo|foto|showcase/],
  ['testimonials', /testimon|review|rese|opinion|feedback/],
  ['pricing', /pric|plan|precio|tarifa|subscri|suscrip|membership|membres/],
  ['newsletter', /newsletter|boletin|mailing|email ?market/],
  ['faq', /faq|question|pregunta/],
  ['team', /team|equipo|staff|about|nosotros/],
  ['map', /map|locat|ubicac|direcci|store ?finder/],
  ['contact', /contact|form|formulario|quote|cotiz/],
  ['chat', /chat|whatsapp|live ?support|soporte/],
  ['analytics', /analytic|dashboard|report|metric|panel|estadist|kpi|informe/],
  ['accounts', /login|account|user|member|auth|registr|cuenta|usuario|portal|sign/],
  ['notifications', /notif|alert|aviso/],
  ['search', /search|busc|filter|filtro/],
  ['multilingual', /multi.?lang|multilingu|idioma|language|translat|traduc/],
  ['messaging', /messag|inbox|mensaj/],
];

export interface RecognisedFeatures {
  ids: Set<FeatureId>;
  /** Readable labels of the lead's features, in their order (at most 8), for lists and badges. */
  labels: string[];
}

function normalise(value: string): string {
  return value
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .replace(/[_-]+/g, ' ');
}

/** `online-booking` → `Online booking`. */
export function humanise(value: string): string {
  const text = value
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function recogniseFeatures(features: readonly string[] | undefined): RecognisedFeatures {
  const ids = new Set<FeatureId>();
  const labels: string[] = [];
  for (const raw of features ?? []) {
    if (typeof raw !== 'string' || raw.trim() === '') continue;
    const text = normalise(raw);
    for (const [id, pattern] of PATTERNS) if (pattern.test(text)) ids.add(id);
    if (labels.length < 8) labels.push(humanise(raw.slice(0, 60)));
  }
  return { ids, labels };
}
