import { api } from './api.js';
import { $, clear, el, formatNumber, humanize, showState, timeEl } from './dom.js';

/**
 * Privacy: the retention periods, one person's data (looked up by address: what is held, a JSON
 * export and each ticket file to download, then an erasure confirmed in a second step) and the audit
 * log. The section is built here; admin.html only holds its empty shell.
 */

const state = { settings: null, found: null };

const sentence = (text) => text.charAt(0).toUpperCase() + text.slice(1);

function days(n) {
  return n === 0 ? 'until erased' : `${formatNumber(n)} days`;
}

/** A file, fetched with the key (never a link carrying it), saved from memory. */
async function download(path, name) {
  save(await api.download(path), name);
}

function save(blob, name) {
  const url = URL.createObjectURL(blob);
  const link = el('a', { href: url, download: name, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

function skeleton() {
  return [
    el('div', { class: 'view-head' }, el('h1', {}, 'Privacy')),
    el('div', { id: 'privacy-state', class: 'state', role: 'status', hidden: true }),
    el(
      'div',
      { class: 'stack' },
      el(
        'div',
        { class: 'grid' },
        el('section', { class: 'panel', id: 'privacy-settings' }),
        el('section', { class: 'panel', id: 'privacy-retention' }, el('h2', {}, 'Retention')),
      ),
      el(
        'section',
        { class: 'panel', id: 'privacy-person' },
        el('h2', {}, 'One person’s data'),
        el(
          'p',
          { class: 'muted' },
          'Look up an address to see what is held, download it (the right of access), or erase it all.',
        ),
        el(
          'form',
          { id: 'privacy-lookup', class: 'filters compact', autocomplete: 'off' },
          el(
            'label',
            { class: 'grow' },
            'E-mail address',
            el('input', {
              name: 'email',
              type: 'email',
              maxlength: '254',
              required: true,
              spellcheck: 'false',
            }),
          ),
          el(
            'div',
            { class: 'filter-actions' },
            el('button', { class: 'button', type: 'submit' }, 'Look up'),
          ),
        ),
        el('div', { id: 'privacy-result' }),
      ),
      el(
        'section',
        { class: 'panel', id: 'privacy-audit' },
        el('div', { class: 'email-head' }, el('h2', {}, 'Audit log')),
        el(
          'p',
          { class: 'muted' },
          'Erasures and retention batches. An address is never kept: only a keyed hash of it.',
        ),
        el(
          'div',
          { class: 'table-wrap' },
          el('table', { class: 'table responsive', id: 'privacy-audit-table' }),
        ),
      ),
    ),
  ];
}

function renderSettings(settings) {
  const lists =
    settings.personalDataLists === 'admin'
      ? 'GET /api/leads and /api/contact need the admin key; GET /api/leads/{id} hides e-mail and phone without it.'
      : 'GET /api/leads and /api/contact are open to anyone, as the specification has them (PUBLIC_PERSONAL_DATA_LISTS).';
  clear($('#privacy-settings')).append(
    el('h2', {}, 'Settings'),
    el(
      'dl',
      { class: 'fields' },
      el('dt', {}, 'Listings'),
      el('dd', { 'data-field': 'lists' }, lists),
      el('dt', {}, 'Audit hash key'),
      el(
        'dd',
        {},
        settings.auditKey === 'PRIVACY_AUDIT_SECRET'
          ? 'PRIVACY_AUDIT_SECRET'
          : 'derived from ADMIN_API_SECRET',
      ),
      el('dt', {}, 'CRM'),
      el(
        'dd',
        { 'data-field': 'crm' },
        settings.crm.configured
          ? `Pipedrive; ${settings.crm.pendingErasures} erasure(s) pending, ${settings.crm.failedErasures} failed`
          : 'not configured (PIPEDRIVE_API_TOKEN)',
      ),
    ),
  );
  const table = el(
    'table',
    { class: 'table' },
    el('thead', {}, el('tr', {}, el('th', {}, 'Kind'), el('th', {}, 'Kept'), el('th', {}, 'Variable'))),
    el(
      'tbody',
      {},
      settings.retention.map((rule) =>
        el(
          'tr',
          { 'data-variable': rule.variable },
          el('td', {}, sentence(rule.kind)),
          el('td', {}, days(rule.days)),
          el('td', {}, el('code', {}, rule.variable)),
        ),
      ),
    ),
  );
  const panel = $('#privacy-retention');
  clear(panel).append(el('h2', {}, 'Retention'), el('div', { class: 'table-wrap' }, table));
}

function countList(counts) {
  const entries = Object.entries(counts).filter(([, n]) => n > 0);
  if (entries.length === 0) return el('p', { class: 'muted' }, 'Nothing.');
  return el(
    'ul',
    { class: 'privacy-counts' },
    entries.map(([kind, n]) =>
      el('li', { 'data-kind': kind }, el('strong', {}, formatNumber(n)), ` ${humanize(kind)}`),
    ),
  );
}

function renderFound(app, found) {
  const result = clear($('#privacy-result'));
  const files = (found.data.tickets ?? []).flatMap((ticket) =>
    ticket.files.map((file) =>
      el(
        'li',
        {},
        el(
          'button',
          {
            class: 'button ghost small',
            type: 'button',
            onclick: () =>
              download(file.download, file.filename).catch((error) => app.fail(error, $('#privacy-state'))),
          },
          file.filename,
        ),
        el('span', { class: 'sub' }, ` ${ticket.id} · ${formatNumber(file.size)} bytes`),
      ),
    ),
  );
  const confirm = el(
    'div',
    { class: 'privacy-confirm', id: 'privacy-confirm', hidden: true },
    el(
      'p',
      {},
      `Everything listed above about ${found.email} will be deleted for good. This cannot be undone.`,
    ),
    el(
      'label',
      { class: 'check' },
      el('input', {
        type: 'checkbox',
        name: 'crm',
        disabled: !state.settings?.crm.configured,
      }),
      ' Also delete the person, their deals and notes from Pipedrive',
    ),
    el(
      'div',
      { class: 'filter-actions' },
      el(
        'button',
        {
          class: 'button danger',
          type: 'button',
          id: 'privacy-erase-confirm',
          onclick: () => erase(app, found.email),
        },
        'Erase for good',
      ),
      el(
        'button',
        { class: 'button ghost', type: 'button', onclick: () => ($('#privacy-confirm').hidden = true) },
        'Cancel',
      ),
    ),
  );
  result.append(
    el('h3', {}, `Held about ${found.email}`),
    countList(found.counts),
    files.length
      ? el('div', {}, el('p', { class: 'sub' }, 'Ticket files'), el('ul', { class: 'privacy-files' }, files))
      : '',
    el(
      'div',
      { class: 'filter-actions' },
      el(
        'button',
        {
          class: 'button ghost',
          type: 'button',
          id: 'privacy-export',
          onclick: () =>
            save(
              new Blob([JSON.stringify(found, null, 2)], { type: 'application/json' }),
              `personal-data-${found.exportedAt.slice(0, 10)}.json`,
            ),
        },
        'Download the export (JSON)',
      ),
      el(
        'button',
        {
          class: 'button danger',
          type: 'button',
          id: 'privacy-erase',
          onclick: () => ($('#privacy-confirm').hidden = false),
        },
        'Erase…',
      ),
    ),
    confirm,
  );
}

async function lookUp(app, email) {
  const stateNode = $('#privacy-state');
  clear($('#privacy-result'));
  showState(stateNode, 'Looking…');
  try {
    state.found = await api.get('/admin/api/personal-data', { email });
    showState(stateNode, null);
    renderFound(app, state.found);
  } catch (error) {
    if (error.status === 404) {
      showState(stateNode, `Nothing is held about ${email}.`);
      await showAudit(app, email);
      return;
    }
    app.fail(error, stateNode);
  }
}

async function erase(app, email) {
  const stateNode = $('#privacy-state');
  const button = $('#privacy-erase-confirm');
  button.disabled = true;
  try {
    const crm = $('#privacy-confirm input[name="crm"]').checked;
    const result = await api.delete('/admin/api/personal-data', { email, crm: crm ? 'true' : undefined });
    state.found = null;
    clear($('#privacy-result')).append(
      el('h3', {}, `Erased: ${formatNumber(result.total)} item(s) about ${email}`),
      countList(result.counts),
      el(
        'p',
        { class: result.crm.status === 'queued' ? 'error' : 'sub', 'data-crm': result.crm.status },
        result.crm.message,
      ),
    );
    showState(stateNode, null);
    await Promise.all([showAudit(app), loadSettings(app)]);
  } catch (error) {
    button.disabled = false;
    app.fail(error, stateNode);
  }
}

function crmText(crm) {
  if (!crm) return '—';
  const detail = crm.detail && typeof crm.detail === 'object' ? crm.detail : {};
  if (crm.status === 'erased') return `erased (${detail.persons ?? 0} persons, ${detail.deals ?? 0} deals)`;
  return detail.error ? `${humanize(crm.status)}: ${detail.error}` : humanize(crm.status);
}

async function showAudit(app, email) {
  const table = $('#privacy-audit-table');
  try {
    const page = await api.get('/admin/api/privacy/audit', { email });
    clear(table).append(
      el(
        'thead',
        {},
        el(
          'tr',
          {},
          ['When', 'Why', 'Deleted', 'CRM', 'Address hash'].map((h) => el('th', {}, h)),
        ),
      ),
      el(
        'tbody',
        {},
        page.entries.length === 0
          ? el(
              'tr',
              {},
              el(
                'td',
                { colspan: '5', class: 'muted' },
                email ? 'No erasure of this address.' : 'Nothing yet.',
              ),
            )
          : page.entries.map((entry) =>
              el(
                'tr',
                { 'data-reason': entry.reason },
                el('td', { 'data-label': 'When' }, timeEl(entry.createdAt)),
                el(
                  'td',
                  { 'data-label': 'Why' },
                  entry.reason === 'request' ? 'Erasure request' : `Retention: ${entry.kind}`,
                ),
                el(
                  'td',
                  { 'data-label': 'Deleted' },
                  Object.entries(entry.counts)
                    .filter(([, n]) => n > 0)
                    .map(([kind, n]) => `${n} ${humanize(kind).toLowerCase()}`)
                    .join(', ') || 'nothing',
                ),
                el('td', { 'data-label': 'CRM' }, crmText(entry.crm)),
                el(
                  'td',
                  { 'data-label': 'Address hash' },
                  entry.emailHash
                    ? el('code', { title: entry.emailHash }, `${entry.emailHash.slice(0, 12)}…`)
                    : '—',
                ),
              ),
            ),
      ),
    );
  } catch (error) {
    app.fail(error, $('#privacy-state'));
  }
}

async function loadSettings(app) {
  try {
    state.settings = await api.get('/admin/api/privacy');
    renderSettings(state.settings);
  } catch (error) {
    app.fail(error, $('#privacy-state'));
  }
}

export async function showPrivacy(app) {
  await Promise.all([loadSettings(app), showAudit(app)]);
  if (state.found) renderFound(app, state.found);
}

export function initPrivacy(app) {
  $('#privacy-view').append(...skeleton());
  $('#privacy-lookup').addEventListener('submit', (event) => {
    event.preventDefault();
    const email = event.currentTarget.elements.email.value.trim();
    if (email) void lookUp(app, email);
  });
}
