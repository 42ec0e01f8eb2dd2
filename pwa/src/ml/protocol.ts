import type { BrowserVisionSpec } from './spec';

/** Which onnxruntime-web backend runs the model: WebGPU when the browser has an adapter, wasm (one thread) otherwise. */
export type InferenceBackend = 'webgpu' | 'wasm';

/** Messages to the inference worker (inference.worker.ts). */
export type WorkerRequest =
  | { id: number; type: 'load'; model: ArrayBuffer; backend?: InferenceBackend }
  /** Gray frames at the model's working size, consecutive at its fps: the probabilities of every step. */
  | { id: number; type: 'frames'; frames: ArrayBuffer[] }
  /** One RGBA frame of live playback at `second`: the suggestion for the step about half a second earlier. */
  | { id: number; type: 'live'; rgba: ArrayBuffer; width: number; height: number; second: number }
  | { id: number; type: 'reset' };

export type WorkerReply =
  | { id: number; type: 'loaded'; backend: InferenceBackend; spec: BrowserVisionSpec }
  | { id: number; type: 'probabilities'; rows: number; classes: number; data: Float32Array }
  /** `uncertain`: the step's features lie far from what the model saw of the class it chose (classifier.ts uncertainSteps), as the applying job tells. */
  | { id: number; type: 'suggestion'; second: number; probabilities: Float32Array | null; uncertain: boolean }
  | { id: number; type: 'done' }
  | { id: number; type: 'error'; message: string };
