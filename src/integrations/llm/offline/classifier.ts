/**
 * The built-in lead classifier: deterministic, bilingual (English and Spanish) rules that sort a
 * submission into `lead`, `spam` or `vendor` when no language model is configured or the model fails.
 * Each rule adds weight to spam or vendor; the reason names the rules that fired.
 */
export type LeadClass = 'lead' | 'spam' | 'vendor';

export interface ClassifierInput {
  name: string;
  email: string;
  company?: string | null;
  position?: string | null;
  phone?: string | null;
  /** Free text the visitor wrote (goal, features, …). */
  texts: string[];
}

export interface ClassifierResult {
  classification: LeadClass;
  reason: string;
}

interface Rule {
  label: string;
  pattern: RegExp;
  weight: number;
}

const SPAM_RULES: Rule[] = [
  {
    label: 'gambling',
    pattern: /\b(casino|poker|betting|apuestas?|slot machines?|tragamonedas)\b/,
    weight: 2,
  },
  { label: 'pharmacy', pattern: /\b(viagra|cialis|pharmacy|farmacia online|pills?)\b/, weight: 2 },
  { label: 'adult', pattern: /\b(porn|xxx|escort|sexy|adult dating)\b/, weight: 2 },
  {
    label: 'get-rich offer',
    pattern:
      /\b(make money|earn \$|earn money|work from home|free money|passive income|gana(r)? dinero|dinero facil|ingresos pasivos)\b/,
    weight: 2,
  },
  {
    label: 'crypto or forex pitch',
    pattern: /\b(bitcoin|crypto ?currency|criptomonedas?|forex|binary options|nft drop)\b/,
    weight: 2,
  },
  {
    label: 'loan offer',
    pattern: /\b(payday loans?|cheap loans?|prestamos? rapidos?|credit repair)\b/,
    weight: 2,
  },
  {
    label: 'prize or lottery',
    pattern: /\b(lottery|loteria|you (have )?won|has ganado|claim your prize)\b/,
    weight: 2,
  },
  {
    label: 'link selling',
    pattern:
      /\b(backlinks?|guest posts?|link building|dofollow|buy followers|comprar seguidores|enlaces patrocinados)\b/,
    weight: 2,
  },
  {
    label: 'click bait',
    pattern: /\b(click here|haz clic aqui|limited time offer|act now|oferta limitada)\b/,
    weight: 1,
  },
];

const VENDOR_RULES: Rule[] = [
  {
    label: 'introduces an agency or vendor',
    pattern:
      /\b(we are an? ([a-z-]+ ){0,3}(agency|company|firm|team|studio|provider)|our (agency|company|firm)|somos una? ([a-z]+ ){0,3}(agencia|empresa|firma|consultora)|nuestra (agencia|empresa))\b/,
    weight: 2,
  },
  {
    label: 'outsourcing pitch',
    pattern:
      /\b(outsourc\w*|offshore|white[- ]label|nearshore|staff augmentation|subcontrat\w*|marca blanca|tercerizacion)\b/,
    weight: 2,
  },
  {
    label: 'offers developers',
    pattern:
      /\b(hire (our|dedicated) (developers|engineers|designers)|dedicated developers at|contrate a nuestros|desarrolladores dedicados a)\b/,
    weight: 2,
  },
  {
    label: 'lead generation or SEO pitch',
    pattern:
      /\b(lead generation services|generacion de leads|rank your (website|site)|first page of google|primera pagina de google|posicionar su (sitio|web)|improve your (seo|ranking))\b/,
    weight: 2,
  },
  {
    label: 'offers services',
    pattern:
      /\b(we offer|we provide|our services|we can help you|le ofrecemos|te ofrecemos|ofrecemos|nuestros servicios|podemos ayudarle)\b/,
    weight: 1,
  },
  {
    label: 'partnership pitch',
    pattern:
      /\b(partnership|partner with you|collaboration opportunity|alianza|asociarnos|colaboracion comercial)\b/,
    weight: 1,
  },
  {
    label: 'sales outreach',
    pattern:
      /\b(reaching out|i am writing to offer|affordable rates|competitive (rates|pricing)|tarifas competitivas|precios competitivos)\b/,
    weight: 1,
  },
];

const SALES_POSITION = /\b(business development|sales|account executive|bdm|ventas|desarrollo de negocios)\b/;

const DISPOSABLE_DOMAINS = new Set([
  'mailinator.com',
  'guerrillamail.com',
  '10minutemail.com',
  'tempmail.com',
  'temp-mail.org',
  'yopmail.com',
  'trashmail.com',
  'sharklasers.com',
  'getnada.com',
  'dispostable.com',
]);

/** Lower-case, accents removed, so `préstamos` and `prestamos` match the same rule. */
function fold(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();
}

function fire(rules: Rule[], text: string, hits: string[]): number {
  let score = 0;
  for (const rule of rules) {
    if (rule.pattern.test(text)) {
      score += rule.weight;
      hits.push(rule.label);
    }
  }
  return score;
}

export function classifyLeadOffline(input: ClassifierInput): ClassifierResult {
  const free = fold(input.texts.filter(Boolean).join('\n'));
  const identity = fold([input.name, input.company ?? '', input.position ?? ''].join('\n'));
  const all = `${identity}\n${free}`;

  const spamHits: string[] = [];
  let spam = fire(SPAM_RULES, all, spamHits);
  const links = all.match(/\b(https?:\/\/|www\.)\S+/g)?.length ?? 0;
  if (links >= 3) {
    spam += 2;
    spamHits.push(`${links} links`);
  } else if (links === 2) {
    spam += 1;
    spamHits.push('2 links');
  }
  if (/(https?:\/\/|www\.|\.(com|ru|xyz|top)\b)/.test(fold(input.name))) {
    spam += 2;
    spamHits.push('link in the name');
  }
  if (/([^\s\d])\1{5,}/.test(all) || /[bcdfghjklmnpqrstvwxz]{7,}/.test(all)) {
    spam += 2;
    spamHits.push('gibberish');
  }
  const domain = input.email.split('@')[1]?.toLowerCase() ?? '';
  if (DISPOSABLE_DOMAINS.has(domain)) {
    spam += 1.5;
    spamHits.push('disposable e-mail domain');
  }

  const vendorHits: string[] = [];
  let vendor = fire(VENDOR_RULES, free, vendorHits);
  if (SALES_POSITION.test(fold(input.position ?? '')) && vendor > 0) {
    vendor += 1;
    vendorHits.push('sales position');
  }

  if (spam >= 2 && spam >= vendor) {
    return { classification: 'spam', reason: `Built-in classifier: spam signals (${spamHits.join(', ')}).` };
  }
  if (vendor >= 2) {
    return {
      classification: 'vendor',
      reason: `Built-in classifier: vendor or solicitation signals (${vendorHits.join(', ')}).`,
    };
  }
  const weak = [...spamHits, ...vendorHits];
  return {
    classification: 'lead',
    reason: weak.length
      ? `Built-in classifier: genuine enquiry; weak signals only (${weak.join(', ')}).`
      : 'Built-in classifier: no spam or vendor signals.',
  };
}
