'use strict';
// A policy's stored statistics, recomputed from the replay's scores and
// compared with the stored ones (the "stats" map of the core).
//
// A score is the number of guesses a target takes: the depth (root = 1) of
// the node whose guess wins it, or for a deduced leaf the depth of its parent.
//   count, worst, best    integers
//   histogram             [[score, targets], ...] in increasing score order
//   mean                  the nearest float64 to the exact quotient of integer sums
//                         (weighted: sum of weight x score / sum of weights)
//   median                unweighted: middle score, or the mean of the two middle ones;
//                         weighted: smallest s with 2 * weight(score <= s) >= total weight
//   stdev                 unweighted: the sample standard deviation (divisor count - 1);
//                         weighted: sqrt(W*S2 - S1*S1) / W (the population one)
//   entropy               weighted only: -sum p log2 p over p = weight / W, in bits
//   uniform_mean          prior-weighted only: the unweighted mean (sum / count)
//   probabilities         prior-weighted only: [[score, weight(score) / W], ...]
// stdev and entropy are compared within a relative 1e-9; everything else exactly.

const { MsgpackFloat } = require('./msgpack');

const TOLERANCE = 1e-9;
const APPROXIMATE = new Set(['stdev', 'entropy']);

function bitLength(n) {
  return n === 0n ? 0 : n.toString(2).length;
}

/** The nearest float64 to a / b (BigInts, a >= 0, b > 0), ties to even. */
function divide(a, b) {
  const safe = BigInt(Number.MAX_SAFE_INTEGER);
  if (a <= safe && b <= safe) return Number(a) / Number(b); // both exact: one rounding
  if (a === 0n) return 0;
  // A quotient of at least 65 bits, its last bit made sticky when inexact:
  // BigInt -> Number conversion then rounds it once, correctly.
  const shift = bitLength(b) - bitLength(a) + 66;
  const num = shift >= 0 ? a << BigInt(shift) : a;
  const den = shift >= 0 ? b : b << BigInt(-shift);
  let q = num / den;
  if (num % den !== 0n) q |= 1n;
  return Number(q) * 2 ** -shift;
}

const float = (value) => new MsgpackFloat(value);

/** The statistics a policy stores for its targets' scores (weights: BigInt64Array or null;
 * prior: the weights are a prior's, which adds uniform_mean and probabilities). */
function policyStats(scores, weights, prior = false) {
  const counts = new Map();
  for (const s of scores) counts.set(s, (counts.get(s) || 0) + 1);
  const order = [...counts.keys()].sort((x, y) => x - y);
  const base = {
    count: scores.length,
    worst: order[order.length - 1],
    best: order[0],
    histogram: order.map((s) => [s, counts.get(s)]),
  };
  if (weights === null) {
    const n = BigInt(scores.length);
    let s1 = 0n;
    let s2 = 0n;
    for (const s of scores) {
      s1 += BigInt(s);
      s2 += BigInt(s * s);
    }
    const sorted = Float64Array.from(scores).sort();
    const mid = Math.floor(scores.length / 2);
    const median = scores.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    const stdev = scores.length > 1 ? Math.sqrt(divide(n * s2 - s1 * s1, n * (n - 1n))) : 0;
    return { ...base, mean: float(divide(s1, n)), stdev: float(stdev), median: float(median) };
  }
  let total = 0n;
  let first = 0n;
  let second = 0n;
  const byScore = new Map();
  scores.forEach((s, i) => {
    const w = weights[i];
    const g = BigInt(s);
    total += w;
    first += w * g;
    second += w * g * g;
    byScore.set(s, (byScore.get(s) || 0n) + w);
  });
  let median = scores[0];
  let passed = 0n;
  for (const s of order) {
    passed += byScore.get(s);
    if (2n * passed >= total) {
      median = s;
      break;
    }
  }
  const W = Number(total);
  let entropy = 0;
  for (const w of weights) {
    const p = Number(w) / W;
    entropy -= p * Math.log2(p);
  }
  const stats = {
    ...base,
    mean: float(divide(first, total)),
    stdev: float(Math.sqrt(Number(total * second - first * first)) / W),
    median: float(median),
    entropy: float(entropy),
  };
  if (prior) {
    let sum = 0n;
    for (const s of scores) sum += BigInt(s);
    stats.uniform_mean = float(divide(sum, BigInt(scores.length)));
    stats.probabilities = order.map((s) => [s, float(divide(byScore.get(s), total))]);
  }
  return stats;
}

function isClose(a, b) {
  return Math.abs(a - b) <= Math.max(TOLERANCE * Math.max(Math.abs(a), Math.abs(b)), TOLERANCE);
}

/** How `stored` differs from `recomputed` (an empty list when they agree): the same
 * msgpack type (int or float) and value, stdev and entropy (int or float) within the
 * tolerance; stored keys beyond the recomputed ones are ignored. */
function statsFaults(stored, recomputed) {
  const faults = [];
  for (const [key, value] of Object.entries(recomputed)) {
    const held = Object.prototype.hasOwnProperty.call(stored, key) ? stored[key] : undefined;
    let same;
    if (APPROXIMATE.has(key)) {
      const number = held instanceof MsgpackFloat ? held.value : held;
      same = typeof number === 'number' && isClose(number, value.value);
    } else if (value instanceof MsgpackFloat) {
      same = held instanceof MsgpackFloat && held.value === value.value; // NaN is never equal
    } else {
      same = JSON.stringify(held) === JSON.stringify(value); // ints, and histogram's arrays of ints
    }
    if (!same) faults.push(`stored ${key} ${JSON.stringify(held)} differs from the replay's ${JSON.stringify(value)}`);
  }
  return faults;
}

module.exports = { policyStats, statsFaults, divide };
