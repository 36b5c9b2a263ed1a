/**
 * Multinomial logistic regression over sparse features: the trained part of the offline engine.
 * Training is full-batch L-BFGS on the mean log-loss plus an L2 penalty, with a fixed iteration cap
 * and no randomness, so the same examples give the same weights, bit for bit, on every run.
 */

/** One example: feature indices (distinct) and their values. */
export interface SparseRow {
  idx: ArrayLike<number>;
  val: ArrayLike<number>;
  /**
   * Class-tied features, `classes × tiedCount` (row-major): evidence for one class that shares its
   * weight across classes ("the sector lexicon names this value"), learnt from every class's examples.
   */
  tied?: Float64Array;
}

export interface SoftmaxWeights {
  /** Row-major `features × classes`. */
  w: Float64Array;
  /** One bias per class. */
  b: Float64Array;
  /** One weight per class-tied feature. */
  t: Float64Array;
  classes: number;
}

export interface TrainOptions {
  l2: number;
  iterations: number;
  /** Per-example weights (default 1). */
  sampleWeights?: number[];
}

/** Class scores (logits) of one row. */
export function logits(model: SoftmaxWeights, row: SparseRow, out = new Float64Array(model.classes)) {
  const k = model.classes;
  for (let c = 0; c < k; c++) out[c] = model.b[c]!;
  const g = model.t.length;
  if (row.tied && g > 0) {
    for (let c = 0; c < k; c++) for (let j = 0; j < g; j++) out[c]! += model.t[j]! * row.tied[c * g + j]!;
  }
  for (let i = 0; i < row.idx.length; i++) {
    const base = row.idx[i]! * k;
    const v = row.val[i]!;
    for (let c = 0; c < k; c++) out[c]! += v * model.w[base + c]!;
  }
  return out;
}

/** Softmax of `scores`, in place. */
export function softmax(scores: Float64Array): Float64Array {
  let max = Number.NEGATIVE_INFINITY;
  for (const s of scores) if (s > max) max = s;
  let sum = 0;
  for (let c = 0; c < scores.length; c++) {
    scores[c] = Math.exp(scores[c]! - max);
    sum += scores[c]!;
  }
  for (let c = 0; c < scores.length; c++) scores[c]! /= sum;
  return scores;
}

export function trainSoftmax(
  rows: SparseRow[],
  labels: number[],
  classes: number,
  features: number,
  options: TrainOptions,
  tiedCount = 0,
): SoftmaxWeights {
  const k = classes;
  const g = tiedCount;
  const size = features * k + k + g;
  const weights = options.sampleWeights ?? rows.map(() => 1);
  const totalWeight = weights.reduce((s, w) => s + w, 0) || 1;
  const probs = new Float64Array(k);

  // θ = [w (features × k), b (k), t (g)]; the bias is not penalised.
  const objective = (theta: Float64Array, grad: Float64Array): number => {
    grad.fill(0);
    let loss = 0;
    const wOff = features * k;
    const tOff = wOff + k;
    for (let r = 0; r < rows.length; r++) {
      const row = rows[r]!;
      const sw = weights[r]! / totalWeight;
      for (let c = 0; c < k; c++) probs[c] = theta[wOff + c]!;
      const tied = g > 0 ? row.tied : undefined;
      if (tied) {
        for (let c = 0; c < k; c++)
          for (let j = 0; j < g; j++) probs[c]! += theta[tOff + j]! * tied[c * g + j]!;
      }
      for (let i = 0; i < row.idx.length; i++) {
        const base = row.idx[i]! * k;
        const v = row.val[i]!;
        for (let c = 0; c < k; c++) probs[c]! += v * theta[base + c]!;
      }
      softmax(probs);
      const y = labels[r]!;
      loss -= sw * Math.log(Math.max(probs[y]!, 1e-300));
      probs[y]! -= 1;
      for (let c = 0; c < k; c++) grad[wOff + c]! += sw * probs[c]!;
      if (tied) {
        for (let c = 0; c < k; c++)
          for (let j = 0; j < g; j++) grad[tOff + j]! += sw * probs[c]! * tied[c * g + j]!;
      }
      for (let i = 0; i < row.idx.length; i++) {
        const base = row.idx[i]! * k;
        const v = row.val[i]! * sw;
        for (let c = 0; c < k; c++) grad[base + c]! += v * probs[c]!;
      }
    }
    const wOffEnd = features * k;
    for (let j = 0; j < wOffEnd; j++) {
      loss += 0.5 * options.l2 * theta[j]! * theta[j]!;
      grad[j]! += options.l2 * theta[j]!;
    }
    for (let j = tOff; j < tOff + g; j++) {
      loss += 0.5 * options.l2 * theta[j]! * theta[j]!;
      grad[j]! += options.l2 * theta[j]!;
    }
    return loss;
  };

  const theta = lbfgs(objective, new Float64Array(size), options.iterations);
  return {
    w: theta.slice(0, features * k),
    b: theta.slice(features * k, features * k + k),
    t: theta.slice(features * k + k),
    classes: k,
  };
}

/** Limited-memory BFGS (m = 8) with a backtracking Armijo line search. */
function lbfgs(
  f: (x: Float64Array, g: Float64Array) => number,
  x0: Float64Array,
  iterations: number,
): Float64Array {
  const n = x0.length;
  const m = 8;
  let x = x0;
  let g = new Float64Array(n);
  let fx = f(x, g);
  const s: Float64Array[] = [];
  const y: Float64Array[] = [];
  const rho: number[] = [];
  const alpha = new Float64Array(m);
  const d = new Float64Array(n);
  const xNew = new Float64Array(n);
  let gNew = new Float64Array(n);
  for (let iter = 0; iter < iterations; iter++) {
    // d = -H g (two-loop recursion)
    for (let i = 0; i < n; i++) d[i] = -g[i]!;
    for (let j = s.length - 1; j >= 0; j--) {
      alpha[j] = rho[j]! * dot(s[j]!, d);
      axpy(-alpha[j]!, y[j]!, d);
    }
    if (s.length > 0) {
      const last = s.length - 1;
      const gamma = dot(s[last]!, y[last]!) / dot(y[last]!, y[last]!);
      for (let i = 0; i < n; i++) d[i]! *= gamma;
    }
    for (let j = 0; j < s.length; j++) {
      const beta = rho[j]! * dot(y[j]!, d);
      axpy(alpha[j]! - beta, s[j]!, d);
    }
    let slope = dot(g, d);
    if (slope >= 0) {
      // Not a descent direction: restart from the gradient.
      for (let i = 0; i < n; i++) d[i] = -g[i]!;
      s.length = 0;
      y.length = 0;
      rho.length = 0;
      slope = dot(g, d);
    }
    let step = iter === 0 && s.length === 0 ? 1 / Math.max(Math.sqrt(dot(g, g)), 1e-12) : 1;
    let fNew = 0;
    let accepted = false;
    for (let tries = 0; tries < 30; tries++) {
      for (let i = 0; i < n; i++) xNew[i] = x[i]! + step * d[i]!;
      fNew = f(xNew, gNew);
      if (fNew <= fx + 1e-4 * step * slope) {
        accepted = true;
        break;
      }
      step *= 0.5;
    }
    if (!accepted) break;
    const sk = new Float64Array(n);
    const yk = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      sk[i] = xNew[i]! - x[i]!;
      yk[i] = gNew[i]! - g[i]!;
    }
    const sy = dot(sk, yk);
    if (sy > 1e-12) {
      if (s.length === m) {
        s.shift();
        y.shift();
        rho.shift();
      }
      s.push(sk);
      y.push(yk);
      rho.push(1 / sy);
    }
    x = Float64Array.from(xNew);
    const previous = fx;
    fx = fNew;
    const swap = g;
    g = gNew;
    gNew = swap;
    if (Math.abs(previous - fx) < 1e-9 * Math.max(1, Math.abs(fx))) break;
  }
  return x;
}

function dot(a: Float64Array, b: Float64Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}

function axpy(a: number, x: Float64Array, y: Float64Array) {
  for (let i = 0; i < x.length; i++) y[i]! += a * x[i]!;
}
