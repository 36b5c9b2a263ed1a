import { CLASSES, type LeadClass } from '../../src/integrations/llm/offline/lead-classifier/model.ts';

/** Confusion matrix, accuracy, precision and recall per class of lead/spam/vendor decisions. */
export interface Outcome {
  expected: LeadClass;
  got: LeadClass;
}

export interface Metrics {
  total: number;
  accuracy: number;
  /** matrix[expected][got] */
  matrix: Record<LeadClass, Record<LeadClass, number>>;
  perClass: Record<LeadClass, { precision: number; recall: number; support: number }>;
}

export function measure(outcomes: Outcome[]): Metrics {
  const matrix = Object.fromEntries(
    CLASSES.map((e) => [e, Object.fromEntries(CLASSES.map((g) => [g, 0]))]),
  ) as Metrics['matrix'];
  for (const o of outcomes) matrix[o.expected][o.got]++;
  const perClass = {} as Metrics['perClass'];
  for (const c of CLASSES) {
    const support = CLASSES.reduce((n, g) => n + matrix[c][g], 0);
    const predicted = CLASSES.reduce((n, e) => n + matrix[e][c], 0);
    perClass[c] = {
      precision: predicted ? matrix[c][c] / predicted : Number.NaN,
      recall: support ? matrix[c][c] / support : Number.NaN,
      support,
    };
  }
  const right = CLASSES.reduce((n, c) => n + matrix[c][c], 0);
  return {
    total: outcomes.length,
    accuracy: outcomes.length ? right / outcomes.length : Number.NaN,
    matrix,
    perClass,
  };
}

const pct = (x: number) => (Number.isNaN(x) ? '   –  ' : `${(100 * x).toFixed(1).padStart(5)}%`);

/** The figures as lines of text. */
export function formatMetrics(m: Metrics): string[] {
  const right = CLASSES.reduce((n, c) => n + m.matrix[c][c], 0);
  return [
    `  accuracy ${pct(m.accuracy)} (${right}/${m.total})`,
    '  class    precision  recall   n',
    ...CLASSES.map(
      (c) =>
        `  ${c.padEnd(8)} ${pct(m.perClass[c].precision)}    ${pct(m.perClass[c].recall)}  ${String(m.perClass[c].support).padStart(3)}`,
    ),
    `  confusion (rows expected, columns got): ${CLASSES.map((c) => c.padStart(6)).join(' ')}`,
    ...CLASSES.map(
      (e) =>
        `  ${' '.repeat(40)}${e.padEnd(7)}${CLASSES.map((g) => String(m.matrix[e][g]).padStart(6)).join(' ')}`,
    ),
  ];
}
