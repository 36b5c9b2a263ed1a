import { escapeHtml, headerSafe, type MailMessage } from '../../integrations/mail/message.ts';
import type { Lead, LeadSteps } from './store.ts';

/** The lead e-mails in English and Spanish, each with an HTML and a text part; user text is escaped. */

type Lang = 'en' | 'es';

const STEP_LABELS: Record<Lang, Record<keyof LeadSteps, string>> = {
  en: {
    initial_choice: 'Starting point',
    service: 'Service',
    prototype: 'Prototype',
    goal: 'Goal',
    industry: 'Industry',
    features: 'Features',
    style: 'Style',
    audience: 'Audience',
  },
  es: {
    initial_choice: 'Punto de partida',
    service: 'Servicio',
    prototype: 'Prototipo',
    goal: 'Objetivo',
    industry: 'Industria',
    features: 'Funcionalidades',
    style: 'Estilo',
    audience: 'Público',
  },
};

/**
 * The wizard's values as a reader of each language says them. A value outside the enumerations (a
 * trusted chat submission may carry one) is humanized instead.
 */
const STEP_VALUES: Record<Lang, Record<string, string>> = {
  en: {
    b2b: 'B2B',
    b2c: 'B2C',
    'seo-services': 'SEO services',
  },
  es: {
    help: 'Ayuda con un proyecto existente',
    create: 'Crear algo nuevo',
    advice: 'Asesoría',
    'development-support': 'Soporte de desarrollo',
    'infrastructure-scale': 'Infraestructura y escalado',
    'seo-services': 'Servicios de SEO',
    'maintenance-plans': 'Planes de mantenimiento',
    'workflow-automation': 'Automatización de procesos',
    'build-website': 'Sitio web',
    'build-application': 'Aplicación',
    'strategic-consultation': 'Consultoría estratégica',
    'technical-advisory': 'Asesoría técnica',
    'dedicated-team': 'Equipo dedicado',
    technology: 'Tecnología',
    healthcare: 'Salud',
    finance: 'Finanzas',
    education: 'Educación',
    retail: 'Comercio',
    manufacturing: 'Manufactura',
    realEstate: 'Inmobiliaria',
    hospitality: 'Hotelería y turismo',
    nonprofit: 'Sin ánimo de lucro',
    other: 'Otra',
    b2b: 'B2B',
    b2c: 'B2C',
    youngAudience: 'Público joven',
    specializedProfessionals: 'Profesionales especializados',
    generalAudience: 'Público general',
    modernMinimalist: 'Moderno y minimalista',
    boldColorful: 'Audaz y colorido',
    elegantSophisticated: 'Elegante y sofisticado',
    funCreative: 'Divertido y creativo',
    professionalCorporate: 'Profesional y corporativo',
    landing: 'Landing page',
    application: 'Aplicación',
  },
};

function stepValue(value: string, lang: Lang): string {
  // Own keys only: a trusted value such as `constructor` must not be read off Object.prototype.
  return Object.hasOwn(STEP_VALUES[lang], value) ? STEP_VALUES[lang][value]! : humanize(value);
}

/** `build-website` → `Build website`, `realEstate` → `Real estate`. */
function humanize(value: string): string {
  const spaced = value
    .replace(/[-_]+/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .trim()
    .toLowerCase();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

export function stepRows(steps: LeadSteps, lang: Lang): [string, string][] {
  const rows: [string, string][] = [];
  for (const key of Object.keys(STEP_LABELS[lang]) as (keyof LeadSteps)[]) {
    const value = steps[key];
    if (value === undefined || value === '' || (Array.isArray(value) && value.length === 0)) continue;
    const text = Array.isArray(value) ? value.join(', ') : key === 'goal' ? value : stepValue(value, lang);
    rows.push([STEP_LABELS[lang][key], text]);
  }
  return rows;
}

function htmlTable(rows: [string, string][]): string {
  if (rows.length === 0) return '';
  const cells = rows
    .map(
      ([label, value]) =>
        `<tr><th align="left" style="padding:4px 12px 4px 0;vertical-align:top">${escapeHtml(label)}</th>` +
        `<td style="padding:4px 0;white-space:pre-wrap">${escapeHtml(value)}</td></tr>`,
    )
    .join('');
  return `<table role="presentation" style="border-collapse:collapse;margin:16px 0">${cells}</table>`;
}

function textTable(rows: [string, string][]): string {
  return rows.map(([label, value]) => `${label}: ${value}`).join('\n');
}

function layout(lang: Lang, title: string, bodyHtml: string): string {
  return (
    `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>` +
    `<body style="font-family:Arial,Helvetica,sans-serif;line-height:1.5;color:#1a1a1a;max-width:640px;margin:0 auto;padding:24px">` +
    `${bodyHtml}</body></html>`
  );
}

const firstName = (name: string) => name.trim().split(/\s+/)[0] ?? name;

export function confirmationEmail(lead: Lead, previewUrl: string | null): MailMessage {
  const lang = lead.language;
  const rows = stepRows(lead.steps, lang);
  const t =
    lang === 'es'
      ? {
          subject: 'Hemos recibido tu solicitud',
          hello: `Hola ${firstName(lead.name)}:`,
          body: 'Gracias por contarnos sobre tu proyecto. Nuestro equipo revisará tus respuestas y te contactará pronto.',
          summary: 'Resumen de tus respuestas:',
          preview: 'Puedes seguir tu prototipo aquí:',
          bye: 'Saludos,\nEl equipo',
        }
      : {
          subject: 'We received your request',
          hello: `Hi ${firstName(lead.name)},`,
          body: 'Thank you for telling us about your project. Our team will review your answers and get back to you soon.',
          summary: 'A summary of your answers:',
          preview: 'You can follow your prototype here:',
          bye: 'Best regards,\nThe team',
        };
  const previewHtml = previewUrl
    ? `<p>${escapeHtml(t.preview)} <a href="${escapeHtml(previewUrl)}">${escapeHtml(previewUrl)}</a></p>`
    : '';
  const html = layout(
    lang,
    t.subject,
    `<p>${escapeHtml(t.hello)}</p><p>${escapeHtml(t.body)}</p>` +
      (rows.length ? `<p>${escapeHtml(t.summary)}</p>${htmlTable(rows)}` : '') +
      previewHtml +
      `<p style="white-space:pre-line">${escapeHtml(t.bye)}</p>`,
  );
  const text = [
    t.hello,
    '',
    t.body,
    ...(rows.length ? ['', t.summary, textTable(rows)] : []),
    ...(previewUrl ? ['', `${t.preview} ${previewUrl}`] : []),
    '',
    t.bye,
  ].join('\n');
  return { to: lead.email, subject: t.subject, text, html };
}

export function notificationEmail(lead: Lead, to: string, previewUrl: string | null): MailMessage {
  const rows: [string, string][] = [
    ['Name', lead.name],
    ['E-mail', lead.email],
    ...(lead.phone ? [['Phone', lead.phone] as [string, string]] : []),
    ...(lead.company ? [['Company', lead.company] as [string, string]] : []),
    ...(lead.position ? [['Position', lead.position] as [string, string]] : []),
    ['Language', lead.language],
    ...(lead.sourceUrl ? [['Source page', lead.sourceUrl] as [string, string]] : []),
    ['Classification', `${lead.classification} (${lead.classifiedBy}): ${lead.classificationReason}`],
    ['Lead id', lead.id],
    ...(previewUrl ? [['Preview', previewUrl] as [string, string]] : []),
  ];
  const answers = stepRows(lead.steps, 'en');
  const subject = headerSafe(`New lead: ${lead.name}${lead.company ? ` (${lead.company})` : ''}`);
  const html = layout(
    'en',
    subject,
    `<h2 style="margin-top:0">New lead</h2>${htmlTable(rows)}` +
      (answers.length ? `<h3>Wizard answers</h3>${htmlTable(answers)}` : ''),
  );
  const text = [
    'New lead',
    '',
    textTable(rows),
    ...(answers.length ? ['', 'Wizard answers', textTable(answers)] : []),
  ].join('\n');
  return { to, replyTo: lead.email, subject, text, html };
}

export function vendorDeclineEmail(lead: Lead): MailMessage {
  const t =
    lead.language === 'es'
      ? {
          subject: 'Gracias por tu mensaje',
          hello: `Hola ${firstName(lead.name)}:`,
          body: 'Gracias por ponerte en contacto y por presentarnos tus servicios. En este momento no estamos buscando nuevos proveedores ni alianzas, por lo que no daremos seguimiento a esta propuesta. Te deseamos mucho éxito.',
          bye: 'Saludos cordiales,\nEl equipo',
        }
      : {
          subject: 'Thank you for reaching out',
          hello: `Hi ${firstName(lead.name)},`,
          body: 'Thank you for getting in touch and for introducing your services. We are not looking for new vendors or partnerships at the moment, so we will not follow up on this proposal. We wish you every success.',
          bye: 'Kind regards,\nThe team',
        };
  const html = layout(
    lead.language,
    t.subject,
    `<p>${escapeHtml(t.hello)}</p><p>${escapeHtml(t.body)}</p><p style="white-space:pre-line">${escapeHtml(t.bye)}</p>`,
  );
  return { to: lead.email, subject: t.subject, text: [t.hello, '', t.body, '', t.bye].join('\n'), html };
}

/** The note attached to the CRM deal (Pipedrive notes are HTML). */
export function crmNoteHtml(lead: Lead): string {
  const rows: [string, string][] = [
    ...stepRows(lead.steps, 'en'),
    ...(lead.position ? [['Position', lead.position] as [string, string]] : []),
    ...(lead.phone ? [['Phone', lead.phone] as [string, string]] : []),
    ['Language', lead.language],
    ...(lead.sourceUrl ? [['Source page', lead.sourceUrl] as [string, string]] : []),
    ['Lead id', lead.id],
  ];
  return `<p><b>Website wizard answers</b></p><ul>${rows
    .map(([label, value]) => `<li><b>${escapeHtml(label)}:</b> ${escapeHtml(value)}</li>`)
    .join('')}</ul>`;
}

export function crmDealTitle(lead: Lead): string {
  const who = lead.company ? `${lead.name} (${lead.company})` : lead.name;
  return `${headerSafe(`Website lead: ${who}`, 180)} [${lead.id}]`;
}
