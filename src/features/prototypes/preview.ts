import { esc } from '../../integrations/prototype-generator/html.ts';
import type { GenerationStep, PrototypeLanguage } from '../../integrations/prototype-generator/types.ts';
import { errorMessage, stepMessage } from './messages.ts';

/** The preview page's words in both languages. */
const TEXT = {
  en: {
    title: 'Prototype preview',
    building: 'Building your prototype',
    note: 'This usually takes less than a minute. You can keep this page open: the preview appears here by itself.',
    noscript: 'This page refreshes every few seconds until your prototype is ready.',
    ready: 'Your prototype',
    open: 'Open in a new tab',
    desktop: 'Desktop',
    tablet: 'Tablet',
    mobile: 'Mobile',
    failedTitle: 'Something went wrong',
    failedHelp: 'It is not you, it is us. Please try again; it only takes a moment.',
    retry: 'Try again',
    retrying: 'Starting again…',
    notFound: 'We could not find this prototype.',
    notFoundHelp: 'The link may be incomplete. Please check it, or contact us and we will help.',
    unavailable: 'A prototype is not available for this request.',
    draft: 'Draft prepared for',
    frameTitle: 'Generated prototype',
  },
  es: {
    title: 'Vista previa del prototipo',
    building: 'Estamos creando tu prototipo',
    note: 'Normalmente tarda menos de un minuto. Puedes dejar esta página abierta: la vista previa aparecerá aquí sola.',
    noscript: 'Esta página se actualiza cada pocos segundos hasta que tu prototipo esté listo.',
    ready: 'Tu prototipo',
    open: 'Abrir en una pestaña nueva',
    desktop: 'Escritorio',
    tablet: 'Tableta',
    mobile: 'Móvil',
    failedTitle: 'Algo salió mal',
    failedHelp: 'No es culpa tuya. Inténtalo de nuevo; solo toma un momento.',
    retry: 'Intentar de nuevo',
    retrying: 'Empezando de nuevo…',
    notFound: 'No encontramos este prototipo.',
    notFoundHelp: 'Puede que el enlace esté incompleto. Revísalo o escríbenos y te ayudaremos.',
    unavailable: 'No hay un prototipo disponible para esta solicitud.',
    draft: 'Borrador preparado para',
    frameTitle: 'Prototipo generado',
  },
} as const;

export const PREVIEW_SCRIPT_PATH = '/assets/prototype-preview.js';
export const PREVIEW_STYLE_PATH = '/assets/prototype-preview.css';
const VISIBLE_STEPS: GenerationStep[] = ['queued', 'analysing', 'generating', 'rendering'];

export type PreviewState =
  | { kind: 'generating'; step: GenerationStep; percent: number }
  | { kind: 'completed'; attempt: number; documentPath: string | null; demoUrl: string | null }
  | { kind: 'failed'; quota: boolean };

export interface PreviewInput {
  leadId: string;
  language: PrototypeLanguage;
  /** Company or name of the lead (escaped here). */
  preparedFor: string;
  state: PreviewState;
}

function page(language: PrototypeLanguage, title: string, body: string, refresh = false): string {
  return `<!doctype html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${esc(title)}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${PREVIEW_STYLE_PATH}">
${refresh ? '<noscript><meta http-equiv="refresh" content="8"></noscript>' : ''}
</head>
<body>
${body}
<script src="${PREVIEW_SCRIPT_PATH}" defer></script>
</body>
</html>
`;
}

function progressView(input: PreviewInput, hidden: boolean): string {
  const t = TEXT[input.language];
  const state = input.state.kind === 'generating' ? input.state : { step: 'queued' as const, percent: 0 };
  const current = VISIBLE_STEPS.indexOf(state.step);
  const steps = VISIBLE_STEPS.map((step, i) => {
    const cls = i < current ? 'done' : i === current ? 'active' : '';
    return `<li data-step="${step}" class="${cls}"><span class="dot"></span>${esc(stepMessage(input.language, step))}</li>`;
  }).join('');
  return `<section class="panel progress" data-view="progress"${hidden ? ' hidden' : ''}>
<div class="spinner" aria-hidden="true"></div>
<h1>${esc(t.building)}</h1>
<progress class="bar" max="100" value="${state.percent}">${state.percent}%</progress>
<p class="status" aria-live="polite"><span data-percent>${state.percent}%</span> · <span data-message>${esc(stepMessage(input.language, state.step))}</span></p>
<ol class="steps">${steps}</ol>
<p class="note">${esc(t.note)}</p>
<noscript><p class="note">${esc(t.noscript)}</p></noscript>
</section>`;
}

function failedView(input: PreviewInput, hidden: boolean): string {
  const t = TEXT[input.language];
  const quota = input.state.kind === 'failed' && input.state.quota;
  return `<section class="panel failed" data-view="failed"${hidden ? ' hidden' : ''}>
<div class="icon" aria-hidden="true">!</div>
<h1>${esc(t.failedTitle)}</h1>
<p data-failed-message>${esc(quota ? errorMessage(input.language, 'quota') : errorMessage(input.language, 'failed'))}</p>
<p class="note">${esc(t.failedHelp)}</p>
<button type="button" class="button" data-retry>${esc(t.retry)}</button>
</section>`;
}

function completeView(input: PreviewInput): string {
  const t = TEXT[input.language];
  const done = input.state.kind === 'completed' ? input.state : null;
  const src = done
    ? done.documentPath
      ? `${done.documentPath}?v=${done.attempt}`
      : (done.demoUrl ?? '')
    : '';
  const sandbox =
    done && !done.documentPath ? 'allow-scripts allow-same-origin allow-forms allow-popups' : '';
  const frame = done
    ? `<iframe src="${esc(src)}" sandbox="${sandbox}" referrerpolicy="no-referrer" title="${esc(t.frameTitle)}"></iframe>`
    : '';
  return `<section class="frame" data-view="complete"${done ? '' : ' hidden'}>
<div class="toolbar"><strong>${esc(t.ready)}</strong>
<div class="devices" role="group"><button type="button" data-width="100%" class="on">${esc(t.desktop)}</button><button type="button" data-width="820px">${esc(t.tablet)}</button><button type="button" data-width="390px">${esc(t.mobile)}</button></div>
<a href="${esc(src || '#')}" target="_blank" rel="noopener noreferrer" data-open>${esc(t.open)}</a></div>
<div class="stage">${frame}</div>
</section>`;
}

/** The preview page: progress (followed live by the page script), the prototype, or a retry. */
export function renderPreviewPage(input: PreviewInput): string {
  const t = TEXT[input.language];
  const id = encodeURIComponent(input.leadId);
  const base = `/api/leads/${id}`;
  const state = input.state.kind;
  const header = `<header class="top"><span class="brand">${esc(t.title)}</span>${
    input.preparedFor
      ? `<span class="who">${esc(t.draft)} <strong>${esc(input.preparedFor)}</strong></span>`
      : ''
  }</header>`;
  const attrs = [
    `data-state="${state}"`,
    `data-lead-id="${esc(input.leadId)}"`,
    `data-stream-path="${esc(`${base}/generate-stream`)}"`,
    `data-trigger-path="${esc(`${base}/trigger-generation`)}"`,
    `data-document-path="${esc(`${base}/prototype`)}"`,
    `data-msg-retrying="${esc(errorMessage(input.language, 'retrying'))}"`,
    `data-msg-failed="${esc(errorMessage(input.language, 'failed'))}"`,
    `data-msg-quota="${esc(errorMessage(input.language, 'quota'))}"`,
    `data-msg-restarting="${esc(t.retrying)}"`,
    `data-frame-title="${esc(t.frameTitle)}"`,
  ].join(' ');
  const body = `${header}<main id="preview" ${attrs}>
${completeView(input)}
${progressView(input, state !== 'generating')}
${failedView(input, state !== 'failed')}
</main>`;
  return page(input.language, t.title, body, state === 'generating');
}

/** The page for an unknown lead (404) or one without a prototype (409). */
export function renderPreviewUnavailable(
  language: PrototypeLanguage,
  reason: 'not_found' | 'unavailable',
): string {
  const t = TEXT[language];
  const title = reason === 'not_found' ? t.notFound : t.unavailable;
  return page(
    language,
    t.title,
    `<header class="top"><span class="brand">${esc(t.title)}</span></header><main><section class="panel failed"><div class="icon" aria-hidden="true">?</div><h1>${esc(title)}</h1><p class="note">${esc(t.notFoundHelp)}</p></section></main>`,
  );
}

/** The preview page's policy: its own script and style only; frames from here (and the v0 demo). */
export function previewCsp(frameAncestors: string[], demoUrl: string | null): string {
  let demoOrigin = '';
  try {
    if (demoUrl) demoOrigin = ` ${new URL(demoUrl).origin}`;
  } catch {
    demoOrigin = '';
  }
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    `frame-src 'self'${demoOrigin}`,
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors 'self' ${frameAncestors.join(' ')}`.trim(),
  ].join('; ');
}

/**
 * The generated document's policy: `sandbox` without allow-same-origin or allow-scripts gives it an
 * opaque origin and no script, even when opened directly; it may load nothing but inline styles and
 * data: images.
 */
export function documentCsp(frameAncestors: string[]): string {
  return [
    'sandbox',
    "default-src 'none'",
    "style-src 'unsafe-inline'",
    'img-src data:',
    'font-src data:',
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors 'self' ${frameAncestors.join(' ')}`.trim(),
  ].join('; ');
}
