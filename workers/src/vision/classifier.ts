import { seededRandom } from '../random';
import type { FeatureMatrix } from './features';

/**
 * A small classifier over standardised features: softmax regression (hidden = 0) or an MLP with
 * one ReLU layer. Weights are row-major: w1 is inputs×hidden, w2 is (hidden || inputs)×classes, so
 * the forward pass is exactly the ONNX graph of onnx-export.ts (Sub, Mul, MatMul, Add, Relu, Softmax).
 */
export interface Classifier {
  inputs: number;
  hidden: number;
  classes: number;
  mean: Float32Array;
  invStd: Float32Array;
  w1: Float32Array;
  b1: Float32Array;
  w2: Float32Array;
  b2: Float32Array;
}

export interface TrainOptions {
  /** Hidden units; 0 gives softmax regression (default 16). */
  hidden?: number;
  maxEpochs?: number;
  /** Epochs without a better held-out loss before stopping (default 25). */
  patience?: number;
  learningRate?: number;
  l2?: number;
  batchSize?: number;
  seed?: number;
  /** Share of rows, at the end in time, held out for early stopping (default 0.2). */
  validationShare?: number;
  /** Rows [validationFrom, rows) are the early-stopping set (overrides validationShare). */
  validationFrom?: number;
  /** Called after every epoch; may stop the training by throwing (cancellation). */
  onEpoch?: (epoch: number, maxEpochs: number) => void | Promise<void>;
}

export interface TrainResult {
  model: Classifier;
  epochs: number;
  bestEpoch: number;
  trainLoss: number;
  validationLoss: number;
  /** Rows [validationFrom, rows) were held out. */
  validationFrom: number;
}

/** Smallest standard deviation used for scaling: a feature constant while training must not explode later. */
const MIN_STD = 0.01;

/** The network's weights while training, in float64; the keys in the order they are stored and restored. */
type Params = Record<'w1' | 'b1' | 'w2' | 'b2', Float64Array>;
const PARAM_KEYS = ['w1', 'b1', 'w2', 'b2'] as const;

/** Class probabilities, rows × classes, row-major; the same arithmetic as the ONNX graph (float32 weights). */
export function predict(model: Classifier, x: FeatureMatrix): Float32Array {
  const out = new Float32Array(x.rows * model.classes);
  const input = new Float64Array(model.inputs);
  const hidden = new Float64Array(model.hidden);
  const logits = new Float64Array(model.classes);
  for (let r = 0; r < x.rows; r++) {
    for (let f = 0; f < model.inputs; f++) input[f] = Math.fround(Math.fround(x.data[r * x.columns + f]! - model.mean[f]!) * model.invStd[f]!);
    forward(model, input, hidden, logits);
    out.set(logits, r * model.classes);
  }
  return out;
}

/** One row through the network; `logits` ends holding the probabilities. */
function forward(model: Classifier, input: Float64Array, hidden: Float64Array, logits: Float64Array): void {
  const { inputs, classes } = model;
  let layer = input;
  let width = inputs;
  if (model.hidden > 0) {
    for (let h = 0; h < model.hidden; h++) {
      let z = model.b1[h]!;
      for (let f = 0; f < inputs; f++) z += input[f]! * model.w1[f * model.hidden + h]!;
      hidden[h] = z > 0 ? z : 0;
    }
    layer = hidden;
    width = model.hidden;
  }
  for (let c = 0; c < classes; c++) {
    let z = model.b2[c]!;
    for (let h = 0; h < width; h++) z += layer[h]! * model.w2[h * classes + c]!;
    logits[c] = z;
  }
  softmaxInPlace(logits);
}

function softmaxInPlace(values: Float64Array): void {
  let max = -Infinity;
  for (const v of values) max = Math.max(max, v);
  let sum = 0;
  for (let i = 0; i < values.length; i++) {
    values[i] = Math.exp(values[i]! - max);
    sum += values[i]!;
  }
  for (let i = 0; i < values.length; i++) values[i]! /= sum;
}

/** Index of the largest probability of each row. */
export function argmaxRows(probabilities: Float32Array, classes: number): Int32Array {
  const rows = probabilities.length / classes;
  const out = new Int32Array(rows);
  for (let r = 0; r < rows; r++) {
    let best = 0;
    for (let c = 1; c < classes; c++) if (probabilities[r * classes + c]! > probabilities[r * classes + best]!) best = c;
    out[r] = best;
  }
  return out;
}

/**
 * Fits the classifier with mini-batch Adam on cross-entropy weighted by inverse class frequency
 * (rare operations count as much as common ones), L2 on weights, and early stopping on the
 * held-out last part of the span: the weights of the epoch with the lowest held-out loss are kept.
 * Deterministic for a given seed.
 */
export async function trainClassifier(x: FeatureMatrix, labels: Int32Array, classes: number, options: TrainOptions = {}): Promise<TrainResult> {
  const hiddenUnits = options.hidden ?? 16;
  const maxEpochs = options.maxEpochs ?? 300;
  const patience = options.patience ?? 25;
  const rate = options.learningRate ?? 0.01;
  const l2 = options.l2 ?? 1e-4;
  const batchSize = options.batchSize ?? 128;
  const random = seededRandom(options.seed ?? 1);
  const { rows, columns: inputs } = x;
  if (rows < 10) throw new Error('Слишком мало шагов для обучения: нужно не меньше 10');
  const validationFrom = Math.min(rows - 1, Math.max(1, options.validationFrom ?? Math.floor(rows * (1 - (options.validationShare ?? 0.2)))));

  const { mean, invStd, xs } = standardise(x, validationFrom);
  const classWeight = classWeights(labels, validationFrom, classes);
  const width = hiddenUnits > 0 ? hiddenUnits : inputs;
  const params = initialParams(inputs, hiddenUnits, classes, random);
  const grads = zerosLike(params);
  const adam = { m1: zerosLike(params), m2: zerosLike(params) };

  const z1 = new Float64Array(hiddenUnits);
  const h = new Float64Array(width);
  const p = new Float64Array(classes);
  const dz1 = new Float64Array(hiddenUnits);
  const rowForward = (r: number) => {
    const base = r * inputs;
    if (hiddenUnits > 0) {
      for (let j = 0; j < hiddenUnits; j++) {
        let z = params.b1[j]!;
        for (let f = 0; f < inputs; f++) z += xs[base + f]! * params.w1[f * hiddenUnits + j]!;
        z1[j] = z;
        h[j] = z > 0 ? z : 0;
      }
    } else {
      for (let f = 0; f < inputs; f++) h[f] = xs[base + f]!;
    }
    for (let c = 0; c < classes; c++) {
      let z = params.b2[c]!;
      for (let j = 0; j < width; j++) z += h[j]! * params.w2[j * classes + c]!;
      p[c] = z;
    }
    softmaxInPlace(p);
  };
  const lossOver = (from: number, to: number) => {
    let loss = 0;
    let weight = 0;
    for (let r = from; r < to; r++) {
      rowForward(r);
      const w = classWeight[labels[r]!]! || 1;
      loss -= w * Math.log(Math.max(1e-12, p[labels[r]!]!));
      weight += w;
    }
    return weight > 0 ? loss / weight : 0;
  };

  const order = Int32Array.from({ length: validationFrom }, (_, i) => i);
  let step = 0;
  let best = { loss: Infinity, epoch: 0, params: PARAM_KEYS.map((k) => params[k].slice()) };
  let epochs = 0;
  for (let epoch = 1; epoch <= maxEpochs; epoch++) {
    epochs = epoch;
    shuffle(order, random);
    for (let start = 0; start < order.length; start += batchSize) {
      const end = Math.min(order.length, start + batchSize);
      for (const k of PARAM_KEYS) grads[k].fill(0);
      let batchWeight = 0;
      for (let b = start; b < end; b++) batchWeight += classWeight[labels[order[b]!]!]!;
      if (batchWeight === 0) continue;
      for (let b = start; b < end; b++) {
        const r = order[b]!;
        rowForward(r);
        const w = classWeight[labels[r]!]! / batchWeight;
        if (hiddenUnits > 0) dz1.fill(0);
        for (let c = 0; c < classes; c++) {
          const d = (p[c]! - (c === labels[r] ? 1 : 0)) * w;
          grads.b2[c]! += d;
          for (let j = 0; j < width; j++) {
            grads.w2[j * classes + c]! += h[j]! * d;
            if (hiddenUnits > 0) dz1[j]! += params.w2[j * classes + c]! * d;
          }
        }
        if (hiddenUnits > 0) {
          const base = r * inputs;
          for (let j = 0; j < hiddenUnits; j++) {
            if (z1[j]! <= 0) continue;
            const d = dz1[j]!;
            grads.b1[j]! += d;
            for (let f = 0; f < inputs; f++) grads.w1[f * hiddenUnits + j]! += xs[base + f]! * d;
          }
        }
      }
      step++;
      adamStep(params, grads, adam, step, rate, l2);
    }
    const validationLoss = lossOver(validationFrom, rows);
    if (validationLoss < best.loss - 1e-6) best = { loss: validationLoss, epoch, params: PARAM_KEYS.map((k) => params[k].slice()) };
    await options.onEpoch?.(epoch, maxEpochs);
    // Yield to the event loop: the job keeps renewing its lock and can be aborted.
    await new Promise((resolve) => setTimeout(resolve, 0));
    if (epoch - best.epoch >= patience) break;
  }
  PARAM_KEYS.forEach((k, i) => params[k].set(best.params[i]!));
  return {
    model: {
      inputs,
      hidden: hiddenUnits,
      classes,
      mean,
      invStd,
      w1: Float32Array.from(params.w1),
      b1: Float32Array.from(params.b1),
      w2: Float32Array.from(params.w2),
      b2: Float32Array.from(params.b2),
    },
    epochs,
    bestEpoch: best.epoch,
    trainLoss: lossOver(0, validationFrom),
    validationLoss: best.loss,
    validationFrom,
  };
}

/**
 * Mean and inverse standard deviation of each feature over the training rows [0, validationFrom), and
 * every row scaled by them (float32 steps, as the ONNX graph computes them).
 */
function standardise(x: FeatureMatrix, validationFrom: number) {
  const { rows, columns: inputs } = x;
  const mean = new Float32Array(inputs);
  const invStd = new Float32Array(inputs);
  for (let f = 0; f < inputs; f++) {
    let s = 0;
    let s2 = 0;
    for (let r = 0; r < validationFrom; r++) {
      const v = x.data[r * inputs + f]!;
      s += v;
      s2 += v * v;
    }
    const m = s / validationFrom;
    mean[f] = m;
    invStd[f] = 1 / Math.max(MIN_STD, Math.sqrt(Math.max(0, s2 / validationFrom - m * m)));
  }
  const xs = new Float64Array(rows * inputs);
  for (let r = 0; r < rows; r++)
    for (let f = 0; f < inputs; f++) xs[r * inputs + f] = Math.fround(Math.fround(x.data[r * inputs + f]! - mean[f]!) * invStd[f]!);
  return { mean, invStd, xs };
}

/** Inverse class frequency over the training rows: each class present weighs as much in all; an absent class 0. */
function classWeights(labels: Int32Array, validationFrom: number, classes: number): Float64Array {
  const counts = new Float64Array(classes);
  for (let r = 0; r < validationFrom; r++) counts[labels[r]!]!++;
  const present = counts.filter((c) => c > 0).length;
  return Float64Array.from(counts, (c) => (c > 0 ? validationFrom / (present * c) : 0));
}

/** He-initialised weights (Box–Muller normals from `random`: w1 first, then w2), zero biases. */
function initialParams(inputs: number, hiddenUnits: number, classes: number, random: () => number): Params {
  const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const width = hiddenUnits > 0 ? hiddenUnits : inputs;
  return {
    w1: Float64Array.from({ length: hiddenUnits > 0 ? inputs * hiddenUnits : 0 }, () => normal() * Math.sqrt(2 / inputs)),
    b1: new Float64Array(hiddenUnits),
    w2: Float64Array.from({ length: width * classes }, () => normal() * Math.sqrt(1 / width)),
    b2: new Float64Array(classes),
  };
}

function zerosLike(params: Params): Params {
  return Object.fromEntries(PARAM_KEYS.map((k) => [k, new Float64Array(params[k].length)])) as Params;
}

/** Fisher–Yates shuffle in place. */
function shuffle(order: Int32Array, random: () => number): void {
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
}

/** One Adam update (β1 0.9, β2 0.999) of every weight, with L2 decay on w1 and w2 only. */
function adamStep(params: Params, grads: Params, moments: { m1: Params; m2: Params }, step: number, rate: number, l2: number): void {
  const { m1, m2 } = moments;
  const c1 = 1 - 0.9 ** step;
  const c2 = 1 - 0.999 ** step;
  for (const k of PARAM_KEYS) {
    const value = params[k];
    const grad = grads[k];
    const decay = k === 'w1' || k === 'w2' ? l2 : 0;
    for (let i = 0; i < value.length; i++) {
      const g = grad[i]! + decay * value[i]!;
      m1[k][i] = 0.9 * m1[k][i]! + 0.1 * g;
      m2[k][i] = 0.999 * m2[k][i]! + 0.001 * g * g;
      value[i]! -= (rate * (m1[k][i]! / c1)) / (Math.sqrt(m2[k][i]! / c2) + 1e-8);
    }
  }
}

/**
 * What the model saw of each class, to tell work it never saw (issue 43, docs/vision.md «Не
 * уверена»): per class, the centre and scale of each feature over its training steps and the
 * distance that NOVELTY_QUANTILE of those steps stay within, times NOVELTY_MARGIN. A step whose
 * features lie farther than that from the class the network chose is «не уверена», however sure
 * the softmax is (a softmax is sure far from everything it saw). Raw feature units, so applying
 * needs nothing but the features; stored in the model's spec.
 */
export interface NoveltyStats {
  /** Index as the classes; null for a class without training steps. */
  classes: ({ centre: number[]; scale: number[]; limit: number } | null)[];
}

/** Share of a class's training steps that lie within its limit (before the margin). */
export const NOVELTY_QUANTILE = 0.995;
/**
 * The limit is this many times the quantile's distance. Measured on the demo scene across days
 * (api/src/vision/unseen-operation.test.ts, docs/vision.md «Не уверена»): 90 % of the steps of work
 * the model saw lie within 5 quantile distances on the other day, 90 % of those of an operation it
 * never saw beyond 21; at 3 a seen operation of another day (light, pace, the worker's place) was
 * «не уверена» on up to all of its time.
 */
export const NOVELTY_MARGIN = 8;
/** A class's scale of a feature is at least this share of the feature's overall spread (a feature constant within a class must not explode). */
const MIN_CLASS_SCALE = 0.5;

const round6 = (v: number) => Number(v.toPrecision(6));

/** Root mean square over features of the standardised difference between row r of x and the class's centre. */
function classDistance(cls: { centre: number[]; scale: number[] }, data: ArrayLike<number>, base: number): number {
  let sum = 0;
  for (let f = 0; f < cls.centre.length; f++) {
    const d = (data[base + f]! - cls.centre[f]!) / cls.scale[f]!;
    sum += d * d;
  }
  return Math.sqrt(sum / cls.centre.length);
}

/** The novelty statistics of the rows [0, rows) of `x` with their labels (the training rows of `model`). */
export function noveltyStats(model: Classifier, x: FeatureMatrix, labels: Int32Array, rows: number): NoveltyStats {
  const { columns } = x;
  const classes: NoveltyStats['classes'] = [];
  for (let c = 0; c < model.classes; c++) {
    const members: number[] = [];
    for (let r = 0; r < rows; r++) if (labels[r] === c) members.push(r);
    if (members.length < 2) {
      classes.push(null);
      continue;
    }
    const centre = new Array<number>(columns).fill(0);
    const scale = new Array<number>(columns).fill(0);
    for (const r of members) for (let f = 0; f < columns; f++) centre[f]! += x.data[r * columns + f]!;
    for (let f = 0; f < columns; f++) centre[f] = centre[f]! / members.length;
    for (const r of members)
      for (let f = 0; f < columns; f++) {
        const d = x.data[r * columns + f]! - centre[f]!;
        scale[f]! += d * d;
      }
    for (let f = 0; f < columns; f++) scale[f] = Math.max(Math.sqrt(scale[f]! / members.length), MIN_CLASS_SCALE / model.invStd[f]!);
    const cls = { centre: centre.map(round6), scale: scale.map(round6) };
    const distances = members.map((r) => classDistance(cls, x.data, r * columns)).sort((a, b) => a - b);
    const quantile = distances[Math.min(distances.length - 1, Math.floor(NOVELTY_QUANTILE * distances.length))]!;
    classes.push({ ...cls, limit: round6(quantile * NOVELTY_MARGIN) });
  }
  return { classes };
}

/**
 * 1 where a step's features lie beyond the limit of the class the network chose for it (argmax of
 * `probabilities`), else 0. The applying job and the browser's live suggestion both call this. A
 * model trained before issue 43 has no statistics (`stats` undefined): every step is as sure as its softmax.
 */
export function uncertainSteps(stats: NoveltyStats | undefined, x: FeatureMatrix, probabilities: Float32Array, classes: number): Uint8Array {
  const out = new Uint8Array(x.rows);
  if (!stats) return out;
  const chosen = argmaxRows(probabilities, classes);
  for (let r = 0; r < x.rows; r++) {
    const cls = stats.classes[chosen[r]!];
    // A class the model never trained on cannot be chosen honestly.
    out[r] = !cls || classDistance(cls, x.data, r * x.columns) > cls.limit ? 1 : 0;
  }
  return out;
}

/**
 * The probabilities with one more class, «не уверена», last: a step whose features lie far from
 * the chosen class's training steps (noveltyStats) is wholly that class, any other
 * keeps its probabilities. Smoothing then treats «не уверена» as a class of its own — in the applying
 * job (pipeline.ts) and in the browser's live suggestion (pwa/src/ml) alike.
 */
export function withUncertainClass(probabilities: Float32Array, classes: number, uncertain: Uint8Array): Float32Array {
  const out = new Float32Array(uncertain.length * (classes + 1));
  for (let r = 0; r < uncertain.length; r++) {
    if (uncertain[r]) out[r * (classes + 1) + classes] = 1;
    else out.set(probabilities.subarray(r * classes, (r + 1) * classes), r * (classes + 1));
  }
  return out;
}
