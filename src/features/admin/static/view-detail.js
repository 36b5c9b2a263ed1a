import { api } from './api.js';
import { classificationSection } from './classification.js';
import { $, badge, clear, el, humanize, showState, timeEl } from './dom.js';

/**
 * One lead: contact, classification (with its correction buttons), CRM, prototype, wizard answers
 * and its e-mails.
 */

const STEP_LABELS = {
  initial_choice: 'Starting point',
  service: 'Service',
  prototype: 'Prototype',
  goal: 'Goal',
  industry: 'Industry',
  features: 'Features',
  style: 'Style',
  audience: 'Audience',
};

function fields(pairs) {
  const list = el('dl', { class: 'fields' });
  for (const [label, value] of pairs) {
    const shown =
      value === null || value === undefined || value === '' ? el('span', { class: 'muted' }, '—') : value;
    list.append(el('dt', {}, label), el('dd', {}, shown));
  }
  return list;
}

function stepValue(key, value) {
  if (Array.isArray(value)) return value.length ? value.join(', ') : null;
  if (value === null || value === undefined) return null;
  if (typeof value === 'object') return JSON.stringify(value);
  return key === 'goal' ? String(value) : humanize(value);
}

function wizardAnswers(steps) {
  const known = Object.keys(STEP_LABELS).filter((key) => key in steps);
  const extra = Object.keys(steps).filter((key) => !(key in STEP_LABELS));
  if (known.length + extra.length === 0)
    return el('p', { class: 'muted' }, 'No wizard answers were submitted.');
  return fields([
    ...known.map((key) => [STEP_LABELS[key], stepValue(key, steps[key])]),
    ...extra.map((key) => [key, stepValue(key, steps[key])]),
  ]);
}

function email(message) {
  return el(
    'article',
    { class: 'email' },
    el(
      'div',
      { class: 'email-head' },
      badge(message.status),
      el('span', { class: 'email-subject' }, message.subject),
    ),
    fields([
      ['To', message.to.join(', ')],
      ['Bcc', message.bcc.length ? message.bcc.join(', ') : null],
      ['Transport', message.transport === 'outbox' ? 'Stored outbox (no SMTP configured)' : 'SMTP'],
      ['Queued', timeEl(message.createdAt)],
      ['Delivered', message.sentAt ? timeEl(message.sentAt) : null],
      ['Attempts', String(message.attempts)],
      ['Last error', message.lastError],
    ]),
    el('details', {}, el('summary', {}, 'Text of the e-mail'), el('pre', { class: 'body' }, message.text)),
  );
}

function crmSection(crm) {
  const outcome = crm.outcome;
  return fields([
    [
      'Outcome',
      outcome ? badge(outcome.success ? 'ok' : 'bad', outcome.success ? 'Synced' : 'Not synced') : 'Pending',
    ],
    ['Message', outcome?.message],
    ['Deal', crm.dealId === null ? null : `#${crm.dealId}`],
    ['Person', crm.personId === null ? null : `#${crm.personId}`],
    ['Organisation', crm.orgId === null ? null : `#${crm.orgId}`],
  ]);
}

function prototypeSection(prototype) {
  if (!prototype) return el('p', { class: 'muted' }, 'No prototype was requested.');
  const safe = prototype.previewUrl.startsWith('/api/leads/');
  return fields([
    ['Kind', humanize(prototype.kind)],
    ['State', badge(prototype.state)],
    [
      'Preview',
      safe
        ? el(
            'a',
            { href: prototype.previewUrl, target: '_blank', rel: 'noopener noreferrer' },
            'Open the preview page',
          )
        : null,
    ],
  ]);
}

const panel = (title, ...children) => el('section', { class: 'panel' }, el('h2', {}, title), ...children);

export async function showDetail(app, id) {
  const stateNode = $('#detail-state');
  const body = clear($('#detail-body'));
  showState(stateNode, 'Loading the lead…');
  try {
    const { lead, crm, prototype, emails, corrections } = await api.get(
      `/admin/api/leads/${encodeURIComponent(id)}`,
    );
    showState(stateNode, null);
    body.append(
      el(
        'div',
        { class: 'detail-head' },
        el('h1', {}, lead.name),
        badge(lead.status),
        badge(lead.classification),
      ),
      el(
        'div',
        { class: 'grid' },
        panel(
          'Contact',
          fields([
            ['E-mail', el('a', { href: `mailto:${lead.email}` }, lead.email)],
            ['Phone', lead.phone],
            ['Company', lead.company],
            ['Position', lead.position],
            ['Language', lead.language.toUpperCase()],
            ['Source page', lead.sourceUrl],
            ['Created', timeEl(lead.createdAt)],
            ['Updated', timeEl(lead.updatedAt)],
            ['Lead id', el('code', {}, lead.id)],
          ]),
        ),
        panel(
          'Classification',
          classificationSection(app, {
            record: { ...lead, corrections },
            path: `/admin/api/leads/${encodeURIComponent(lead.id)}/classification`,
            extra: [['Channel', lead.trusted ? 'Chat (trusted)' : 'Website wizard']],
            // The status, the e-mails and the CRM outcome may all have moved: show the lead afresh.
            onCorrected: (answer) => (answer.changed ? showDetail(app, id) : undefined),
          }),
        ),
        panel('CRM (Pipedrive)', crmSection(crm)),
        panel('Prototype', prototypeSection(prototype)),
        el('section', { class: 'panel wide' }, el('h2', {}, 'Wizard answers'), wizardAnswers(lead.steps)),
        el(
          'section',
          { class: 'panel wide', id: 'lead-emails' },
          el('h2', {}, `E-mails (${emails.length})`),
          emails.length
            ? emails.map(email)
            : el('p', { class: 'muted' }, 'No e-mail was sent for this lead.'),
        ),
      ),
    );
  } catch (error) {
    app.fail(error, stateNode);
  }
}
