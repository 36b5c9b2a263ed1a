import { api, keyStore } from './api.js';
import { $, $$, showState } from './dom.js';
import { initAnalytics, showAnalytics } from './view-analytics.js';
import { initContact, showContact } from './view-contact.js';
import { showDetail } from './view-detail.js';
import { initLeads, showLeads } from './view-leads.js';
import { initMail, showMail } from './view-mail.js';
import { initPrivacy, showPrivacy } from './view-privacy.js';
import { initQueues, showQueues } from './view-queues.js';
import { initSupport, showSupport } from './view-support.js';

/**
 * The dashboard: a sign-in form, then views chosen by the URL fragment (#/leads, #/lead/<id>,
 * #/contact, #/support, #/mail, #/queues, #/analytics, #/privacy). The admin key lives in sessionStorage only.
 */

const VIEWS = ['login', 'leads', 'detail', 'contact', 'support', 'mail', 'queues', 'analytics', 'privacy'];

const app = {
  features: { analytics: false, prototypes: false },

  /** Shows an API failure: a wrong or expired key sends the operator back to the sign-in form. */
  fail(error, stateNode) {
    if (error?.kind === 'unauthorized') {
      signOut('expired');
      return;
    }
    showState(stateNode, error?.message ?? 'Something went wrong.', 'error');
  },
};

function showView(name) {
  for (const view of VIEWS) $(`#${view}-view`).hidden = view !== name;
  const signedIn = name !== 'login';
  $('#tabs').hidden = !signedIn;
  $('#logout').hidden = !signedIn;
  const tab = name === 'detail' ? 'leads' : name;
  for (const link of $$('#tabs a')) {
    if (link.dataset.tab === tab) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
}

function banner(message, kind = 'error') {
  const node = $('#banner');
  node.hidden = !message;
  node.className = kind === 'info' ? 'banner info' : 'banner';
  node.textContent = message ?? '';
}

const EXPIRED = 'The admin key was not accepted any more. Sign in again.';

/**
 * Signing out (or a key the server stopped accepting) reloads the page: nothing a signed-in view
 * rendered or fetched stays in it. The reason travels in the fragment, not in storage.
 */
function signOut(reason) {
  keyStore.clear();
  window.history.replaceState(null, '', `${window.location.pathname}#/login${reason ? '/expired' : ''}`);
  window.location.reload();
}

function showLogin(message) {
  banner(null);
  showView('login');
  const error = $('#login-error');
  error.hidden = !message;
  error.textContent = message ?? '';
  $('#admin-key').value = '';
  $('#admin-key').focus();
}

async function route() {
  if (!keyStore.get()) {
    showLogin(null);
    return;
  }
  banner(null);
  const hash = window.location.hash || '#/leads';
  const lead = /^#\/lead\/([A-Za-z0-9_-]{1,64})$/.exec(hash);
  if (lead) {
    showView('detail');
    await showDetail(app, lead[1]);
  } else if (hash === '#/contact') {
    showView('contact');
    await showContact(app);
  } else if (hash === '#/support') {
    showView('support');
    await showSupport(app);
  } else if (hash === '#/mail') {
    showView('mail');
    await showMail(app);
  } else if (hash === '#/queues') {
    showView('queues');
    await showQueues(app);
  } else if (hash === '#/analytics') {
    showView('analytics');
    await showAnalytics(app);
  } else if (hash === '#/privacy') {
    showView('privacy');
    await showPrivacy(app);
  } else {
    showView('leads');
    await showLeads(app);
  }
}

/** Checks the key with one cheap call; keeps it only when the server accepts it. */
async function signIn(key) {
  keyStore.set(key);
  const button = $('#login-form button');
  button.disabled = true;
  try {
    const summary = await api.get('/admin/api/summary');
    app.features = summary.features;
    app.summary = summary;
    $('#admin-key').value = '';
    $('#login-error').hidden = true;
    if (window.location.hash.startsWith('#/login')) window.history.replaceState(null, '', '#/leads');
    await route();
  } catch (error) {
    keyStore.clear();
    const node = $('#login-error');
    node.hidden = false;
    node.textContent =
      error.kind === 'unauthorized' ? 'That key was not accepted. Check it and try again.' : error.message;
  } finally {
    button.disabled = false;
  }
}

function start() {
  initLeads(app);
  initContact(app);
  initSupport(app);
  initMail(app);
  initQueues(app);
  initAnalytics(app);
  initPrivacy(app);
  $('#login-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const key = $('#admin-key').value.trim();
    if (key) void signIn(key);
  });
  $('#logout').addEventListener('click', () => signOut(null));
  window.addEventListener('hashchange', () => void route());
  window.addEventListener('offline', () => banner('You are offline. The data shown may be out of date.'));
  window.addEventListener('online', () => banner(null));

  if (keyStore.get()) {
    // A reload within the tab: the key is still in sessionStorage; check it again.
    void signIn(keyStore.get());
  } else {
    showLogin(window.location.hash === '#/login/expired' ? EXPIRED : null);
  }
}

start();
