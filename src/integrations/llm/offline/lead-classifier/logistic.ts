/**
 * Multinomial logistic regression with an L2 penalty, fitted by L-BFGS over sparse rows. Everything
 * runs in a fixed order with no randomness, so the same rows give the same weights to the last bit.
 */
export interface SparseRow {
  /** Column indices, ascending. */
  index: Int32Array;
  value: Float64Array;
  /** Class index. */
  label: number;
}

export interface LogisticFit {
  /** classes × columns, row-major. */
  weights: Float64Array;
  bias: Float64Array;
}

export interface LogisticOptions {
  classes: number;
  columns: number;
  /** Penalty on the weights (not the biases), relative to the mean loss. */
  l2: number;
  iterations: number;
}

export function fitLogistic(rows: SparseRow[], options: LogisticOptions): LogisticFit {
  const { classes, columns, l2 } = options;
  const size = classes * (columns + 1);
  const scores = new Float64Array(classes);

  // Parameters: weights (classes × columns), then the biases.
  const loss = (x: Float64Array, grad: Float64Array): number => {
    grad.fill(0);
    let total = 0;
    for (const row of rows) {
      for (let k = 0; k < classes; k++) {
        let s = x[classes * columns + k]!;
        const base = k * columns;
        for (let j = 0; j < row.index.length; j++) s += x[base + row.index[j]!]! * row.value[j]!;
        scores[k] = s;
      }
      const logZ = logSumExp(scores);
      total += logZ - scores[row.label]!;
      for (let k = 0; k < classes; k++) {
        const g = Math.exp(scores[k]! - logZ) - (k === row.label ? 1 : 0);
        const base = k * columns;
        for (let j = 0; j < row.index.length; j++) grad[base + row.index[j]!]! += g * row.value[j]!;
        grad[classes * columns + k]! += g;
      }
    }
    const n = rows.length;
    let penalty = 0;
    for (let i = 0; i < size; i++) grad[i]! /= n;
    for (let i = 0; i < classes * columns; i++) {
      penalty += x[i]! * x[i]!;
      grad[i]! += l2 * x[i]!;
    }
    return total / n + (l2 / 2) * penalty;
  };

  const x = minimize(loss, new Float64Array(size), options.iterations);
  return { weights: x.subarray(0, classes * columns), bias: x.subarray(classes * columns) };
}

export function logSumExp(values: Float64Array): number {
  let max = -Infinity;
  for (const v of values) if (v > max) max = v;
  let sum = 0;
  for (const v of values) sum += Math.exp(v - max);
  return max + Math.log(sum);
}

/** L-BFGS (memory 10) with a backtracking Armijo line search; stops on a flat gradient or the budget. */
function minimize(
  f: (x: Float64Array, grad: Float64Array) => number,
  start: Float64Array,
  iterations: number,
): Float64Array {
  const size = start.length;
  const memory = 10;
  let x = start;
  let grad = new Float64Array(size);
  let value = f(x, grad);
  const s: Float64Array[] = [];
  const y: Float64Array[] = [];
  const rho: number[] = [];
  const alpha = new Float64Array(memory);
  for (let iter = 0; iter < iterations; iter++) {
    if (Math.sqrt(dot(grad, grad)) < 1e-6) break;
    // Two-loop recursion: direction = -H·grad.
    const q = Float64Array.from(grad);
    for (let i = s.length - 1; i >= 0; i--) {
      alpha[i] = rho[i]! * dot(s[i]!, q);
      axpy(-alpha[i]!, y[i]!, q);
    }
    if (s.length > 0) {
      const last = s.length - 1;
      scale(q, dot(s[last]!, y[last]!) / dot(y[last]!, y[last]!));
    } else {
      scale(q, 1 / Math.max(1, Math.sqrt(dot(grad, grad))));
    }
    for (let i = 0; i < s.length; i++) {
      const beta = rho[i]! * dot(y[i]!, q);
      axpy(alpha[i]! - beta, s[i]!, q);
    }
    scale(q, -1);
    let slope = dot(grad, q);
    if (slope >= 0) {
      // Not a descent direction: restart from the gradient.
      s.length = 0;
      y.length = 0;
      rho.length = 0;
      q.set(grad);
      scale(q, -1 / Math.max(1, Math.sqrt(dot(grad, grad))));
      slope = dot(grad, q);
    }
    let step = 1;
    const next = new Float64Array(size);
    const nextGrad = new Float64Array(size);
    let nextValue = 0;
    for (let tries = 0; tries < 40; tries++) {
      for (let i = 0; i < size; i++) next[i] = x[i]! + step * q[i]!;
      nextValue = f(next, nextGrad);
      if (nextValue <= value + 1e-4 * step * slope) break;
      step /= 2;
    }
    const sk = new Float64Array(size);
    const yk = new Float64Array(size);
    for (let i = 0; i < size; i++) {
      sk[i] = next[i]! - x[i]!;
      yk[i] = nextGrad[i]! - grad[i]!;
    }
    const sy = dot(sk, yk);
    if (sy > 1e-12) {
      if (s.length === memory) {
        s.shift();
        y.shift();
        rho.shift();
      }
      s.push(sk);
      y.push(yk);
      rho.push(1 / sy);
    }
    const improvement = value - nextValue;
    x = next;
    grad = nextGrad;
    value = nextValue;
    if (improvement >= 0 && improvement < 1e-10) break;
  }
  return x;
}

function dot(a: Float64Array, b: Float64Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}

function axpy(a: number, x: Float64Array, y: Float64Array): void {
  for (let i = 0; i < y.length; i++) y[i]! += a * x[i]!;
}

function scale(x: Float64Array, a: number): void {
  for (let i = 0; i < x.length; i++) x[i]! *= a;
}
