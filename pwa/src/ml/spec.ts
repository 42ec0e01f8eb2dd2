import type { NoveltyStats } from '../../../workers/src/vision/classifier';
import type { SourceRect } from '../../../workers/src/vision/features';
import { readOnnxMetadata } from '../../../workers/src/vision/onnx-metadata';

/**
 * What the browser needs of a model's feature description (`norma_vision_spec` inside the ONNX
 * file, written by workers/src/vision/pipeline.ts as `VisionSpec`): how to sample frames, which
 * areas to measure and what each output class means.
 */
export interface BrowserVisionSpec {
  featureVersion: number;
  fps: number;
  work: { width: number; height: number };
  source: { width: number; height: number };
  areas: { id: number; name: string; rect: SourceRect }[];
  /** Index 0 is the background (operationId null). */
  classes: { operationId: number | null; name: string }[];
  /** How the applying job smooths (live following uses the same rules, suggestion-follower.ts). */
  smoothing: { minSegmentSeconds: number; hysteresis: number };
  /** What the model saw of each class (issue 43): a step far from its chosen class is «не уверена»; absent in models trained before. */
  novelty?: NoveltyStats;
  /** Present when the model also uses people's keypoints: those only the server computes (docs/vision.md «Позы как признаки»). */
  pose?: { fps: number; inputWidth: number; columns: number };
}

/** The feature versions this browser code computes (workers' FEATURE_VERSION and the older absolute one, features.ts). */
export const SUPPORTED_FEATURE_VERSIONS = [1, 3];

export function specOfOnnx(bytes: Uint8Array): BrowserVisionSpec {
  const raw = readOnnxMetadata(bytes).norma_vision_spec;
  if (!raw) throw new Error('В файле модели нет описания признаков (norma_vision_spec)');
  const spec = JSON.parse(raw) as BrowserVisionSpec;
  if (spec.pose) throw new Error('Модель считает и позы людей — их считает только сервер: подсказки в браузере у этой модели нет');
  if (!SUPPORTED_FEATURE_VERSIONS.includes(spec.featureVersion))
    throw new Error(`Модель считает признаки версии ${spec.featureVersion}, браузер — ${SUPPORTED_FEATURE_VERSIONS.join(' и ')}`);
  return spec;
}
