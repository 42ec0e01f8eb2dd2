import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { KEYPOINT_NAMES, type PosedHuman } from '../src/vision/movenet-decode';

/**
 * MoveNet multipose as the whole graph on TensorFlow.js wasm finds people on the 32 labelled frames
 * of vtest.avi, recorded once (fixtures/movenet-reference.json; its `note` says how): what the
 * browser runs, against which the server's network on ONNX Runtime is checked
 * (workers/src/vision/movenet-onnx.test.ts, bench/pose-detector.bench.ts).
 */
export interface MoveNetReference {
  /** The score the strips were decoded with (below MOVENET_MIN_SCORE: more people to compare). */
  minScore: number;
  /** Per labelled frame (the order of tests/fixtures/vtest-people.json): the people of each strip (stripTiles order), not merged. */
  frames: { frame: number; strips: PosedHuman[][] }[];
}

interface RecordedFile {
  min_score: number;
  keypoint_names: string[];
  frames: { frame: number; strips: { box: [number, number, number, number]; score: number; keypoints: [number, number, number][] }[][] }[];
}

export function moveNetReference(): MoveNetReference {
  const file = JSON.parse(readFileSync(join(import.meta.dirname, 'fixtures', 'movenet-reference.json'), 'utf8')) as RecordedFile;
  if (file.keypoint_names.join() !== KEYPOINT_NAMES.join()) throw new Error('movenet-reference.json: другие имена точек');
  const person = ({ box: [x1, y1, x2, y2], score, keypoints }: RecordedFile['frames'][number]['strips'][number][number]): PosedHuman => ({
    // As decodeMoveNet and shifted place it: the centre of the rounded box.
    location: { x: Math.round((x1 + x2) / 2), y: Math.round((y1 + y2) / 2) },
    box: { x1, y1, x2, y2 },
    score,
    keypoints: keypoints.map(([x, y, s], k) => ({ name: KEYPOINT_NAMES[k]!, x, y, score: s })),
  });
  return { minScore: file.min_score, frames: file.frames.map(({ frame, strips }) => ({ frame, strips: strips.map((people) => people.map(person)) })) };
}

/**
 * How a person found differs from the reference one beyond the tolerances (a pixel of the box, half
 * a pixel of a keypoint, 1e-3 of a score); empty when they are the same person with the same pose.
 */
export function personDifferences(a: PosedHuman, reference: PosedHuman): string[] {
  const out: string[] = [];
  if (!(Math.abs(a.score - reference.score) < 1e-3)) out.push(`score ${a.score} vs ${reference.score}`);
  for (const key of ['x1', 'y1', 'x2', 'y2'] as const)
    if (!(Math.abs(a.box[key] - reference.box[key]) <= 1)) out.push(`box.${key} ${a.box[key]} vs ${reference.box[key]}`);
  a.keypoints.forEach((k, i) => {
    const other = reference.keypoints[i];
    if (!other || k.name !== other.name) return void out.push(`keypoint ${i}: ${k.name} vs ${other?.name}`);
    if (!(Math.abs(k.x - other.x) < 0.5) || !(Math.abs(k.y - other.y) < 0.5)) out.push(`${k.name} (${k.x}, ${k.y}) vs (${other.x}, ${other.y})`);
    if (!(Math.abs(k.score - other.score) < 1e-3)) out.push(`${k.name} score ${k.score} vs ${other.score}`);
  });
  if (a.keypoints.length !== reference.keypoints.length) out.push(`${a.keypoints.length} keypoints vs ${reference.keypoints.length}`);
  return out;
}
