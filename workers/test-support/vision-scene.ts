import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { mediaTools, run } from '../src/media/ffmpeg';
import { seededRandom } from '../src/random';

export { sceneBoxDetector } from './scene-detector';

/**
 * A synthetic workplace video with known ground truth (tests and the benchmark): a noisy gray
 * scene with two areas. Operation A: a red box moving in the left area; B: the red box standing
 * still there; C: a blue box moving in the right area; idle: no box.
 */
export type SceneOperation = 'A' | 'B' | 'C' | 'idle';

export interface SceneSegment {
  operation: SceneOperation;
  startSecond: number;
  endSecond: number;
}

/** The two areas of the scene, in pixels of a 640×360 frame. */
export const SCENE_AREAS = {
  left: { x1: 20, y1: 60, x2: 300, y2: 300 },
  right: { x1: 340, y1: 60, x2: 620, y2: 300 },
};

/** Segments of 3–7 s covering [0, seconds), the operation changing at every boundary; seeded. */
export function sceneSchedule(seconds: number, seed = 3): SceneSegment[] {
  const random = seededRandom(seed);
  const all: SceneOperation[] = ['A', 'B', 'C', 'idle'];
  const out: SceneSegment[] = [];
  let t = 0;
  let last: SceneOperation | null = null;
  while (t < seconds) {
    const choices = all.filter((o) => o !== last);
    const operation = choices[Math.floor(random() * choices.length)]!;
    const end = Math.min(seconds, t + 3 + Math.floor(random() * 5));
    out.push({ operation, startSecond: t, endSecond: end });
    last = operation;
    t = end;
  }
  return out;
}

/** The operation at a moment of the schedule. */
export function sceneOperationAt(schedule: SceneSegment[], second: number): SceneOperation {
  return schedule.find((s) => second >= s.startSecond && second < s.endSecond)?.operation ?? 'idle';
}

/**
 * What a model of the scene is trained on up to `untilSecond`: the two work areas (at 640×360; `scale`
 * for a larger picture), background and operations A, B, C as classes 0–3, and the schedule's work
 * spans as labels (idle is background).
 */
export function sceneTraining(schedule: SceneSegment[], untilSecond: number, scale = 1) {
  const scaled = (r: (typeof SCENE_AREAS)['left']) => ({ x1: r.x1 * scale, y1: r.y1 * scale, x2: r.x2 * scale, y2: r.y2 * scale });
  const operations = ['A', 'B', 'C'] as const;
  return {
    areas: [
      { id: 1, name: 'левая', rect: scaled(SCENE_AREAS.left) },
      { id: 2, name: 'правая', rect: scaled(SCENE_AREAS.right) },
    ],
    classes: [{ operationId: null, name: 'фон' }, ...operations.map((name, i) => ({ operationId: i + 1, name }))],
    spans: schedule
      .filter((s) => s.operation !== 'idle' && s.startSecond < untilSecond)
      .map((s) => ({ classIndex: operations.indexOf(s.operation as 'A') + 1, startSecond: s.startSecond, endSecond: Math.min(untilSecond, s.endSecond) })),
  };
}

const OFF = -1000;

function positionExpression(schedule: SceneSegment[], pick: (o: SceneOperation) => string | null): string {
  let expression = String(OFF);
  for (const segment of [...schedule].reverse()) {
    const value = pick(segment.operation);
    if (value === null) continue;
    expression = `if(between(t\\,${segment.startSecond}\\,${segment.endSecond - 0.001})\\,${value}\\,${expression})`;
  }
  return expression;
}

/** Writes the scene as H.264 MP4 (640×360 unless `size` says otherwise; 25 fps unless `fps`). */
export async function makeSceneClip(path: string, schedule: SceneSegment[], options: { fps?: number; size?: string } = {}): Promise<void> {
  const { ffmpeg } = await mediaTools();
  const seconds = schedule[schedule.length - 1]?.endSecond ?? 10;
  const fps = options.fps ?? 25;
  const size = options.size ?? '640x360';
  const redX = positionExpression(schedule, (o) => (o === 'A' ? '40+mod(t*150\\,180)' : o === 'B' ? '120' : null));
  const redY = positionExpression(schedule, (o) => (o === 'A' ? '140+40*sin(t*4)' : o === 'B' ? '140' : null));
  const blueX = positionExpression(schedule, (o) => (o === 'C' ? '380+mod(t*150\\,160)' : null));
  const graph = [
    `color=c=0x606060:s=${size}:r=${fps}:d=${seconds},noise=alls=6:allf=t,format=yuv420p[base]`,
    `color=c=red:s=80x80:r=${fps}:d=${seconds}[red]`,
    `color=c=blue:s=80x80:r=${fps}:d=${seconds}[blue]`,
    `[base][red]overlay=x=${redX}:y=${redY}:eval=frame[one]`,
    `[one][blue]overlay=x=${blueX}:y=140:eval=frame,format=yuv420p[out]`,
  ].join(';');
  await mkdir(dirname(path), { recursive: true });
  await run(ffmpeg, [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-filter_complex',
    graph,
    '-map',
    '[out]',
    '-t',
    String(seconds),
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    '-g',
    String(fps * 2),
    '-movflags',
    '+faststart',
    path,
  ]);
}
