import { api } from './api.js';
import {
  $,
  badge,
  clear,
  el,
  formatNumber,
  humanize,
  showPage,
  showState,
  timeEl,
  wirePager,
} from './dom.js';

/** The mail outbox: every e-mail the service sent or keeps, with its delivery state. */

const state = { status: '', page: 1 };

function leadLink(key) {
  const match = /^([0-9a-f-]{36}):/i.exec(key);
  return match ? el('a', { href: `#/lead/${match[1]}` }, 'Open the lead') : null;
}

function message(m) {
  return el(
    'article',
    { class: 'panel' },
    el('div', { class: 'email-head' }, badge(m.status), el('span', { class: 'email-subject' }, m.subject)),
    el(
      'p',
      { class: 'sub' },
      `To ${m.to.join(', ')}`,
      m.bcc.length ? ` · Bcc ${m.bcc.join(', ')}` : '',
      ` · ${m.attempts} attempt(s) · `,
      timeEl(m.createdAt),
      leadLink(m.idempotencyKey) ? ' · ' : '',
      leadLink(m.idempotencyKey),
    ),
    m.lastError ? el('p', { class: 'error' }, m.lastError) : null,
    el('details', {}, el('summary', {}, 'Text'), el('pre', { class: 'body' }, m.text)),
  );
}

export async function showMail(app) {
  const stateNode = $('#mail-state');
  const list = clear($('#mail-list'));
  showState(stateNode, 'Loading the outbox…');
  try {
    const page = await api.get('/admin/api/outbox', { status: state.status, page: state.page });
    $('#mail-transport').textContent =
      page.transport === 'outbox'
        ? 'No SMTP server is configured: e-mail is kept here (state “stored”) instead of being delivered.'
        : 'E-mail is delivered over SMTP; failed attempts are retried by the e-mail queue.';
    const counts = clear($('#mail-counts'));
    for (const [status, count] of Object.entries(page.counts)) {
      if (count > 0) counts.append(badge(status, `${humanize(status)} ${formatNumber(count)}`));
    }
    list.append(...page.messages.map(message));
    showState(
      stateNode,
      page.messages.length ? null : state.status ? 'No e-mail in this state.' : 'No e-mail yet.',
    );
    showPage('#mail-pager', page, 'e-mails');
  } catch (error) {
    app.fail(error, stateNode);
  }
}

export function initMail(app) {
  $('#mail-filters select').addEventListener('change', (event) => {
    state.status = event.target.value;
    state.page = 1;
    void showMail(app);
  });
  $('#mail-filters').addEventListener('submit', (event) => event.preventDefault());
  wirePager('#mail-pager', state, () => showMail(app));
}
