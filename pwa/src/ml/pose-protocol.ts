import type { PosedHuman } from '../../../workers/src/vision/movenet-decode';

/** Which TensorFlow.js backend runs MoveNet in the browser. */
export type PoseBackend = 'webgpu' | 'webgl' | 'wasm';

/** Messages to the pose worker (pose.worker.ts). */
export type PoseRequest =
  | { id: number; type: 'load'; backend?: PoseBackend }
  /** One RGBA frame of `width`×`height`: the people on it, in its pixels. */
  | { id: number; type: 'detect'; rgba: ArrayBuffer; width: number; height: number };

export type PoseReply =
  | { id: number; type: 'loaded'; backend: PoseBackend }
  | { id: number; type: 'people'; people: PosedHuman[]; milliseconds: number }
  | { id: number; type: 'error'; message: string };
