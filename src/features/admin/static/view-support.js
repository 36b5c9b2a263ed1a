import { api } from './api.js';
import { classificationSection } from './classification.js';
import { $, badge, clear, el, showPage, showState, timeEl, wirePager } from './dom.js';

/**
 * The support contact-us messages (POST /api/support/send), newest first, each with its
 * classification, the classifier's score and reasons, its corrections and the buttons that correct
 * it. The view builds its own markup inside #support-view.
 */

const state = { page: 1, status: '' };

function message(app, m) {
  return el(
    'article',
    { class: 'panel support-message', 'data-id': m.id },
    el(
      'div',
      { class: 'email-head' },
      badge(m.status),
      el('span', { class: 'email-subject' }, m.subject || '(no subject)'),
    ),
    el(
      'p',
      { class: 'sub' },
      el('span', { class: 'contact-name' }, m.name),
      m.company ? ` (${m.company})` : '',
      ' · ',
      el('a', { href: `mailto:${m.email}` }, m.email),
      ' · ',
      timeEl(m.createdAt),
      ` · ${m.language.toUpperCase()}`,
    ),
    el('pre', { class: 'body' }, m.message),
    classificationSection(app, {
      record: m,
      path: `/admin/api/support/messages/${encodeURIComponent(m.id)}/classification`,
      extra: [['CRM', m.pipedrive ? m.pipedrive.message : null]],
      onCorrected: (answer) => (answer.changed ? showSupport(app) : undefined),
    }),
  );
}

export async function showSupport(app) {
  const stateNode = $('#support-state');
  const list = clear($('#support-list'));
  showState(stateNode, 'Loading the support messages…');
  try {
    const page = await api.get('/admin/api/support/messages', { page: state.page, status: state.status });
    list.append(...page.messages.map((m) => message(app, m)));
    showState(stateNode, page.messages.length ? null : 'No message.');
    showPage('#support-pager', page, 'messages');
  } catch (error) {
    app.fail(error, stateNode);
  }
}

export function initSupport(app) {
  const filter = el(
    'select',
    { name: 'status' },
    el('option', { value: '' }, 'All'),
    el('option', { value: 'new' }, 'Lead (new)'),
    el('option', { value: 'spam' }, 'Spam'),
    el('option', { value: 'vendor' }, 'Vendor'),
  );
  filter.addEventListener('change', () => {
    state.status = filter.value;
    state.page = 1;
    void showSupport(app);
  });
  $('#support-view').append(
    el('div', { class: 'view-head' }, el('h1', {}, 'Support messages')),
    el(
      'p',
      { class: 'muted' },
      'Messages sent through the support contact-us form, newest first. A correction runs what the ' +
        'new class gets (e-mail, CRM) once and cancels what has not run yet.',
    ),
    el('form', { id: 'support-filters', class: 'filters compact' }, el('label', {}, 'Status ', filter)),
    el('div', { id: 'support-state', class: 'state', role: 'status', hidden: true }),
    el('div', { id: 'support-list', class: 'stack' }),
    el(
      'div',
      { class: 'pager', id: 'support-pager' },
      el('button', { class: 'button ghost', type: 'button', 'data-page': 'prev' }, 'Previous'),
      el('span', { class: 'page-info' }),
      el('button', { class: 'button ghost', type: 'button', 'data-page': 'next' }, 'Next'),
    ),
  );
  wirePager('#support-pager', state, () => showSupport(app));
}
