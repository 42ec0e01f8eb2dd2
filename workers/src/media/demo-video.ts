import { copyFile, mkdir, rename } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { FIGURE_HEIGHT, FIGURE_TORSO, FIGURE_WIDTH, figureSource } from './demo-figure';
import { mediaTools, run } from './ffmpeg';

/** Categories of work (METHODOLOGY §1). */
export type Category = 'main' | 'aux' | 'pz' | 'service' | 'move' | 'rest' | 'idle';

export interface ActorSegment {
  /** Seconds from the clip's start (may extend past either end; clipped here). */
  from: number;
  to: number;
  category: Category;
  /**
   * Which main operation of the work cycle (0, 1, 2): each has its own place, part and rhythm, as
   * operations differ at a real workbench. Other categories have one look each.
   */
  variant?: number;
}

export interface DemoActor {
  color: string;
  segments: ActorSegment[];
}

/** What changes from day to day at the same camera; the defaults are a neutral day. */
export interface DemoConditions {
  /** Lighting: added brightness (−1…1) and contrast factor of the whole picture. */
  brightness: number;
  contrast: number;
  /** The worker's pace: rhythms of hands run this many times faster. */
  speed: number;
  /** Where the worker stands this day, pixels from the usual place. */
  shiftX: number;
  shiftY: number;
  /** The camera is aimed a little differently each day, pixels. */
  aimX: number;
  aimY: number;
  /** Short bursts of camera shake (a forklift goes by): start, length (clip seconds), amplitude in pixels. */
  shakes: { from: number; seconds: number; pixels: number }[];
  /** People walking across the back of the scene: start (clip seconds), crossing time, direction. */
  passersBy: { from: number; seconds: number; leftToRight: boolean }[];
}

export const NEUTRAL_CONDITIONS: DemoConditions = { brightness: 0, contrast: 1, speed: 1, shiftX: 0, shiftY: 0, aimX: 0, aimY: 0, shakes: [], passersBy: [] };

export interface DemoClip {
  title: string;
  /** Absolute start, ms since epoch; the burnt-in clock shows it in local time. */
  startMs: number;
  utcOffsetMinutes: number;
  durationSeconds: number;
  /** One actor fills the frame; several share it in rows (an overview camera). */
  actors: DemoActor[];
  conditions?: DemoConditions;
}

const WIDTH = 640;
const HEIGHT = 360;
const FPS = 10;
const FONT = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';
/** The scene is drawn this much larger on every side and cropped back, so the camera can shake. */
const MARGIN = 6;
/** Layout coordinates are pixels of a 640×320 workplace (below the 40-pixel title band). */
const ROW = 320;
const OFF = -1000;

/**
 * Places of the workplace, in layout pixels. Where the hands go is what tells operations apart:
 * the parts bin (low left), the fixture (centre), the tool hanger (top), the desk with papers and
 * the rack of components (right).
 */
export const DEMO_PLACES = {
  bin: { x1: 20, y1: 220, x2: 90, y2: 300 },
  fixture: { x1: 210, y1: 170, x2: 340, y2: 260 },
  hanger: { x1: 400, y1: 30, x2: 480, y2: 40 },
  desk: { x1: 360, y1: 220, x2: 440, y2: 280 },
  rack: { x1: 530, y1: 20, x2: 625, y2: 310 },
} as const;

/**
 * Video areas an analyst would draw on a one-worker camera, in pixels of the 640×360 frame: around
 * each place where hands go, with room for the day-to-day shift of the worker and the camera.
 */
export const DEMO_WORKPLACE_AREAS: { name: string; x1: number; y1: number; x2: number; y2: number }[] = [
  { name: 'Тара с деталями', x1: 0, y1: 230, x2: 130, y2: 360 },
  { name: 'Приспособление', x1: 170, y1: 150, x2: 370, y2: 330 },
  { name: 'Подвес инструмента', x1: 380, y1: 40, x2: 510, y2: 180 },
  { name: 'Стол с документами', x1: 330, y1: 230, x2: 480, y2: 340 },
  { name: 'Стеллаж', x1: 500, y1: 40, x2: 640, y2: 360 },
  { name: 'Весь кадр', x1: 0, y1: 40, x2: 640, y2: 360 },
];

/** Things drawn for each worker: size (layout pixels) and colour. Hands are light, parts distinct in brightness. */
const OBJECTS = {
  // The worker's torso: a human figure (demo-figure.ts) is drawn with its torso here, in the worker's colour.
  body: { w: 36, h: 56, color: '' },
  hand: { w: 14, h: 14, color: '0xffcc99' },
  bearing: { w: 16, h: 16, color: '0xeeeeee' },
  wrench: { w: 14, h: 34, color: '0xffb300' },
  housing: { w: 70, h: 50, color: '0xb0bec5' },
  crate: { w: 40, h: 30, color: '0xa1887f' },
  paper: { w: 24, h: 30, color: '0xfafafa' },
} as const;
type ObjectName = keyof typeof OBJECTS;
/** Objects held by the worker move with where the worker stands that day; fixed ones do not. */
const HELD: Record<ObjectName, boolean> = { body: true, hand: true, bearing: true, wrench: true, housing: false, crate: true, paper: false };

type Point = [string, string];
type Pose = Partial<Record<ObjectName, Point>>;

const num = (value: number) => (Math.round(value * 1000) / 1000).toString();
/** 0→1→0 over a period of 2/f seconds. */
const tri = (f: number) => `abs(mod(t*${num(f)},2)-1)`;

/** Where the body stands for each look (layout pixels, top-left), also the ends of a move. */
function standAt(category: Category, variant = 0): [number, number] {
  if (category === 'main')
    return (
      [
        [100, 120],
        [290, 110],
        [180, 120],
      ] as [number, number][]
    )[variant % 3]!;
  const stands: Record<Exclude<Category, 'main'>, [number, number]> = {
    aux: [500, 110],
    pz: [350, 130],
    service: [420, 90],
    idle: [150, 130],
    move: [380, 130],
    rest: [OFF, OFF],
  };
  return stands[category];
}

/** The pose of one segment as ffmpeg expressions of t: body, hands and the parts in play. */
function pose(s: ActorSegment, speed: number, previous?: ActorSegment, next?: ActorSegment): Pose {
  const [bx, by] = standAt(s.category, s.variant);
  const body: Point = [String(bx), `${by}+3*sin(t*2)`];
  switch (s.category) {
    case 'main':
      switch ((s.variant ?? 0) % 3) {
        case 0: {
          // Installing a bearing: the hand fetches one from the bin and sets it in the fixture, every 5 s.
          const hand: Point = [`45+205*${tri(0.4 * speed)}`, `245-55*${tri(0.4 * speed)}`];
          return { body, hand, bearing: [`${hand[0]}+8`, `${hand[1]}-12`] };
        }
        case 1: {
          // Tightening: the wrench held on the housing, buzzing.
          const hand: Point = [`270+3*sin(t*${num(30 * speed)})`, `175+2*sin(t*${num(23 * speed)})`];
          return { body, hand, wrench: [`${hand[0]}+4`, `${hand[1]}-34`], housing: ['240', '195'] };
        }
        default: {
          // Assembling: the hands go slowly round the housing in the fixture.
          const hand: Point = [`265+50*cos(t*${num(1.3 * speed)})`, `205+35*sin(t*${num(1.3 * speed)})`];
          return { body, hand, housing: ['240', '195'] };
        }
      }
    case 'aux': {
      // Fetching components: up and down the rack with a crate.
      const hand: Point = ['555', `50+210*${tri(0.3 * speed)}`];
      return { body, hand, crate: [`${hand[0]}-12`, `${hand[1]}+10`] };
    }
    case 'pz':
      return { body, hand: [`395+6*sin(t*${num(2 * speed)})`, `225+4*sin(t*${num(3.3 * speed)})`], paper: ['390', '235'] };
    case 'service': {
      const hand: Point = ['438', `60+8*sin(t*${num(4 * speed)})`];
      return { body, hand, wrench: ['440', `${hand[1]}-15`] };
    }
    case 'idle':
      return { body, hand: ['160', '180'] };
    case 'rest':
      return {};
    case 'move': {
      const [fromX, fromY] = previous ? standAt(previous.category, previous.variant) : standAt('aux');
      const [toX, toY] = next ? standAt(next.category, next.variant) : standAt('main');
      const span = Math.max(0.001, s.to - s.from);
      const x = `${fromX === OFF ? WIDTH : fromX}+(${(toX === OFF ? WIDTH : toX) - (fromX === OFF ? WIDTH : fromX)})*(t-${num(s.from)})/${num(span)}`;
      const y = `${fromY === OFF ? 130 : fromY}+(${(toY === OFF ? 130 : toY) - (fromY === OFF ? 130 : fromY)})*(t-${num(s.from)})/${num(span)}`;
      return { body: [x, y], hand: [`${x}+10`, `${y}+40`] };
    }
  }
}

/** Nested if() over the visible segments: each segment's expression, OFF outside them. */
function piecewise(visible: ActorSegment[], pick: (index: number) => string | null): string {
  let expr = String(OFF);
  for (let i = visible.length - 1; i >= 0; i--) {
    const s = visible[i]!;
    const piece = pick(i) ?? String(OFF);
    expr = `if(lt(t,${num(s.to)}),if(gte(t,${num(s.from)}),${piece},${OFF}),${expr})`;
  }
  return expr;
}

function escapeText(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/:/g, '\\:');
}

interface Layer {
  /** lavfi source of the drawn object. */
  source: string;
  x: string;
  y: string;
}

/** Everything drawn over the scenery, with its ffmpeg source, in drawing order. */
function layers(clip: DemoClip): Layer[] {
  const c = clip.conditions ?? NEUTRAL_CONDITIONS;
  const rows = clip.actors.length;
  const rowHeight = Math.floor((HEIGHT - 40) / rows);
  const scale = rows === 1 ? 1 : 0.6;
  const k = rowHeight / ROW;
  const size = (name: ObjectName) => `${Math.max(2, Math.round(OBJECTS[name].w * scale))}x${Math.max(2, Math.round(OBJECTS[name].h * scale))}`;
  // One frame a second is enough for a plain colour (overlay keeps the last one and moves it every frame) and much cheaper.
  const src = (color: string, name: ObjectName) => `color=c=${color}:s=${size(name)}:r=1:d=${clip.durationSeconds}`;
  const out: Layer[] = [];
  clip.actors.forEach((actor, row) => {
    const top = 40 + row * rowHeight + MARGIN;
    const visible = actor.segments
      .map((s) => ({ ...s, from: Math.max(0, s.from), to: Math.min(clip.durationSeconds, s.to) }))
      .filter((s) => s.to > s.from)
      .sort((a, b) => a.from - b.from);
    const poses = visible.map((s, i) => pose(s, c.speed, visible[i - 1], visible[i + 1]));
    // The worker first (a human figure whose torso is where the body stands), the fixed parts on
    // the bench in front of them, the held parts and the working hand on top.
    const order: ObjectName[] = ['body', 'housing', 'paper', 'crate', 'wrench', 'bearing', 'hand'];
    for (const name of order) {
      if (!poses.some((p) => p[name])) continue;
      const figure = name === 'body';
      const dx = (HELD[name] ? MARGIN + c.shiftX : MARGIN) - (figure ? Math.round(FIGURE_TORSO.x * scale) : 0);
      const dy = (HELD[name] ? top + c.shiftY * k : top) - (figure ? Math.round(FIGURE_TORSO.y * scale) : 0);
      const x = piecewise(visible, (i) => {
        const p = poses[i]![name];
        return p ? `${dx}+(${p[0]})*1` : null;
      });
      const y = piecewise(visible, (i) => {
        const p = poses[i]![name];
        return p ? `${num(dy)}+(${p[1]})*${num(k)}` : null;
      });
      const source = figure ? figureSource(actor.color, Math.round(FIGURE_WIDTH * scale), Math.round(FIGURE_HEIGHT * scale)) : src(OBJECTS[name].color, name);
      out.push({ source, x, y });
    }
  });
  // Passers-by walk across the back of the whole scene.
  if (c.passersBy.length) {
    const visible = c.passersBy.filter((p) => p.from < clip.durationSeconds && p.from + p.seconds > 0);
    if (visible.length) {
      let x = String(OFF);
      for (const p of [...visible].reverse()) {
        const [a, b] = p.leftToRight ? [-40, WIDTH + 40] : [WIDTH + 40, -40];
        x = `if(between(t,${num(p.from)},${num(p.from + p.seconds)}),${MARGIN + a}+(${b - a})*(t-${num(p.from)})/${num(p.seconds)},${x})`;
      }
      out.push({ source: `color=c=0x8d6e63:s=30x50:r=1:d=${clip.durationSeconds}`, x, y: `${MARGIN + 44}+2*sin(t*6)` });
    }
  }
  return out;
}

/** The ffmpeg filter graph of a clip: scenery, workers, passers-by, camera shake and lighting, title and clock. */
export function filterGraph(clip: DemoClip): { sources: string[]; graph: string } {
  const c = clip.conditions ?? NEUTRAL_CONDITIONS;
  const rows = clip.actors.length;
  const rowHeight = Math.floor((HEIGHT - 40) / rows);
  const k = rowHeight / ROW;
  const scenery: string[] = [];
  const box = (r: { x1: number; y1: number; x2: number; y2: number }, top: number, color: string) =>
    scenery.push(
      `drawbox=x=${MARGIN + r.x1}:y=${Math.round(MARGIN + top + r.y1 * k)}:w=${r.x2 - r.x1}:h=${Math.max(2, Math.round((r.y2 - r.y1) * k))}:color=${color}:t=fill`,
    );
  for (let row = 0; row < rows; row++) {
    const top = 40 + row * rowHeight;
    box(DEMO_PLACES.bin, top, '0x455a64');
    box(DEMO_PLACES.fixture, top, '0x424242');
    box(DEMO_PLACES.hanger, top, '0x9e9e9e');
    box(DEMO_PLACES.desk, top, '0x4e342e');
    box(DEMO_PLACES.rack, top, '0x5d4037@0.8');
  }
  const drawn = layers(clip);
  const parts: string[] = [];
  let last = 'bg';
  drawn.forEach((layer, index) => {
    const out = `l${index}`;
    parts.push(`[${last}][${index + 1}]overlay=x='${layer.x}':y='${layer.y}':eval=frame[${out}]`);
    last = out;
  });
  const hasFont = existsSync(FONT);
  const startLocalSeconds = Math.floor(clip.startMs / 1000) + clip.utcOffsetMinutes * 60;
  const text = hasFont
    ? [
        `drawtext=fontfile=${FONT}:fontcolor=white:fontsize=16:x=10:y=10:text='${escapeText(clip.title)}'`,
        `drawtext=fontfile=${FONT}:fontcolor=white:fontsize=16:x=w-tw-10:y=10:text='%{pts\\:gmtime\\:${startLocalSeconds}\\:%d.%m.%Y %H\\\\\\:%M\\\\\\:%S}'`,
      ]
    : [];
  // The camera's aim and shakes (a crop of the larger scene), then the day's light; title and clock are burnt in after.
  // Shakes are short bursts: a picture that moves all the time would cost the encoder far more.
  // Aim and shake take half the margin each, so the crop never leaves the scene.
  const limit = (v: number) => Math.max(-MARGIN / 2, Math.min(MARGIN / 2, Math.round(v)));
  const shake = (phase: number) =>
    c.shakes.reduce(
      (expr, s) => `if(between(t,${num(s.from)},${num(s.from + s.seconds)}),${num(Math.min(MARGIN / 2, s.pixels))}*sin(t*${23 + phase}),${expr})`,
      '0',
    );
  const aimX = limit(c.aimX);
  const aimY = limit(c.aimY);
  const finish = [
    `crop=${WIDTH}:${HEIGHT}:x='${MARGIN + aimX}+${shake(0)}':y='${MARGIN + aimY}+${shake(7)}'`,
    ...(c.brightness !== 0 || c.contrast !== 1 ? [`eq=brightness=${num(c.brightness)}:contrast=${num(c.contrast)}`] : []),
    ...text,
  ];
  const graph = [`[0]${scenery.join(',')}[bg]`, ...parts, `[${last}]${finish.join(',')}[out]`].join(';\n');
  return { sources: drawn.map((l) => l.source), graph };
}

/**
 * Renders one clip as browser-ready H.264 MP4 (faststart, a keyframe every 2 s for quick seeking).
 * Identical clips are taken from `cacheDir` instead of being encoded again.
 */
export async function renderDemoClip(clip: DemoClip, output: string, cacheDir?: string): Promise<void> {
  const { ffmpeg } = await mediaTools();
  const { sources, graph } = filterGraph(clip);
  const size = `${WIDTH + 2 * MARGIN}x${HEIGHT + 2 * MARGIN}`;
  const inputs = ['-f', 'lavfi', '-i', `color=c=0x263238:s=${size}:r=${FPS}:d=${clip.durationSeconds}`];
  for (const source of sources) inputs.push('-f', 'lavfi', '-i', source);
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
