import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { format, resolveConfig } from 'prettier';
import type { Detection } from '../src/tracking/byte-tracker';
import { TRACKER_DEFAULTS } from '../src/tracking/byte-tracker';
import { decodeFrames } from '../src/vision/frames';
import { moveNetModel, moveNetPeople } from '../src/vision/movenet';
import { MOVENET_COLUMNS, movenetInputSize } from '../src/vision/movenet-decode';

/**
 * MoveNet's people on every frame of vtest.avi, recorded once (fixtures/vtest-detections.json):
 * the tracker is scored on the whole clip (workers/src/tracking/vtest-tracking.test.ts) without
 * running the detector on 795 frames in every test run. The same detector and settings as the
 * server's GET /api/v1/humans: MoveNet multipose on two strips of the frame at 768×576, people
 * down to the tracker's second-stage floor (TRACKER_DEFAULTS.lowScore). The test re-runs the
 * detector on a few frames and checks the record still matches, so it cannot go stale silently.
 *
 * Regenerate (about 0.4 s a frame on a free core): `bun workers/test-support/vtest-detections.ts [processes, 2]`;
 * at another input width: `… [processes] --input-width 640` (fixtures/vtest-detections-640.json).
 */
export const VTEST_DETECTIONS_FILE = join(import.meta.dirname, 'fixtures', 'vtest-detections.json');
/** The record at another MoveNet input width (the tracking job's speed margin, docs/event-analytics.md «Скорость»). */
export const vtestDetectionsFile = (inputWidth = 768) =>
  inputWidth === 768 ? VTEST_DETECTIONS_FILE : join(import.meta.dirname, 'fixtures', `vtest-detections-${inputWidth}.json`);
const VTEST_AVI = '/usr/share/doc/opencv-doc/examples/data/vtest.avi';

interface RecordedFile {
  note: string;
  width: number;
  height: number;
  fps: number;
  columns: number;
  min_score: number;
  /** MoveNet's input width (absent in the first record: 768). */
  input_width?: number;
  /** Per video frame (index from 0): the people, each [x, y, w, h, score] in source pixels. */
  frames: [number, number, number, number, number][][];
}

export interface VtestDetections {
  /** MoveNet's input width the record was taken at. */
  inputWidth: number;
  fps: number;
  columns: number;
  minScore: number;
  /** Per video frame, index from 0. */
  frames: Detection[][];
}

export function vtestDetections(inputWidth = 768): VtestDetections {
  const file = JSON.parse(readFileSync(vtestDetectionsFile(inputWidth), 'utf8')) as RecordedFile;
  return {
    inputWidth: file.input_width ?? 768,
    fps: file.fps,
    columns: file.columns,
    minScore: file.min_score,
    frames: file.frames.map((people) => people.map(([x, y, w, h, score]) => ({ box: { x1: x, y1: y, x2: x + w, y2: y + h }, score }))),
  };
}

const r1 = (v: number) => Math.round(v * 10) / 10;

/** The detector's settings, as the test re-runs them. */
export function vtestDetectorSettings(width: number, height: number, inputWidth = 768) {
  return { input: movenetInputSize(width, height, inputWidth), source: { width, height }, columns: MOVENET_COLUMNS, minScore: TRACKER_DEFAULTS.lowScore };
}

const WIDTH = 768;
/** MoveNet's input width of this run: `--input-width N` (768, the server's, by default). */
const inputArg = process.argv.indexOf('--input-width');
const INPUT_WIDTH = inputArg > 0 ? Number(process.argv[inputArg + 1]) : 768;
const HEIGHT = 576;
const FPS = 10;
const FRAMES = 795;
/** Frames per chunk: each chunk is decoded whole first (ffmpeg's time cap fits a span, not a slow reader), then detected. */
const CHUNK = 50;

/** The people of one chunk of frames (from `first`), each [x, y, w, h, score]. */
async function detectChunk(first: number): Promise<RecordedFile['frames']> {
  const s = vtestDetectorSettings(WIDTH, HEIGHT, INPUT_WIDTH);
  const count = Math.min(CHUNK, FRAMES - first);
  const sampling = {
    startSecond: first / FPS,
    endSecond: (first + count) / FPS,
    fps: FPS,
    width: s.input.width,
    height: s.input.height,
    pixelFormat: 'rgb24' as const,
    source: s.source,
  };
  const pictures: Uint8Array[] = [];
  await decodeFrames(VTEST_AVI, sampling, (rgb) => void pictures.push(rgb.slice()));
  if (pictures.length !== count) throw new Error(`кадры ${first}…: ${pictures.length} вместо ${count}`);
  await moveNetModel();
  const out: RecordedFile['frames'] = [];
  for (const rgb of pictures) {
    const people = await moveNetPeople(rgb, s.input, s.source, s.columns, s.minScore);
    out.push(people.map((p) => [r1(p.box.x1), r1(p.box.y1), r1(p.box.x2 - p.box.x1), r1(p.box.y2 - p.box.y1), Math.round(p.score * 1000) / 1000]));
  }
  return out;
}

/** Every chunk, `processes` child processes of this script at a time, then the file. */
async function generate(processes: number) {
  const s = vtestDetectorSettings(WIDTH, HEIGHT, INPUT_WIDTH);
  const file = vtestDetectionsFile(INPUT_WIDTH);
  const started = performance.now();
  const firsts = Array.from({ length: Math.ceil(FRAMES / CHUNK) }, (_, i) => i * CHUNK);
  const chunks = new Map<number, RecordedFile['frames']>();
  const queue = [...firsts];
  const worker = async () => {
    for (let first = queue.shift(); first !== undefined; first = queue.shift()) {
      const child = Bun.spawn([process.execPath, import.meta.path, '--chunk', String(first), '--input-width', String(INPUT_WIDTH)], {
        stdout: 'pipe',
        stderr: 'inherit',
      });
      const [text, status] = await Promise.all([new Response(child.stdout).text(), child.exited]);
      if (status !== 0) throw new Error(`кадры ${first}…: процесс завершился с кодом ${status}`);
      chunks.set(first, JSON.parse(text) as RecordedFile['frames']);
      console.error(`кадры ${first}…: готово, ${Math.round((performance.now() - started) / 1000)} с`);
    }
  };
  await Promise.all(Array.from({ length: processes }, worker));
  const frames = firsts.flatMap((first) => chunks.get(first)!);
  const note = `MoveNet multipose (workers/models) on every frame of vtest.avi (opencv-doc), two strips at ${s.input.width}x${s.input.height}, people with score >= 0.1; boxes x, y, w, h in source pixels (0.1 px), scores to 0.001. Written by workers/test-support/vtest-detections.ts`;
  const head = {
    note,
    width: WIDTH,
    height: HEIGHT,
    fps: FPS,
    columns: s.columns,
    min_score: s.minScore,
    ...(INPUT_WIDTH === 768 ? {} : { input_width: INPUT_WIDTH }),
  };
  // As Prettier formats it (npm run check): one person a line.
  const config = await resolveConfig(file);
  writeFileSync(file, await format(JSON.stringify({ ...head, frames }), { ...config, parser: 'json' }));
  console.error(`${frames.length} кадров, ${Math.round((performance.now() - started) / 1000)} с`);
}

if (import.meta.main) {
  const chunk = process.argv.indexOf('--chunk');
  if (chunk > 0) process.stdout.write(JSON.stringify(await detectChunk(Number(process.argv[chunk + 1]))));
  else await generate(Number(process.argv[2] && !process.argv[2].startsWith('--') ? process.argv[2] : 2));
}
