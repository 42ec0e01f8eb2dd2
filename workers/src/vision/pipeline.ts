import { argmaxRows, predict, trainClassifier, type Classifier, type TrainOptions } from './classifier';
import { evaluateLabels, permutationImportance, type Evaluation } from './evaluate';
import { AreaFeatureExtractor, featureNames, toWorkRect, type FeatureMatrix, type SourceRect } from './features';
import { decodeFrames, workSize } from './frames';
import { exportOnnx, ONNX_OPSET } from './onnx-export';
import { loadClassifier } from './onnx-runtime';
import { smoothPredictions, type Segment } from './smoothing';

/** Frames per second sampled for features (one time step = 0.2 s). */
export const DEFAULT_FPS = 5;
export const DEFAULT_SMOOTHING = { minSegmentSeconds: 1, hysteresis: 0.15 };
export const FEATURE_VERSION = 1;

export interface VisionArea {
  id: number;
  name: string;
  rect: SourceRect;
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
  source: { width: number; height: number };
  areas: VisionArea[];
  /** Index 0 is the background. */
  classes: VisionClass[];
  featureNames: string[];
  hidden: number;
  smoothing: { minSegmentSeconds: number; hysteresis: number };
  opset: number;
}

export interface SourceVideoFile {
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

/** Decodes a span (ffmpeg, streamed) and computes the area features of every step. */
export async function extractSpanFeatures(input: SpanInput, spec: Pick<VisionSpec, 'fps' | 'work' | 'areas'>): Promise<FeatureMatrix> {
  const rects = spec.areas.map((a) => toWorkRect(a.rect, input.video, spec.work));
  const expected = Math.ceil((input.endSecond - input.startSecond) * spec.fps) + 1;
  const extractor = new AreaFeatureExtractor(rects, spec.work.width, spec.fps, expected);
  await decodeFrames(
    input.video.file,
    { startSecond: input.startSecond, endSecond: input.endSecond, fps: spec.fps, width: spec.work.width, height: spec.work.height },
    (frame, index) => {
      extractor.push(frame);
      if (index % 25 === 0) input.progress?.(Math.min(100, (index / expected) * 100));
    },
    input.signal,
  );
  const features = extractor.finish();
  if (features.rows === 0) throw new Error('В выбранном отрезке видео не удалось прочитать ни одного кадра');
  return features;
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

export interface TrainingReport {
  steps: number;
  trainSteps: number;
  validationSteps: number;
  validationFromSecond: number;
  epochs: number;
  bestEpoch: number;
  validationLoss: number;
  evaluation: Evaluation;
  importance: { feature: string; drop: number }[];
}

export interface TrainInput extends SpanInput {
  areas: VisionArea[];
  classes: VisionClass[];
  spans: LabelSpan[];
  fps?: number;
  hidden?: number;
  train?: Omit<TrainOptions, 'onEpoch' | 'hidden'>;
}

export interface TrainOutput {
  spec: VisionSpec;
  onnx: Uint8Array;
  classifier: Classifier;
  report: TrainingReport;
}

/**
 * Training (job vision.train): features of the marked span (progress 0–60), labels from the
 * markups, the classifier with early stopping on the last 20% of the span (60–90), evaluation on
 * that held-out time and the ONNX file (90–100).
 */
export async function trainOperationModel(input: TrainInput): Promise<TrainOutput> {
  const fps = input.fps ?? DEFAULT_FPS;
  const work = workSize(input.video.width, input.video.height);
  const names = featureNames(input.areas.map((_, i) => `area${i + 1}`));
  const progress = input.progress ?? (() => {});
  const features = await extractSpanFeatures({ ...input, progress: (p) => progress(p * 0.6) }, { fps, work, areas: input.areas });
  const labels = stepLabels(features.rows, input.startSecond, fps, input.spans);
  if (!labels.some((l) => l > 0)) throw new Error('В выбранном отрезке нет разметки выбранных операций');
  const hidden = input.hidden ?? 16;
  const trained = await trainClassifier(features, labels, input.classes.length, {
    ...input.train,
    hidden,
    onEpoch(epoch, max) {
      if (input.signal?.aborted) throw new Error('Обработка остановлена');
      progress(60 + (epoch / max) * 30);
    },
  });
  const { model, validationFrom } = trained;
  const validation: FeatureMatrix = {
    rows: features.rows - validationFrom,
    columns: features.columns,
    data: features.data.subarray(validationFrom * features.columns),
  };
  const predicted = argmaxRows(predict(model, validation), model.classes);
  const evaluation = evaluateLabels(labels.subarray(validationFrom), predicted, model.classes);
  progress(93);
  const importance = permutationImportance(model, features, labels, validationFrom, features.rows)
    .slice(0, 10)
    .map((i) => ({ feature: names[i.feature]!, drop: i.drop }));
  const spec: VisionSpec = {
    featureVersion: FEATURE_VERSION,
    fps,
    work,
    source: { width: input.video.width, height: input.video.height },
    areas: input.areas,
    classes: input.classes,
    featureNames: names,
    hidden,
    smoothing: DEFAULT_SMOOTHING,
    opset: ONNX_OPSET,
  };
  const onnx = exportOnnx(model, { norma_vision_spec: JSON.stringify(spec) });
  progress(100);
  return {
    spec,
    onnx,
    classifier: model,
    report: {
      steps: features.rows,
      trainSteps: validationFrom,
      validationSteps: features.rows - validationFrom,
      validationFromSecond: input.startSecond + validationFrom / fps,
      epochs: trained.epochs,
      bestEpoch: trained.bestEpoch,
      validationLoss: trained.validationLoss,
      evaluation,
      importance,
    },
  };
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
  probabilities: Float32Array;
}

/**
 * Applying (job vision.apply): the model's features over the span (0–85), onnxruntime-web
 * inference (85–95), smoothing into segments; background segments are dropped.
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
    const segments = smoothPredictions(probabilities, spec.classes.length, {
      minSegmentSteps: Math.max(1, Math.round(spec.smoothing.minSegmentSeconds * spec.fps)),
      hysteresis: spec.smoothing.hysteresis,
    });
    return { steps: features.rows, segments: toSeconds(segments, probabilities, input.startSecond, input.endSecond, spec), probabilities };
  } finally {
    await session.release();
  }
}

function toSeconds(segments: Segment[], probabilities: Float32Array, startSecond: number, endSecond: number, spec: VisionSpec): AppliedSegment[] {
  const at = (step: number) => Math.min(endSecond, startSecond + step / spec.fps);
  const classes = spec.classes.length;
  const confidence = (s: Segment) => {
    let sum = 0;
    for (let r = s.from; r < s.to; r++) sum += probabilities[r * classes + s.label]!;
    return s.to > s.from ? sum / (s.to - s.from) : 0;
  };
  return segments
    .filter((s) => s.label > 0 && spec.classes[s.label]?.operationId != null)
    .map((s) => ({
      classIndex: s.label,
      operationId: spec.classes[s.label]!.operationId!,
      startSecond: at(s.from),
      endSecond: at(s.to),
      confidence: confidence(s),
    }))
    .filter((s) => s.endSecond > s.startSecond);
}

const percent = (v: number) => `${(v * 100).toFixed(1)}%`;

/** The report shown on /model/{id}: Russian plain text. */
export function reportText(report: TrainingReport, spec: VisionSpec, context: { videoName: string; startSecond: number; endSecond: number }): string {
  const names = spec.classes.map((c) => c.name);
  const width = Math.max(10, ...names.map((n) => n.length));
  const lines = [
    `Обучено на видео «${context.videoName}», отрезок ${context.startSecond}–${context.endSecond} с; ${spec.fps} кадров/с, кадр ${spec.work.width}×${spec.work.height}.`,
    `Области: ${spec.areas.map((a) => a.name).join(', ')}. Классы: ${names.join(', ')}.`,
    `Модель: ${spec.hidden > 0 ? `перцептрон, скрытый слой ${spec.hidden} (ReLU)` : 'многоклассовая логистическая регрессия'}, ONNX opset ${spec.opset}.`,
    `Обучение: ${report.trainSteps} шагов; проверка на отложенном времени с ${report.validationFromSecond.toFixed(1)} с: ${report.validationSteps} шагов.`,
    `Эпох: ${report.epochs}, лучшая по потере на проверке: ${report.bestEpoch} (потеря ${report.validationLoss.toFixed(4)}).`,
    '',
    'Качество на отложенном времени (по шагам):',
    `${'Класс'.padEnd(width)}  Точность  Полнота    F1   Шагов`,
    ...report.evaluation.perClass.map(
      (m, c) =>
        `${names[c]!.padEnd(width)}  ${percent(m.precision).padStart(8)}  ${percent(m.recall).padStart(7)}  ${percent(m.f1).padStart(6)}  ${String(m.support).padStart(5)}`,
    ),
    `Доля верных шагов: ${percent(report.evaluation.accuracy)}.`,
    '',
    'Матрица ошибок (строки — разметка, столбцы — модель):',
    `${''.padEnd(width)}  ${names.map((n, i) => `${i}:${n}`.slice(0, 12).padStart(12)).join(' ')}`,
    ...report.evaluation.confusion.map((row, c) => `${`${c}:${names[c]}`.padEnd(width)}  ${row.map((v) => String(v).padStart(12)).join(' ')}`),
    '',
    'Важность признаков (падение доли верных шагов при перемешивании признака):',
    ...report.importance
      .filter((i) => i.drop > 0)
      .map((i) => `  ${i.feature.replace(/^area(\d+)/, (_, n: string) => spec.areas[Number(n) - 1]?.name ?? `area${n}`)}: ${percent(i.drop)}`),
    report.importance.some((i) => i.drop > 0)
      ? '  остальные признаки по отдельности на проверке не влияют (их сведения дублируют друг друга)'
      : '  ни один признак по отдельности на проверке не влияет (их сведения дублируют друг друга)',
  ];
  return lines.join('\n');
}
