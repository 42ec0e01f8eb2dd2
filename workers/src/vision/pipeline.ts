import {
  argmaxRows,
  noveltyStats,
  predict,
  trainClassifier,
  uncertainSteps,
  withUncertainClass,
  type Classifier,
  type NoveltyStats,
  type TrainOptions,
} from './classifier';
import { blockRoles, evaluateLabels, permutationImportance, roleRuns, segmentScores, StepRole, type Evaluation, type SegmentScores } from './evaluate';
import { augmentedRows, relitFrame, shiftRect, TRAINING_LIGHTS, TRAINING_SHIFTS } from './augment';
import { AreaFeatureExtractor, featureNames, pixelLightOf, toWorkRect, type FeatureMatrix, type SourceRect } from './features';
import { samplesOnlyReferences, SAMPLED_RATE, type ReferenceLayout } from '../media/reference-frames';
import { decodeFramesTogether, workSize, type Sampling } from './frames';
import { movenetInputSize } from './movenet-decode';
import { exportOnnx, ONNX_OPSET } from './onnx-export';
import { loadClassifier } from './onnx-runtime';
import { poseFeatureNames, POSE_FEATURES_PER_AREA, poseFeatures, poseSampleOf, type PoseSampling } from './pose-features';
import { smoothPredictions, type Segment } from './smoothing';
import { checkPicture, viewSignature, type ViewSignature } from './view-check';

/** Frames per second sampled for features (one time step = 0.2 s). */
export const DEFAULT_FPS = SAMPLED_RATE;
export const DEFAULT_SMOOTHING = { minSegmentSeconds: 1, hysteresis: 0.15 };
/**
 * Hidden units of the classifier: 0, a softmax regression (docs/vision.md «Случайное начало»). Its loss
 * is convex, so every random start reaches the same model; a one-layer perceptron fits the training
 * day just as well but lands, by its start, on one of many solutions, most of which fail on another
 * day (bench/vision-seeds.bench.ts: the demo camera's other day at F1 0 for an operation in 5 of 6 starts).
 */
export const DEFAULT_HIDDEN = 0;
/** Pixel features relative to the frame's light (features.ts; 1 — absolute, still applied as such). */
export const FEATURE_VERSION = 3;
/** Pixel features as in FEATURE_VERSION, then the pose features of every area (pose-features.ts); 2 — version 1 with poses. */
export const POSE_FEATURE_VERSION = 4;

export interface VisionArea {
  id: number;
  name: string;
  /** In pixels of `frame` when given (the frame it was drawn on); in a spec, pixels of the spec's `source`. */
  rect: SourceRect;
  /** The size of the frame the area was drawn on (0023); absent: the training video's own size. */
  frame?: { width: number; height: number };
}

/** `rect` drawn on a `from`-sized frame, in pixels of a `to`-sized one (the same relative place). */
export function scaleRect(rect: SourceRect, from: { width: number; height: number }, to: { width: number; height: number }): SourceRect {
  const sx = to.width / from.width;
  const sy = to.height / from.height;
  return { x1: rect.x1 * sx, y1: rect.y1 * sy, x2: rect.x2 * sx, y2: rect.y2 * sy };
}

export interface VisionClass {
  /** null: background (none of the chosen operations). */
  operationId: number | null;
  name: string;
}

/** Everything needed to compute the same features and read the outputs again (stored with the model and inside the ONNX file). */
export interface VisionSpec {
  featureVersion: number;
  fps: number;
  work: { width: number; height: number };
  /** The training video's picture size: the areas' rects are its pixels, scaled to any other video's (docs/vision.md «Разрешение и вид камеры»). */
  source: { width: number; height: number };
  areas: VisionArea[];
  /** The training view's signature (view-check.ts), compared with an applied video's; absent in models trained before it. */
  view?: ViewSignature;
  /** Index 0 is the background. */
  classes: VisionClass[];
  featureNames: string[];
  /** Present when the model also uses keypoints of people (MoveNet, on the server only): how they are sampled. */
  pose?: PoseSampling;
  hidden: number;
  smoothing: { minSegmentSeconds: number; hysteresis: number };
  opset: number;
  /** How far from its training steps a chosen class may lie before the step is «не уверена» (issue 43); absent in older models. */
  novelty?: NoveltyStats;
}

/** A recording to sample: its file, picture size and, when known, how its reference frames lie (skipping the others where exact). */
export interface SourceVideoFile extends ReferenceLayout {
  file: string;
  width: number;
  height: number;
}

export interface SpanInput {
  video: SourceVideoFile;
  startSecond: number;
  endSecond: number;
  signal?: AbortSignal;
  /** 0–100 of this stage. */
  progress?: (percent: number) => void;
}

/**
 * Decodes a span (ffmpeg, streamed) and computes the area features of every step; with `spec.pose`
 * the same decode also gives sparse RGB frames for the pose features (MoveNet once per pose sample,
 * held between samples).
 */
export async function extractSpanFeatures(
  input: SpanInput,
  spec: Pick<VisionSpec, 'fps' | 'work' | 'areas' | 'pose' | 'source'> & { featureVersion?: number },
  views?: { shifts: [number, number][]; out: FeatureMatrix[] },
): Promise<FeatureMatrix> {
  // Any resolution of the camera: the areas (pixels of the training picture) at the same relative
  // place of this video's picture, and the frames decoded to the model's working size (a different
  // aspect ratio is stretched to it; view-check.ts warns about it).
  const areas = spec.areas.map((a) => ({ ...a, rect: scaleRect(a.rect, spec.source, input.video) }));
  const rects = areas.map((a) => toWorkRect(a.rect, input.video, spec.work));
  const expected = Math.ceil((input.endSecond - input.startSecond) * spec.fps) + 1;
  const extractor = new AreaFeatureExtractor(rects, spec.work.width, spec.fps, expected, pixelLightOf(spec.featureVersion ?? FEATURE_VERSION));
  // Training views (augment.ts): the same frames through moved areas under other light, pixel features only.
  const viewExtractors = (views?.shifts ?? []).map(
    ([dx, dy], i) =>
      new AreaFeatureExtractor(
        rects.map((r) => shiftRect(r, dx, dy, spec.work)),
        spec.work.width,
        spec.fps,
        expected,
        pixelLightOf(spec.featureVersion ?? FEATURE_VERSION),
        (frame) => relitFrame(frame, TRAINING_LIGHTS[i % TRAINING_LIGHTS.length]!),
      ),
  );
  // With poses, one decode feeds both samplings (issue 43): gray work-size frames for the pixel
  // features and RGB frames at MoveNet's size for the pose features, read at once.
  // Only reference frames are decoded when every sampled frame is one (media/reference-frames.ts): the same pictures, a fraction of the decoding.
  const rates = [spec.fps, ...(spec.pose ? [spec.pose.fps] : [])];
  const skipUnreferenced = rates.every((fps) => samplesOnlyReferences(input.video, input.startSecond, fps));
  const span = { startSecond: input.startSecond, endSecond: input.endSecond, source: input.video, skipUnreferenced };
  const pixelSampling: Sampling = { ...span, fps: spec.fps, width: spec.work.width, height: spec.work.height };
  const poses = spec.pose ? await poseCollector(input, spec.pose, areas) : null;
  let pixelDone = 0;
  const report = () => input.progress?.(poses ? 30 * pixelDone + 70 * poses.done() : 100 * pixelDone);
  await decodeFramesTogether(
    input.video.file,
    [pixelSampling, ...(poses ? [{ ...span, ...poses.sampling }] : [])],
    [
      (frame, index) => {
        extractor.push(frame);
        for (const view of viewExtractors) view.push(frame);
        if (index % 25 === 0) {
          pixelDone = Math.min(1, index / expected);
          report();
        }
      },
      ...(poses
        ? [
            async (frame: Uint8Array) => {
              await poses.push(frame);
              report();
            },
          ]
        : []),
    ],
    input.signal,
  );
  const features = extractor.finish();
  if (features.rows === 0) throw new Error('В выбранном отрезке видео не удалось прочитать ни одного кадра');
  views?.out.push(...viewExtractors.map((view) => view.finish()));
  if (!spec.pose || !poses) return features;
  const posed = poses.finish();
  const perArea = spec.areas.length * POSE_FEATURES_PER_AREA;
  const columns = features.columns + perArea;
  const data = new Float32Array(features.rows * columns);
  for (let r = 0; r < features.rows; r++) {
    data.set(features.data.subarray(r * features.columns, (r + 1) * features.columns), r * columns);
    const sample = poseSampleOf(r, spec.fps, spec.pose.fps, posed.rows);
    if (posed.rows > 0) data.set(posed.data.subarray(sample * perArea, (sample + 1) * perArea), r * columns + features.columns);
  }
  return { rows: features.rows, columns, data };
}

/**
 * The pose features of each pose sample of a span, one RGB frame at MoveNet's input size per sample
 * (`sampling`, decoded beside the pixel features' frames): `push` each frame in order, then `finish`.
 */
async function poseCollector(input: SpanInput, pose: PoseSampling, areas: VisionArea[]) {
  // TensorFlow.js loads only for a model that uses poses.
  const { moveNetPeople } = await import('./movenet');
  const size = movenetInputSize(input.video.width, input.video.height, pose.inputWidth);
  const perArea = areas.length * POSE_FEATURES_PER_AREA;
  const expected = Math.ceil((input.endSecond - input.startSecond) * pose.fps) + 1;
  let data = new Float32Array(expected * perArea);
  let rows = 0;
  return {
    sampling: { fps: pose.fps, ...size, pixelFormat: 'rgb24' as const },
    async push(frame: Uint8Array) {
      if (input.signal?.aborted) return;
      const people = await moveNetPeople(frame, size, input.video, pose.columns);
      if ((rows + 1) * perArea > data.length) {
        const bigger = new Float32Array(data.length * 2);
        bigger.set(data);
        data = bigger;
      }
      poseFeatures(
        people,
        areas.map((a) => a.rect),
        data.subarray(rows * perArea, (rows + 1) * perArea),
      );
      rows++;
    },
    /** The share of the expected samples done, 0–1. */
    done: () => Math.min(1, rows / expected),
    finish: (): FeatureMatrix => ({ rows, columns: perArea, data: data.subarray(0, rows * perArea) }),
  };
}

/** A labelled span of the marked video, seconds from its start. */
export interface LabelSpan {
  classIndex: number;
  startSecond: number;
  endSecond: number;
}

/** The class of each step (its time is start + i / fps): the labelled span covering it, else the background (0). */
export function stepLabels(rows: number, startSecond: number, fps: number, spans: LabelSpan[]): Int32Array {
  const labels = new Int32Array(rows);
  for (let i = 0; i < rows; i++) {
    const t = startSecond + i / fps;
    const hit = spans.find((s) => t >= s.startSecond && t < s.endSecond);
    labels[i] = hit ? hit.classIndex : 0;
  }
  return labels;
}

/** «Фон (прочее)» needs examples (issue 43): at least this share of the marked span … */
export const MIN_BACKGROUND_SHARE = 0.1;
/** … and at least this many seconds of it. */
export const MIN_BACKGROUND_SECONDS = 5;

const secondsText = (v: number) => (Math.round(v * 10) / 10).toString().replace('.', ',');

/**
 * Null when the marked span shows enough other work (time under none of the chosen operations:
 * other operations of the workplace, pauses, unlabelled time), else the plain reason the model is
 * not trained — without such examples every step would be one of the chosen operations, at full
 * confidence (docs/vision.md «Прочая работа»). The API checks it before queueing, the job again.
 */
export function backgroundShortfall(spanSeconds: number, backgroundSeconds: number): string | null {
  const needed = Math.max(MIN_BACKGROUND_SECONDS, MIN_BACKGROUND_SHARE * spanSeconds);
  if (backgroundSeconds >= needed) return null;
  return (
    `Модели не на чем узнать прочую работу: в отрезке обучения на «Фон (прочее)» — время без выбранных операций — приходится ${secondsText(backgroundSeconds)} с из ${secondsText(spanSeconds)} с, ` +
    `а нужно не меньше ${secondsText(needed)} с (${MIN_BACKGROUND_SHARE * 100} % отрезка, но не меньше ${MIN_BACKGROUND_SECONDS} с). ` +
    'Расширьте отрезок на время, когда работник занят другим, или разметьте такое время другой операцией рабочего места, не выбранной для модели.'
  );
}

export interface TrainingReport {
  steps: number;
  trainSteps: number;
  validationSteps: number;
  /** Where the reported scores come from: blocks of the marked span kept out of training, or another span. */
  test: { source: 'blocks' | 'other'; steps: number; description: string };
  /** Training steps per class (index as in spec.classes). */
  trainStepsPerClass: number[];
  epochs: number;
  bestEpoch: number;
  validationLoss: number;
  /** Step scores on the test steps (never used for fitting or early stopping). */
  evaluation: Evaluation;
  /** Segment F1 at IoU 0.5 and edit score of the smoothed predictions on the test steps. */
  segments: SegmentScores;
  /** The constant answer: the class most frequent in training, for every test step. */
  baseline: { classIndex: number; evaluation: Evaluation };
  /** Share of the test steps the model is «не уверена» about (features far from the chosen class's training steps). */
  uncertainShare: number;
  /** Plain warnings for the analyst (Russian). */
  warnings: string[];
  importance: { feature: string; drop: number }[];
}

/** A span to test on instead of blocks of the marked span (another video or day of the camera). */
export interface TestSpan {
  video: SourceVideoFile;
  startSecond: number;
  endSecond: number;
  spans: LabelSpan[];
  /** How the report names it, e.g. «видео "cam1.mp4", 0–600 с». */
  description: string;
}

export interface TrainInput extends SpanInput {
  areas: VisionArea[];
  classes: VisionClass[];
  spans: LabelSpan[];
  fps?: number;
  hidden?: number;
  /** Also keypoints of people as features (pose-features.ts), sampled so; absent: pixel features only. */
  pose?: PoseSampling;
  train?: Omit<TrainOptions, 'onEpoch' | 'hidden' | 'validationFrom' | 'validationShare'>;
  test?: TestSpan;
}

export interface TrainOutput {
  spec: VisionSpec;
  onnx: Uint8Array;
  classifier: Classifier;
  report: TrainingReport;
}

/** The rows of `x` at `rows`, in that order. */
function pickRows(x: FeatureMatrix, rows: number[]): FeatureMatrix {
  const data = new Float32Array(rows.length * x.columns);
  rows.forEach((r, i) => data.set(x.data.subarray(r * x.columns, (r + 1) * x.columns), i * x.columns));
  return { rows: rows.length, columns: x.columns, data };
}

/** The matrices one under another (the same columns). */
function concatRows(parts: FeatureMatrix[]): FeatureMatrix {
  const columns = parts[0]!.columns;
  const data = new Float32Array(parts.reduce((n, p) => n + p.rows, 0) * columns);
  let offset = 0;
  for (const p of parts) {
    data.set(p.data.subarray(0, p.rows * columns), offset);
    offset += p.rows * columns;
  }
  return { rows: offset / columns, columns, data };
}

const rowsWith = (roles: Uint8Array, role: StepRole) => Array.from(roles.keys()).filter((r) => roles[r] === role);

/**
 * What the classifier is fitted on: the training steps as filmed and once more through another
 * view (augment.ts), then the early-stopping steps as filmed (from `validationFrom` on).
 */
function fitSet(features: FeatureMatrix, views: FeatureMatrix[], roles: Uint8Array, labels: Int32Array) {
  const trainRows = rowsWith(roles, StepRole.Train);
  const validationRows = rowsWith(roles, StepRole.Validation);
  const x = concatRows([pickRows(features, trainRows), augmentedRows(features, views, trainRows), pickRows(features, validationRows)]);
  const rows = [...trainRows, ...trainRows, ...validationRows];
  return { trainRows, validationRows, fit: { x, labels: Int32Array.from(rows, (r) => labels[r]!), validationFrom: 2 * trainRows.length } };
}
const macroF1 = (e: Evaluation, classes: number[]) => (classes.length ? classes.reduce((sum, c) => sum + e.perClass[c]!.f1, 0) / classes.length : 0);

/**
 * The test runs through the model: step labels (argmax) and, smoothed as the applying job does,
 * segments, scored against the truth; and how many steps the model is «не уверена» about.
 */
function scoreTestRuns(
  model: Classifier,
  novelty: NoveltyStats,
  testRuns: { x: FeatureMatrix; truth: Int32Array }[],
  smoothing: { minSegmentSteps: number; hysteresis: number },
) {
  const classes = model.classes;
  const truth: number[] = [];
  const predicted: number[] = [];
  let uncertain = 0;
  const segmentRuns = testRuns.map((run) => {
    const probabilities = predict(model, run.x);
    uncertain += uncertainSteps(novelty, run.x, probabilities, classes).reduce((n, u) => n + u, 0);
    truth.push(...run.truth);
    predicted.push(...argmaxRows(probabilities, classes));
    const smoothed = new Int32Array(run.truth.length);
    for (const s of smoothPredictions(probabilities, classes, smoothing)) smoothed.fill(s.label, s.from, s.to);
    return { truth: run.truth, predicted: smoothed };
  });
  return { truth, evaluation: evaluateLabels(truth, predicted, classes), segments: segmentScores(segmentRuns, classes), uncertain };
}

/**
 * Training (job vision.train): features of the marked span (progress 0–60), labels from the
 * markups, the classifier (60–90) fitted on interleaved blocks of the span with early stopping on
 * other blocks (evaluate.ts blockRoles), scores on test steps that took part in neither — blocks
 * of the span, or another span when given — and the ONNX file (90–100).
 */
export async function trainOperationModel(input: TrainInput): Promise<TrainOutput> {
  return fitTraining(await prepareTraining(input), input.train);
}

/** Everything training reads from the videos, decoded once: a model can be fitted on it several times (`fitTraining`). */
export type PreparedTraining = Awaited<ReturnType<typeof prepareTraining>>;

/** The decoding half of training (progress 0–60): features and labels of the span, the test runs, the training view. */
export async function prepareTraining(input: TrainInput) {
  const fps = input.fps ?? DEFAULT_FPS;
  const work = workSize(input.video.width, input.video.height);
  const source = { width: input.video.width, height: input.video.height };
  // The areas in pixels of the training picture, whatever frame each was drawn on.
  const areas = input.areas.map(({ id, name, rect, frame }) => ({ id, name, rect: frame ? scaleRect(rect, frame, source) : rect }));
  const labels0 = input.areas.map((_, i) => `area${i + 1}`);
  const names = [...featureNames(labels0), ...(input.pose ? poseFeatureNames(labels0) : [])];
  const pose = input.pose;
  const progress = input.progress ?? (() => {});
  const share = input.test ? 0.45 : 0.6;
  const views: FeatureMatrix[] = [];
  const features = await extractSpanFeatures(
    { ...input, progress: (p) => progress(p * share) },
    { fps, work, areas, pose, source },
    { shifts: TRAINING_SHIFTS, out: views },
  );
  const labels = stepLabels(features.rows, input.startSecond, fps, input.spans);
  if (!labels.some((l) => l > 0)) throw new Error('В выбранном отрезке нет разметки выбранных операций');
  const shortfall = backgroundShortfall(features.rows / fps, labels.filter((l) => l === 0).length / fps);
  if (shortfall) throw new Error(shortfall);
  const roles = blockRoles(features.rows, fps, !input.test);
  const { trainRows, validationRows, fit } = fitSet(features, views, roles, labels);

  // The test steps: contiguous runs, each scored by steps and, smoothed as the applying job does, by segments.
  let testRuns: { x: FeatureMatrix; truth: Int32Array }[];
  let test: TrainingReport['test'];
  if (input.test) {
    const other = await extractSpanFeatures(
      {
        video: input.test.video,
        startSecond: input.test.startSecond,
        endSecond: input.test.endSecond,
        signal: input.signal,
        progress: (p) => progress(45 + p * 0.15),
      },
      { fps, work, areas, pose, source },
    );
    testRuns = [{ x: other, truth: stepLabels(other.rows, input.test.startSecond, fps, input.test.spans) }];
    test = { source: 'other', steps: other.rows, description: input.test.description };
  } else {
    testRuns = roleRuns(roles, StepRole.Test).map(([from, to]) => ({
      x: pickRows(
        features,
        Array.from({ length: to - from }, (_, i) => from + i),
      ),
      truth: labels.slice(from, to),
    }));
    test = {
      source: 'blocks',
      steps: testRuns.reduce((n, r) => n + r.truth.length, 0),
      description: 'блоки размеченного отрезка, не участвовавшие в обучении',
    };
  }
  const view = await viewSignature(input.video, input, undefined, input.signal);
  // A test video of another aspect ratio or view: its scores are not the camera's as trained (issue 43).
  const pictureWarnings = input.test
    ? (await checkPicture({ source, view }, input.test.video, input.test, input.signal)).warnings.map((w) => `Проверочное видео: ${w}`)
    : [];
  const allTest = testRuns.length === 1 ? testRuns[0]!.x : pickRows(features, rowsWith(roles, StepRole.Test));
  return {
    input,
    fps,
    work,
    source,
    areas,
    names,
    pose,
    features,
    labels,
    trainRows,
    validationRows,
    fit,
    testRuns,
    test,
    view,
    pictureWarnings,
    allTest,
  };
}

/**
 * The fitting half of training (progress 60–100): the classifier, its «не уверена» statistics, its
 * scores on the test runs beside the constant answer, and the ONNX file. Deterministic for the given seed.
 */
export async function fitTraining(prepared: PreparedTraining, options: TrainInput['train'] = {}): Promise<TrainOutput> {
  const { input, fps, work, source, areas, names, pose, features, labels, trainRows, validationRows, fit, testRuns, test, view } = prepared;
  const progress = input.progress ?? (() => {});
  const hidden = input.hidden ?? DEFAULT_HIDDEN;
  const trained = await trainClassifier(fit.x, fit.labels, input.classes.length, {
    ...options,
    hidden,
    validationFrom: fit.validationFrom,
    onEpoch(epoch, max) {
      if (input.signal?.aborted) throw new Error('Обработка остановлена');
      progress(60 + (epoch / max) * 30);
    },
  });
  const { model } = trained;
  const classes = input.classes.length;
  const novelty = noveltyStats(model, fit.x, fit.labels, fit.validationFrom);
  const smoothing = { minSegmentSteps: Math.max(1, Math.round(DEFAULT_SMOOTHING.minSegmentSeconds * fps)), hysteresis: DEFAULT_SMOOTHING.hysteresis };
  const { truth, evaluation, segments, uncertain } = scoreTestRuns(model, novelty, testRuns, smoothing);
  const trainStepsPerClass = new Array<number>(classes).fill(0);
  for (const r of trainRows) trainStepsPerClass[labels[r]!]!++;
  const majority = trainStepsPerClass.reduce((best, n, c) => (n > trainStepsPerClass[best]! ? c : best), 0);
  const baseline = { classIndex: majority, evaluation: evaluateLabels(truth, new Array<number>(truth.length).fill(majority), classes) };
  const uncertainShare = truth.length > 0 ? uncertain / truth.length : 0;
  const warnings = [
    ...trainingWarnings(input.classes, trainStepsPerClass, evaluation, baseline, trained.bestEpoch, uncertainShare),
    ...prepared.pictureWarnings,
  ];
  progress(93);
  const importance = permutationImportance(model, prepared.allTest, Int32Array.from(truth), 0, truth.length)
    .slice(0, 10)
    .map((i) => ({ feature: names[i.feature]!, drop: i.drop }));
  const spec: VisionSpec = {
    featureVersion: pose ? POSE_FEATURE_VERSION : FEATURE_VERSION,
    fps,
    work,
    source,
    areas,
    view,
    classes: input.classes,
    featureNames: names,
    ...(pose ? { pose } : {}),
    hidden,
    smoothing: DEFAULT_SMOOTHING,
    opset: ONNX_OPSET,
    novelty,
  };
  const onnx = exportOnnx(model, { norma_vision_spec: JSON.stringify(spec) });
  progress(100);
  return {
    spec,
    onnx,
    classifier: model,
    report: {
      steps: features.rows,
      trainSteps: trainRows.length,
      validationSteps: validationRows.length,
      test,
      trainStepsPerClass,
      epochs: trained.epochs,
      bestEpoch: trained.bestEpoch,
      validationLoss: trained.validationLoss,
      evaluation,
      segments,
      baseline,
      uncertainShare,
      warnings,
      importance,
    },
  };
}

/** Above this share of «не уверена» test steps the report warns (the test steps are like the training ones: a few are expected). */
const MAX_UNCERTAIN_TEST_SHARE = 0.1;

/** The warnings an analyst must not miss: an operation the model never saw or was never tested on, no gain over the constant answer, best epoch 1, many «не уверена» test steps. */
function trainingWarnings(
  classes: VisionClass[],
  trainSteps: number[],
  evaluation: Evaluation,
  baseline: TrainingReport['baseline'],
  bestEpoch: number,
  uncertainShare: number,
): string[] {
  const warnings: string[] = [];
  classes.forEach((c, i) => {
    if (i === 0) return;
    if (trainSteps[i] === 0) warnings.push(`Операция «${c.name}»: нет ни одного шага для обучения — модель её не узнает.`);
    else if (evaluation.perClass[i]!.support === 0) warnings.push(`Операция «${c.name}»: нет шагов для проверки — её качество не оценено.`);
  });
  const present = classes.map((_, i) => i).filter((i) => evaluation.perClass[i]!.support > 0);
  const model = macroF1(evaluation, present);
  const constant = macroF1(baseline.evaluation, present);
  if (evaluation.steps > 0 && (evaluation.accuracy <= baseline.evaluation.accuracy || model <= constant))
    warnings.push(
      `Модель не лучше постоянного ответа «${classes[baseline.classIndex]?.name}»: доля верных шагов ${percent(evaluation.accuracy)} против ${percent(baseline.evaluation.accuracy)}, средний F1 ${percent(model)} против ${percent(constant)}.`,
    );
  if (bestEpoch <= 1) warnings.push('Лучшая эпоха — первая: модель почти не обучилась. Проверьте разметку, области и операции.');
  if (evaluation.steps === 0) warnings.push('Нет шагов для проверки: качество модели не оценено.');
  if (uncertainShare > MAX_UNCERTAIN_TEST_SHARE)
    warnings.push(
      `На шагах проверки модель «не уверена» в ${percent(uncertainShare)} шагов: они не похожи на то, что она видела при обучении. Такие шаги при применении не станут операциями; обучите модель на отрезке, где есть и такая работа.`,
    );
  return warnings;
}

export interface AppliedSegment {
  classIndex: number;
  operationId: number;
  startSecond: number;
  endSecond: number;
  /** Mean probability of the segment's class over its steps (0…1): how sure the model was. */
  confidence: number;
}

export interface ApplyOutput {
  steps: number;
  /** Non-background segments after smoothing, seconds from the video start. */
  segments: AppliedSegment[];
  /** Where the model is «не уверена» (issue 43): spans of steps unlike anything it was trained on, never an operation. */
  uncertain: { startSecond: number; endSecond: number }[];
  /** Steps that were «не уверена» before smoothing. */
  uncertainSteps: number;
  probabilities: Float32Array;
}

/**
 * Applying (job vision.apply): the model's features over the span (0–85), onnxruntime-web
 * inference (85–95), «не уверена» where the features are far from what the chosen class was
 * trained on, smoothing into segments; background and «не уверена» segments are not operations.
 */
export async function applyOperationModel(input: SpanInput & { onnx: Uint8Array; spec: VisionSpec }): Promise<ApplyOutput> {
  const { spec } = input;
  const progress = input.progress ?? (() => {});
  // Open the model first: a bad file fails before any decoding.
  const session = await loadClassifier(input.onnx, { inputs: spec.featureNames.length, classes: spec.classes.length });
  try {
    const features = await extractSpanFeatures({ ...input, progress: (p) => progress(p * 0.85) }, spec);
    const probabilities = await session.run(features);
    progress(95);
    const classes = spec.classes.length;
    const uncertain = uncertainSteps(spec.novelty, features, probabilities, classes);
    const extended = withUncertainClass(probabilities, classes, uncertain);
    const segments = smoothPredictions(extended, classes + 1, {
      minSegmentSteps: Math.max(1, Math.round(spec.smoothing.minSegmentSeconds * spec.fps)),
      hysteresis: spec.smoothing.hysteresis,
    });
    return {
      steps: features.rows,
      ...toSeconds(segments, extended, input.startSecond, input.endSecond, spec),
      uncertainSteps: uncertain.reduce((n, u) => n + u, 0),
      probabilities,
    };
  } finally {
    await session.release();
  }
}

/** Smoothed segments (over the classes and «не уверена», index spec.classes.length) as the operations' segments and the «не уверена» spans, in seconds. */
function toSeconds(segments: Segment[], probabilities: Float32Array, startSecond: number, endSecond: number, spec: VisionSpec) {
  const at = (step: number) => Math.min(endSecond, startSecond + step / spec.fps);
  const columns = spec.classes.length + 1;
  const confidence = (s: Segment) => {
    let sum = 0;
    for (let r = s.from; r < s.to; r++) sum += probabilities[r * columns + s.label]!;
    return s.to > s.from ? sum / (s.to - s.from) : 0;
  };
  const operations: AppliedSegment[] = segments
    .filter((s) => s.label > 0 && spec.classes[s.label]?.operationId != null)
    .map((s) => ({
      classIndex: s.label,
      operationId: spec.classes[s.label]!.operationId!,
      startSecond: at(s.from),
      endSecond: at(s.to),
      confidence: confidence(s),
    }))
    .filter((s) => s.endSecond > s.startSecond);
  const uncertain = segments
    .filter((s) => s.label === spec.classes.length)
    .map((s) => ({ startSecond: at(s.from), endSecond: at(s.to) }))
    .filter((s) => s.endSecond > s.startSecond);
  return { segments: operations, uncertain };
}

const percent = (v: number) => `${(v * 100).toFixed(1)}%`;

/** The report shown on /model/{id}: Russian plain text. */
export function reportText(report: TrainingReport, spec: VisionSpec, context: { videoName: string; startSecond: number; endSecond: number }): string {
  const names = spec.classes.map((c) => c.name);
  const width = Math.max(10, ...names.map((n) => n.length));
  const lines = [
    `Обучено на видео «${context.videoName}», отрезок ${context.startSecond}–${context.endSecond} с; ${spec.fps} кадров/с, кадр ${spec.work.width}×${spec.work.height}.`,
    `Области: ${spec.areas.map((a) => a.name).join(', ')}. Классы: ${names.join(', ')}.`,
    `Кадр обучения: ${spec.source.width}×${spec.source.height}; к видео этой камеры другого разрешения области переносятся в то же место кадра. Другое соотношение сторон (больше 1 %) или сдвинутый вид камеры${spec.view ? '' : ' (у этой модели нет подписи вида — только соотношение сторон)'} — предупреждение перед применением и в его итоге.`,
    `Модель: ${spec.hidden > 0 ? `перцептрон, скрытый слой ${spec.hidden} (ReLU)` : 'многоклассовая логистическая регрессия'}, ONNX opset ${spec.opset}.`,
    ...(spec.pose
      ? [
          `Признаки: пиксели областей и позы людей (MoveNet, ${spec.pose.fps} раз/с, вход ${spec.pose.inputWidth} пикс.: голова, локти, запястья в каждой области); позы считает только сервер — подсказки в браузере у этой модели нет.`,
        ]
      : []),
    `Обучение: ${report.trainSteps} шагов; ранняя остановка — по ${report.validationSteps} другим шагам; оценка — ${report.test.description}: ${report.test.steps} шагов (ни в обучении, ни в остановке не участвовали).`,
    `Эпох: ${report.epochs}, лучшая по потере на шагах остановки: ${report.bestEpoch} (потеря ${report.validationLoss.toFixed(4)}).`,
    '',
    ...(report.warnings.length ? ['Предупреждения:', ...report.warnings.map((w) => `  ! ${w}`), ''] : []),
    'Качество на проверке (шаги по 0,2 с; отрезки — после сглаживания, как при применении):',
    `${'Класс'.padEnd(width)}  Обуч.  Пров.  Точность  Полнота     F1  F1 отрезков@0,5`,
    ...report.evaluation.perClass.map(
      (m, c) =>
        `${names[c]!.padEnd(width)}  ${String(report.trainStepsPerClass[c] ?? 0).padStart(5)}  ${String(m.support).padStart(5)}  ${percent(m.precision).padStart(8)}  ${percent(m.recall).padStart(7)}  ${percent(m.f1).padStart(6)}  ${percent(report.segments.perClass[c]?.f1 ?? 0).padStart(15)}`,
    ),
    `Доля верных шагов: ${percent(report.evaluation.accuracy)}; оценка правок (edit score): ${report.segments.editScore.toFixed(1)}.`,
    `«Не уверена» (признаки далеко от того, что модель видела у выбранного класса; при применении такой шаг не станет операцией): ${percent(report.uncertainShare)} шагов проверки.`,
    `Постоянный ответ «${names[report.baseline.classIndex]}» на тех же шагах: доля верных ${percent(report.baseline.evaluation.accuracy)}, F1 по классам: ${report.baseline.evaluation.perClass
      .map((m, c) => `${names[c]} ${percent(m.f1)}`)
      .join(', ')}.`,
    '',
    'Матрица ошибок (строки — разметка, столбцы — модель):',
    `${''.padEnd(width)}  ${names.map((n, i) => `${i}:${n}`.slice(0, 12).padStart(12)).join(' ')}`,
    ...report.evaluation.confusion.map((row, c) => `${`${c}:${names[c]}`.padEnd(width)}  ${row.map((v) => String(v).padStart(12)).join(' ')}`),
    '',
    'Важность признаков (падение доли верных шагов на проверке при перемешивании признака):',
    ...report.importance
      .filter((i) => i.drop > 0)
      .map((i) => `  ${i.feature.replace(/^area(\d+)/, (_, n: string) => spec.areas[Number(n) - 1]?.name ?? `area${n}`)}: ${percent(i.drop)}`),
    report.importance.some((i) => i.drop > 0)
      ? '  остальные признаки по отдельности на проверке не влияют (их сведения дублируют друг друга)'
      : '  ни один признак по отдельности на проверке не влияет (их сведения дублируют друг друга)',
  ];
  return lines.join('\n');
}
