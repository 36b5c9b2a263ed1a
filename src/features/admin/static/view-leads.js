import { api } from './api.js';
import {
  $,
  $$,
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

/** The leads table: filters, sorting, pagination. */

const state = { sort: 'createdAt', order: 'desc', page: 1, limit: 25, filters: {} };
let requestSeq = 0;

/** A local calendar day from <input type=date> as the instant it starts (or ends) in this time zone. */
function localDayBound(value, end) {
  if (!value) return undefined;
  const [y, m, d] = value.split('-').map(Number);
  const date = end ? new Date(y, m - 1, d, 23, 59, 59, 999) : new Date(y, m - 1, d);
  return Number.isNaN(date.getTime()) ? value : date.toISOString();
}

function readFilters(form) {
  const data = new FormData(form);
  return {
    q: String(data.get('q') ?? '').trim(),
    status: String(data.get('status') ?? ''),
    classification: String(data.get('classification') ?? ''),
    from: localDayBound(String(data.get('from') ?? ''), false),
    to: localDayBound(String(data.get('to') ?? ''), true),
  };
}

function crmCell(pipedrive) {
  if (!pipedrive) return el('span', { class: 'muted' }, 'Pending');
  if (pipedrive.success) {
    return el('span', {}, badge('ok', pipedrive.leadId ? `Deal #${pipedrive.leadId}` : 'Synced'));
  }
  return el(
    'span',
    { title: pipedrive.message },
    badge('bad', 'Not synced'),
    el('span', { class: 'sub' }, pipedrive.message),
  );
}

function prototypeCell(lead) {
  if (!lead.prototypeKind) return el('span', { class: 'muted' }, '—');
  const safe = typeof lead.previewUrl === 'string' && lead.previewUrl.startsWith('/api/leads/');
  return el(
    'span',
    {},
    safe
      ? el(
          'a',
          {
            href: lead.previewUrl,
            target: '_blank',
            rel: 'noopener noreferrer',
            onclick: (e) => e.stopPropagation(),
          },
          'Preview',
        )
      : null,
    el('span', { class: 'sub' }, humanize(lead.prototypeKind)),
  );
}

function row(lead) {
  const open = () => {
    window.location.hash = `#/lead/${lead.id}`;
  };
  return el(
    'tr',
    { 'data-id': lead.id, onclick: open },
    el('td', { 'data-label': 'Created' }, timeEl(lead.createdAt)),
    el(
      'td',
      { 'data-label': 'Name' },
      el(
        'span',
        {},
        el('a', { class: 'lead-name', href: `#/lead/${lead.id}` }, lead.name),
        el('span', { class: 'sub' }, lead.email),
      ),
    ),
    el('td', { 'data-label': 'Company' }, lead.company ?? el('span', { class: 'muted' }, '—')),
    el('td', { 'data-label': 'Status' }, badge(lead.status)),
    el(
      'td',
      { 'data-label': 'Classification' },
      el(
        'span',
        {},
        badge(lead.classification),
        el('span', { class: 'sub' }, lead.classifiedBy === 'llm' ? 'by the model' : 'by rules'),
      ),
    ),
    el('td', { 'data-label': 'CRM' }, crmCell(lead.pipedrive)),
    el('td', { 'data-label': 'Prototype' }, prototypeCell(lead)),
  );
}

function renderCounts(summary) {
  const node = clear($('#lead-counts'));
  if (!summary) return;
  node.append(el('span', { class: 'badge' }, `${formatNumber(summary.leads.total)} total`));
  for (const [status, count] of Object.entries(summary.leads.byStatus)) {
    node.append(badge(status, `${humanize(status)} ${formatNumber(count)}`));
  }
}

function renderSortButtons() {
  for (const button of $$('#leads-table .sort')) {
    if (button.dataset.sort === state.sort) {
      button.setAttribute('aria-sort', state.order === 'asc' ? 'ascending' : 'descending');
    } else {
      button.removeAttribute('aria-sort');
    }
  }
}

export async function showLeads(app) {
  const seq = ++requestSeq;
  const stateNode = $('#leads-state');
  const body = $('#leads-table tbody');
  renderSortButtons();
  showState(stateNode, 'Loading leads…');
  try {
    const [page, summary] = await Promise.all([
      api.get('/admin/api/leads', {
        ...state.filters,
        sort: state.sort,
        order: state.order,
        page: state.page,
        limit: state.limit,
      }),
      api.get('/admin/api/summary'),
    ]);
    if (seq !== requestSeq) return;
    app.features = summary.features;
    renderCounts(summary);
    clear(body).append(...page.leads.map(row));
    const filtered = Object.values(state.filters).some(Boolean);
    if (page.leads.length === 0) {
      showState(
        stateNode,
        filtered
          ? 'No lead matches these filters.'
          : 'No leads yet. They appear here as visitors submit the wizard.',
      );
    } else {
      showState(stateNode, null);
    }
    showPage('#leads-pager', page, 'leads');
  } catch (error) {
    if (seq !== requestSeq) return;
    clear(body);
    app.fail(error, stateNode);
  }
}

export function initLeads(app) {
  const form = $('#lead-filters');
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    state.filters = readFilters(form);
    state.page = 1;
    void showLeads(app);
  });
  form.addEventListener('reset', () => {
    state.filters = {};
    state.page = 1;
    setTimeout(() => void showLeads(app), 0);
  });
  for (const select of $$('select', form)) {
    select.addEventListener('change', () => form.requestSubmit());
  }
  for (const button of $$('#leads-table .sort')) {
    button.addEventListener('click', () => {
      const sort = button.dataset.sort;
      state.order = state.sort === sort && state.order === 'desc' ? 'asc' : 'desc';
      state.sort = sort;
      state.page = 1;
      void showLeads(app);
    });
  }
  wirePager('#leads-pager', state, () => showLeads(app));
  $('#leads-pager select[name="limit"]').addEventListener('change', (event) => {
    state.limit = Number(event.target.value);
    state.page = 1;
    void showLeads(app);
  });
}
