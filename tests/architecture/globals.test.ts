/**
 * No library in the server process replaces a global (issue 41): onnxruntime-web's wasm loader set
 * `globalThis.Worker` to node:worker_threads' class on its first session, and every thread the server
 * started after a vision job failed (the basemap answered 500). This loads what the server process loads
 * — the API, the job handlers with the media, map and vision libraries — and runs the third-party
 * runtimes that start on first use (an ONNX Runtime web session, MoveNet on ONNX Runtime's native
 * kernels and TensorFlow.js wasm, the basemap build), then compares every own property of globalThis,
 * descriptor by descriptor, with what it was before. A library that changes one fails here, by name:
 * keep its changes off the globals where it is called (as workers/src/vision/onnx-runtime.ts does).
 */
import { describe, expect, it } from 'vitest';

/**
 * Globals a library may add, each its own namespaced singleton that nothing else reads (a new name
 * here needs the same reason); replacing or removing a global is never allowed.
 */
const OWN_SINGLETONS = new Set([
  // zod 4: its global config and schema registry, shared by every copy of zod in the process.
  '__zod_globalConfig',
  '__zod_globalRegistry',
  // TensorFlow.js (MoveNet's decoding): its engine, one per process.
  '_tfGlobals',
  '_tfengine',
]);

type Snapshot = Map<PropertyKey, PropertyDescriptor>;

function snapshot(): Snapshot {
  const map: Snapshot = new Map();
  for (const key of Reflect.ownKeys(globalThis)) map.set(key, Object.getOwnPropertyDescriptor(globalThis, key)!);
  return map;
}

const same = (a: PropertyDescriptor, b: PropertyDescriptor) =>
  Object.is(a.value, b.value) &&
  a.get === b.get &&
  a.set === b.set &&
  a.writable === b.writable &&
  a.enumerable === b.enumerable &&
  a.configurable === b.configurable;

/** "added X", "replaced X", "removed X" for every own property of globalThis that differs. */
function changes(before: Snapshot, after: Snapshot): string[] {
  const lines: string[] = [];
  for (const [key, now] of after) {
    const was = before.get(key);
    if (!was) {
      if (!OWN_SINGLETONS.has(String(key))) lines.push(`added ${String(key)}`);
    } else if (!same(was, now)) lines.push(`replaced ${String(key)}`);
  }
  for (const key of before.keys()) if (!after.has(key)) lines.push(`removed ${String(key)}`);
  return lines;
}

describe('globals of the server process', () => {
  it('stay as they were after the server modules load and every runtime they start on first use has run', async () => {
    const before = snapshot();
    const workerBefore = globalThis.Worker;

    await import('../../api/src/app');
    await import('../../api/src/job-registry');
    await import('../../api/src/threads/report-threads');
    await import('../../api/src/threads/movenet-threads');
    await import('../../api/src/http/document-threads');
    const vision = await import('@norma/workers/vision');
    const map = await import('@norma/workers/map');
    await import('@norma/workers/media');
    await import('@norma/workers/ingest');

    // ONNX Runtime web: a classifier as training exports it, opened and run (apply job, vision.apply).
    const { exportOnnx } = await import('../../workers/src/vision/onnx-export');
    const inputs = 3;
    const classes = 2;
    const model = {
      inputs,
      hidden: 0,
      classes,
      mean: new Float32Array(inputs),
      invStd: new Float32Array(inputs).fill(1),
      w1: new Float32Array(0),
      b1: new Float32Array(0),
      w2: new Float32Array(inputs * classes),
      b2: new Float32Array(classes),
    };
    const classifier = await vision.loadClassifier(exportOnnx(model));
    expect(Array.from(await classifier.run({ rows: 1, columns: inputs, data: new Float32Array(inputs) } as never))).toEqual([0.5, 0.5]);
    await classifier.release();

    // MoveNet: ONNX Runtime's native kernels and TensorFlow.js wasm (GET /api/v1/humans), on a blank frame.
    const size = 256;
    expect((await vision.runMoveNet(new Uint8Array(size * size * 3), size, size)).length).toBeGreaterThan(0);

    // The basemap build (its thread runs the same code), without water to keep it short.
    expect(map.buildBasemap(undefined, null, null).byteLength).toBeGreaterThan(0);

    expect(changes(before, snapshot())).toEqual([]);
    expect(globalThis.Worker).toBe(workerBefore);
  });
});
