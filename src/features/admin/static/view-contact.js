import { api } from './api.js';
import { $, clear, el, showPage, showState, timeEl, wirePager } from './dom.js';

/** The contact form's submissions (POST /api/contact), newest first. */

const state = { page: 1 };

function submission(s) {
  return el(
    'article',
    { class: 'panel', 'data-id': s.id },
    el('div', { class: 'email-head' }, el('span', { class: 'email-subject' }, s.subject)),
    el(
      'p',
      { class: 'sub' },
      el('span', { class: 'contact-name' }, s.name),
      ' · ',
      el('a', { href: `mailto:${s.email}` }, s.email),
      ' · ',
      timeEl(s.createdAt),
    ),
    el('pre', { class: 'body' }, s.message),
  );
}

export async function showContact(app) {
  const stateNode = $('#contact-state');
  const list = clear($('#contact-list'));
  showState(stateNode, 'Loading the contact form’s messages…');
  try {
    const page = await api.get('/admin/api/contact', { page: state.page });
    list.append(...page.submissions.map(submission));
    showState(stateNode, page.submissions.length ? null : 'No message yet.');
    showPage('#contact-pager', page, 'messages');
  } catch (error) {
    app.fail(error, stateNode);
  }
}

export function initContact(app) {
  wirePager('#contact-pager', state, () => showContact(app));
}
