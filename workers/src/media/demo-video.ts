import { copyFile, mkdir, rename } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { mediaTools, run } from './ffmpeg';

/** Categories of work (METHODOLOGY §1); each one moves the worker figure in its own way. */
export type Category = 'main' | 'aux' | 'pz' | 'service' | 'move' | 'rest' | 'idle';

export interface ActorSegment {
  /** Seconds from the clip's start (may extend past either end; clipped here). */
  from: number;
  to: number;
  category: Category;
}

export interface DemoActor {
  color: string;
  segments: ActorSegment[];
}

export interface DemoClip {
  title: string;
  /** Absolute start, ms since epoch; the burnt-in clock shows it in local time. */
  startMs: number;
  utcOffsetMinutes: number;
  durationSeconds: number;
  /** One actor fills the frame; several share it in rows (an overview camera). */
  actors: DemoActor[];
}

const WIDTH = 640;
const HEIGHT = 360;
const FPS = 10;
const FONT = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';

/** Where a worker stands for each category, in a row of the frame (x only; y is the row's). */
const anchorX: Record<Category, number> = {
  main: 150,
  idle: 150,
  service: 250,
  pz: 330,
  aux: 470,
  move: 380,
  rest: 700,
};

const num = (value: number) => (Math.round(value * 1000) / 1000).toString();

/** Piecewise x(t) expression: motion typical of each category, linear travel for moves. */
function xExpression(segments: ActorSegment[], duration: number): string {
  const visible = segments
    .map((s) => ({ ...s, from: Math.max(0, s.from), to: Math.min(duration, s.to) }))
    .filter((s) => s.to > s.from)
    .sort((a, b) => a.from - b.from);
  let expr = String(anchorX.rest);
  for (let i = visible.length - 1; i >= 0; i--) {
    const s = visible[i]!;
    const here = anchorX[s.category];
    let piece: string;
    switch (s.category) {
      case 'main':
        piece = `${here}+28*sin(t*3.1)`;
        break;
      case 'aux':
        piece = `${here}+18*sin(t*1.7)`;
        break;
      case 'service':
        piece = `${here}+10*sin(t*5)`;
        break;
      case 'pz':
        piece = `${here}+6*sin(t*0.9)`;
        break;
      case 'idle':
        piece = `${here}`;
        break;
      case 'rest':
        piece = `${anchorX.rest}`;
        break;
      case 'move': {
        const fromX = i > 0 ? anchorX[visible[i - 1]!.category] : anchorX.aux;
        const toX = i + 1 < visible.length ? anchorX[visible[i + 1]!.category] : anchorX.main;
        const span = Math.max(0.001, s.to - s.from);
        piece = `${fromX}+(${toX - fromX})*(t-${num(s.from)})/${num(span)}`;
        break;
      }
    }
    expr = `if(lt(t,${num(s.to)}),if(gte(t,${num(s.from)}),${piece},${anchorX.rest}),${expr})`;
  }
  return expr;
}

function escapeText(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/:/g, '\\:');
}

/** The ffmpeg filter graph of a clip: scenery, workers, camera title and a burnt-in clock. */
export function filterGraph(clip: DemoClip): string {
  const rows = clip.actors.length;
  const rowHeight = Math.floor((HEIGHT - 40) / rows);
  const scale = rows === 1 ? 1 : 0.6;
  const boxH = Math.round(56 * scale);
  const parts: string[] = [];
  let last = '0';
  clip.actors.forEach((actor, index) => {
    const y = 40 + index * rowHeight + Math.round(rowHeight / 2 - boxH / 2);
    const out = `a${index}`;
    parts.push(`[${last}][${index + 1}]overlay=x='${xExpression(actor.segments, clip.durationSeconds)}':y='${y}+4*sin(t*2)':eval=frame[${out}]`);
    last = out;
  });
  const scenery: string[] = [];
  for (let row = 0; row < rows; row++) {
    const top = 40 + row * rowHeight;
    scenery.push(`drawbox=x=110:y=${top + 8}:w=110:h=${rowHeight - 16}:color=0x9e9e9e@0.5:t=fill`);
    scenery.push(`drawbox=x=440:y=${top + 8}:w=80:h=${rowHeight - 16}:color=0x5d4037@0.6:t=fill`);
  }
  const hasFont = existsSync(FONT);
  const startLocalSeconds = Math.floor(clip.startMs / 1000) + clip.utcOffsetMinutes * 60;
  const text = hasFont
    ? [
        `drawtext=fontfile=${FONT}:fontcolor=white:fontsize=16:x=10:y=10:text='${escapeText(clip.title)}'`,
        `drawtext=fontfile=${FONT}:fontcolor=white:fontsize=16:x=w-tw-10:y=10:text='%{pts\\:gmtime\\:${startLocalSeconds}\\:%d.%m.%Y %H\\\\\\:%M\\\\\\:%S}'`,
      ]
    : [];
  // Scenery first (under the workers), then the overlays, then the text on top.
  const base = `[0]${scenery.join(',')}[bg]`;
  const chain = parts.map((p, i) => (i === 0 ? p.replace('[0]', '[bg]') : p));
  const tail = text.length ? `[${last}]${text.join(',')}[out]` : `[${last}]null[out]`;
  return [base, ...chain, tail].join(';\n');
}

/**
 * Renders one clip as browser-ready H.264 MP4 (faststart, a keyframe every 2 s for quick seeking).
 * Identical clips are taken from `cacheDir` instead of being encoded again.
 */
export async function renderDemoClip(clip: DemoClip, output: string, cacheDir?: string): Promise<void> {
  const { ffmpeg } = await mediaTools();
  const graph = filterGraph(clip);
  const inputs = ['-f', 'lavfi', '-i', `color=c=0x263238:s=${WIDTH}x${HEIGHT}:r=${FPS}:d=${clip.durationSeconds}`];
  clip.actors.forEach((actor) => {
    const scale = clip.actors.length === 1 ? 1 : 0.6;
    inputs.push('-f', 'lavfi', '-i', `color=c=${actor.color}:s=${Math.round(36 * scale)}x${Math.round(56 * scale)}:r=${FPS}:d=${clip.durationSeconds}`);
  });
  const encode = [
    '-map',
    '[out]',
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-crf',
    '28',
    '-g',
    String(FPS * 2),
    '-pix_fmt',
    'yuv420p',
    '-movflags',
    '+faststart',
  ];
  await mkdir(dirname(output), { recursive: true });
  let cached: string | null = null;
  if (cacheDir) {
    const key = new Bun.CryptoHasher('sha1').update(JSON.stringify([graph, inputs, encode])).digest('hex');
    cached = join(cacheDir, `${key}.mp4`);
    if (existsSync(cached)) return copyFile(cached, output);
  }
  const tmp = `${output}.part.mp4`;
  await run(ffmpeg, ['-hide_banner', '-loglevel', 'error', '-y', ...inputs, '-filter_complex', graph, ...encode, tmp]);
  await rename(tmp, output);
  if (cached) {
    // Copy then rename: a parallel seed never reads a half-written cache entry.
    await mkdir(dirname(cached), { recursive: true });
    const partial = `${cached}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    await copyFile(output, partial);
    await rename(partial, cached);
  }
}
