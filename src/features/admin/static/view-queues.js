import { api } from './api.js';
import { $, badge, clear, el, formatNumber, showState, timeEl } from './dom.js';

/** The durable queues: counts, health, dead jobs with retry buttons. */

const HEALTH = { ok: 'Healthy', backlog: 'Backlog', 'dead-jobs': 'Dead jobs' };

async function retry(app, path, button) {
  button.disabled = true;
  try {
    const result = await api.post(path);
    showState($('#queues-state'), `${result.retried} job(s) put back in the queue.`);
  } catch (error) {
    app.fail(error, $('#queues-state'));
    return;
  } finally {
    button.disabled = false;
  }
  await showQueues(app, { keepMessage: true });
}

function queueCard(app, queue) {
  const name = encodeURIComponent(queue.name);
  const dead = queue.deadJobs.map((job) =>
    el(
      'div',
      { class: 'dead-job' },
      el(
        'div',
        {},
        el('code', {}, job.idempotencyKey ?? job.id),
        el(
          'span',
          { class: 'sub' },
          `${job.attempts}/${job.maxAttempts} attempts · died `,
          timeEl(job.finishedAt),
        ),
        job.lastError ? el('span', { class: 'sub error' }, job.lastError) : null,
      ),
      el(
        'button',
        {
          class: 'button small',
          type: 'button',
          onclick: (event) =>
            retry(
              app,
              `/admin/api/queues/${name}/jobs/${encodeURIComponent(job.id)}/retry`,
              event.currentTarget,
            ),
        },
        'Retry',
      ),
    ),
  );
  return el(
    'section',
    { class: 'panel', 'data-queue': queue.name },
    el(
      'div',
      { class: 'email-head' },
      el('h2', {}, queue.name),
      badge(queue.health, HEALTH[queue.health] ?? queue.health),
    ),
    el(
      'div',
      { class: 'queue-counts' },
      ['pending', 'running', 'completed', 'dead'].map((key) =>
        el('div', {}, el('strong', {}, formatNumber(queue.counts[key])), key),
      ),
    ),
    el(
      'p',
      { class: 'sub' },
      `${formatNumber(queue.ready)} due now`,
      queue.oldestPendingAt ? [' · oldest pending since ', timeEl(queue.oldestPendingAt)] : '',
    ),
    queue.counts.dead > 0
      ? el(
          'div',
          {},
          el('h2', {}, 'Dead jobs'),
          dead,
          el(
            'button',
            {
              class: 'button ghost small',
              type: 'button',
              onclick: (event) => retry(app, `/admin/api/queues/${name}/retry`, event.currentTarget),
            },
            `Retry all ${queue.counts.dead}`,
          ),
        )
      : el('p', { class: 'muted' }, 'No dead jobs.'),
  );
}

export async function showQueues(app, { keepMessage = false } = {}) {
  const stateNode = $('#queues-state');
  const list = $('#queues-list');
  if (!keepMessage) showState(stateNode, 'Loading the queues…');
  try {
    const { queues } = await api.get('/admin/api/queues');
    clear(list).append(...queues.map((queue) => queueCard(app, queue)));
    if (!keepMessage) showState(stateNode, queues.length ? null : 'No queue is registered on this server.');
  } catch (error) {
    clear(list);
    app.fail(error, stateNode);
  }
}

export function initQueues(app) {
  $('#queues-refresh').addEventListener('click', () => void showQueues(app));
}
