import { api } from './api.js';
import { badge, el, timeEl } from './dom.js';

/**
 * A lead's or a support message's classification: the decision, the classifier's score and reasons,
 * the corrections made so far, and the buttons that correct it (POST …/classification). Used by the
 * lead detail and the support messages view.
 */

const CLASSES = ['lead', 'spam', 'vendor'];

const decidedBy = (by) => (by === 'llm' ? 'The language model' : 'The built-in classifier');

function fieldList(pairs) {
  const list = el('dl', { class: 'fields' });
  for (const [label, value] of pairs) {
    const shown =
      value === null || value === undefined || value === '' ? el('span', { class: 'muted' }, '—') : value;
    list.append(el('dt', {}, label), el('dd', {}, shown));
  }
  return list;
}

function effectsText(c) {
  const parts = [];
  if (c.started.length) parts.push(`started: ${c.started.join(', ')}`);
  if (c.stopped.length) parts.push(`stopped: ${c.stopped.join(', ')}`);
  if (c.kept.length) parts.push(`already done, kept: ${c.kept.join(', ')}`);
  return parts.length ? parts.join(' · ') : 'no side effect changed';
}

function correctionList(corrections) {
  if (!corrections.length) return el('p', { class: 'muted corrections-none' }, 'Not corrected.');
  return el(
    'ol',
    { class: 'corrections' },
    corrections.map((c) =>
      el(
        'li',
        { 'data-from': c.from, 'data-to': c.to },
        timeEl(c.at),
        ' ',
        badge(c.from),
        ' → ',
        badge(c.to),
        ` (status ${c.fromStatus} → ${c.toStatus}) `,
        el('span', { class: 'sub' }, effectsText(c)),
      ),
    ),
  );
}

/**
 * record: {classification, classifiedBy, classificationReason, classificationScore,
 * classificationReasons, corrections}; `path`: its POST …/classification; `extra`: more [label, value]
 * rows; `onCorrected(answer)` runs after a correction that changed something.
 */
export function classificationSection(app, { record, path, extra = [], onCorrected }) {
  const original = record.corrections.length ? record.corrections[0].from : record.classification;
  const result = el('p', { class: 'correct-result', role: 'status', hidden: true });
  const buttons = CLASSES.map((value) =>
    el(
      'button',
      {
        class: 'button small ghost',
        type: 'button',
        'data-mark': value,
        disabled: value === record.classification,
        'aria-pressed': value === record.classification ? 'true' : 'false',
      },
      `Mark as ${value}`,
    ),
  );
  for (const button of buttons) {
    button.addEventListener('click', async () => {
      for (const b of buttons) b.disabled = true;
      result.hidden = false;
      result.className = 'correct-result';
      result.textContent = 'Saving…';
      try {
        const answer = await api.post(path, { classification: button.dataset.mark });
        result.textContent = answer.changed
          ? `Marked ${answer.classification}: ${effectsText(answer.correction)}.`
          : `Already ${answer.classification}: nothing changed.`;
        await onCorrected(answer);
      } catch (error) {
        if (error?.kind === 'unauthorized') return app.fail(error, result);
        result.className = 'correct-result error';
        result.textContent = error?.message ?? 'The correction failed.';
        for (const b of buttons) b.disabled = b.dataset.mark === record.classification;
      }
    });
  }
  const score = record.classificationScore;
  return el(
    'div',
    { class: 'classification', 'data-classification': record.classification },
    fieldList([
      ['Result', badge(record.classification)],
      ...(original !== record.classification
        ? [['Classifier said', el('span', {}, badge(original), ' (corrected by an admin)')]]
        : []),
      ['Decided by', decidedBy(record.classifiedBy)],
      ['Score', score === null || score === undefined ? null : score.toFixed(2)],
      [
        'Reasons',
        record.classificationReasons?.length
          ? el(
              'ul',
              { class: 'reasons' },
              record.classificationReasons.map((r) => el('li', {}, r)),
            )
          : record.classificationReason,
      ],
      ...extra,
    ]),
    el('div', { class: 'correct', role: 'group', 'aria-label': 'Correct the classification' }, buttons),
    result,
    el('h3', {}, 'Corrections'),
    correctionList(record.corrections),
  );
}
