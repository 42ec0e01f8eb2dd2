import { join } from 'node:path';
import type { DemoActor, DemoClip, DemoConditions } from '@norma/workers/demo-video';
import type { OperationTypeCode } from '../db/schema';
import { seededRandom, type Random } from './random';

/**
 * What the demo organisation looks like. Plain data, so tests and the video renderer read the
 * same truth the database gets: each worker's day is generated once, the videos are drawn from it,
 * and the markups of the "marked" days are exactly those segments.
 */
export const DEMO_PASSWORD = 'norma-demo';

export const demoUsers = [
  { login: 'admin', firstName: 'Ирина', lastName: 'Смирнова', role: 'admin' },
  { login: 'analyst', firstName: 'Олег', lastName: 'Петров', role: 'analyst' },
  { login: 'assessor', firstName: 'Мария', lastName: 'Иванова', role: 'assessor' },
  { login: 'viewer', firstName: 'Павел', lastName: 'Соколов', role: 'viewer' },
] as const;

/** Moscow has no daylight saving time since 2014: a fixed offset is exact. */
export const DEMO_UTC_OFFSET_MINUTES = 180;
export const DEMO_TIME_ZONE = 'Europe/Moscow';
/** Two consecutive working days. */
export const demoDays = ['2026-11-16', '2026-11-17'] as const;
/** The demo's day shift: 9 hours with an unpaid hour for lunch, so its Тсм is 480 minutes (METHODOLOGY §7). */
export const DEMO_SHIFT = { name: 'Дневная смена', start: '08:00:00', end: '17:00:00', breakMinutes: 70, mealMinutes: 60 } as const;
/** Recordings start at 09:00 local; each camera a few seconds after the previous one. */
export const DEMO_RECORDING_START = '09:00:00';
export const CLIPS_PER_CAMERA_DAY = 3;
export const CAMERA_OFFSET_SECONDS = 3;

export interface DemoOperation {
  name: string;
  type: OperationTypeCode;
  referencePoint: string;
  /** Typical duration range, seconds (for generated segments). */
  seconds?: [number, number];
}

export interface DemoLeaf {
  slug: string;
  name: string;
  colors: [string, string, string];
  employees: [string, string, string];
  workplaces: [string, string, string];
  /** The repeated work cycle: main operations in order; the last one yields a product. */
  cycle: DemoOperation[];
  aux: DemoOperation;
  pz: DemoOperation;
  service: DemoOperation;
  move: DemoOperation;
  rest: DemoOperation;
  idle: DemoOperation;
  /** Which employees (by index) are fully marked on which day (by index of demoDays). */
  markedDays: number[][];
}

export const demoTree = {
  root: 'Северный машиностроительный завод',
  workshop: 'Механосборочный цех',
  emptyWorkshop: 'Цех окраски',
};

export const demoLeaves: DemoLeaf[] = [
  {
    slug: 'assembly',
    name: 'Участок сборки редукторов',
    colors: ['orange', 'cyan', 'magenta'],
    employees: ['Алексеев Дмитрий', 'Борисова Светлана', 'Васильев Игорь'],
    workplaces: ['Сборочный стол № 1', 'Сборочный стол № 2', 'Сборочный стол № 3'],
    cycle: [
      { name: 'Установка подшипника', type: 'main', referencePoint: 'Подшипник взят из тары', seconds: [24, 38] },
      { name: 'Затяжка крепежа', type: 'main', referencePoint: 'Гайковёрт поднесён к болту', seconds: [7, 13] },
      { name: 'Сборка редуктора', type: 'main', referencePoint: 'Корпус установлен в приспособление', seconds: [62, 104] },
    ],
    aux: { name: 'Подача комплектующих', type: 'aux', referencePoint: 'Тележка у стола', seconds: [90, 260] },
    pz: { name: 'Получение задания и подготовка инструмента', type: 'pz', referencePoint: 'Открыт сменный наряд', seconds: [420, 840] },
    service: { name: 'Наладка гайковёрта', type: 'service', referencePoint: 'Гайковёрт снят с подвеса', seconds: [150, 480] },
    move: { name: 'Переход на склад комплектующих', type: 'move', referencePoint: 'Рабочий отошёл от стола', seconds: [45, 150] },
    rest: { name: 'Отдых и личные надобности', type: 'rest', referencePoint: 'Рабочий покинул участок', seconds: [420, 780] },
    idle: { name: 'Ожидание комплектующих', type: 'idle', referencePoint: 'Нет деталей в таре', seconds: [90, 420] },
    markedDays: [
      [0, 1, 2],
      [0, 1],
    ],
  },
  {
    slug: 'packing',
    name: 'Участок упаковки',
    colors: ['yellow', 'lime', 'deepskyblue'],
    employees: ['Григорьева Анна', 'Дмитриев Павел', 'Егорова Ольга'],
    workplaces: ['Упаковочный стол № 1', 'Упаковочный стол № 2', 'Паллетная зона'],
    cycle: [
      { name: 'Упаковка изделия', type: 'main', referencePoint: 'Изделие взято с конвейера', seconds: [40, 66] },
      { name: 'Маркировка коробки', type: 'main', referencePoint: 'Этикетка взята из принтера', seconds: [6, 11] },
      { name: 'Укладка на паллету', type: 'main', referencePoint: 'Коробка поднята со стола', seconds: [14, 24] },
    ],
    aux: { name: 'Подготовка тары', type: 'aux', referencePoint: 'Коробки взяты со стеллажа', seconds: [120, 300] },
    pz: { name: 'Приёмка смены', type: 'pz', referencePoint: 'Открыт журнал смены', seconds: [360, 720] },
    service: { name: 'Уборка рабочего места', type: 'service', referencePoint: 'Взят инвентарь для уборки', seconds: [180, 420] },
    move: { name: 'Перемещение паллеты', type: 'move', referencePoint: 'Рохля взята', seconds: [60, 180] },
    rest: { name: 'Отдых и личные надобности', type: 'rest', referencePoint: 'Рабочий покинул участок', seconds: [420, 780] },
    idle: { name: 'Ожидание погрузчика', type: 'idle', referencePoint: 'Паллета заполнена', seconds: [120, 540] },
    markedDays: [[0, 1], []],
  },
];

export interface PlannedSegment {
  operation: DemoOperation;
  /** ms since epoch */
  start: number;
  end: number;
  /** The segment completes one unit of product. */
  product: boolean;
}

/** ms since epoch of a local (demo time zone) date and time. */
export function demoInstant(day: string, time: string): number {
  return Date.parse(`${day}T${time}Z`) - DEMO_UTC_OFFSET_MINUTES * 60_000;
}

const pick = (random: Random, range: [number, number] = [60, 120]) => random.between(range[0], range[1]);

/**
 * One worker's shift as a chain of segments with no gaps except a late start and an early end:
 * preparation, work cycles with occasional auxiliary work, moves, idle time and equipment care,
 * regulated breaks at about 10:00, 12:00 (lunch) and 15:00, and closing work at the end.
 */
export function planWorkerDay(leaf: DemoLeaf, day: string, random: Random): PlannedSegment[] {
  const segments: PlannedSegment[] = [];
  const shiftStart = demoInstant(day, DEMO_SHIFT.start);
  const shiftEnd = demoInstant(day, DEMO_SHIFT.end);
  let t = shiftStart + Math.round(random.between(0, 180)) * 1000;
  const push = (operation: DemoOperation, seconds: number, product = false) => {
    const start = t;
    const end = Math.min(shiftEnd, t + Math.round(seconds * 1000));
    if (end > start) segments.push({ operation, start, end, product });
    t = end;
  };
  const breaks = [
    { at: demoInstant(day, '10:00:00'), minutes: [10, 15] as [number, number] },
    { at: demoInstant(day, '12:00:00'), minutes: [35, 45] as [number, number] },
    { at: demoInstant(day, '15:00:00'), minutes: [10, 18] as [number, number] },
  ];
  push(leaf.pz, pick(random, leaf.pz.seconds));
  const closingAt = shiftEnd - Math.round(random.between(6, 12) * 60_000);
  while (t < closingAt) {
    const due = breaks.find((b) => t >= b.at);
    if (due) {
      breaks.splice(breaks.indexOf(due), 1);
      push(leaf.rest, random.between(due.minutes[0], due.minutes[1]) * 60);
      continue;
    }
    const roll = random.next();
    if (roll < 0.05) push(leaf.aux, pick(random, leaf.aux.seconds));
    else if (roll < 0.075) {
      push(leaf.move, pick(random, leaf.move.seconds));
      push(leaf.aux, pick(random, leaf.aux.seconds) / 2);
    } else if (roll < 0.095) push(leaf.idle, pick(random, leaf.idle.seconds));
    else if (roll < 0.105) push(leaf.service, pick(random, leaf.service.seconds));
    for (const [index, operation] of leaf.cycle.entries()) {
      // An occasional slow repetition keeps the time-study cleaning honest.
      const slow = random.chance(0.03) ? random.between(1.8, 2.6) : 1;
      push(operation, pick(random, operation.seconds) * slow, index === leaf.cycle.length - 1);
      if (t >= closingAt) break;
    }
  }
  push(leaf.pz, Math.max(0, (shiftEnd - t) / 1000 - random.between(0, 240)));
  return segments;
}

export interface PlannedClip {
  cameraKey: number;
  dayIndex: number;
  clipIndex: number;
  startMs: number;
  durationSeconds: number;
  filename: string;
}

function pad(n: number) {
  return String(n).padStart(2, '0');
}

/** Recording file name carrying its local start: cam1_2026-11-16_09-00-00.mp4 */
export function recordingFilename(cameraKey: number, startMs: number): string {
  const local = new Date(startMs + DEMO_UTC_OFFSET_MINUTES * 60_000);
  const date = `${local.getUTCFullYear()}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}`;
  const time = `${pad(local.getUTCHours())}-${pad(local.getUTCMinutes())}-${pad(local.getUTCSeconds())}`;
  return `cam${cameraKey}_${date}_${time}.mp4`;
}

/**
 * Recordings that are in the cameras' folders but not registered as videos, so that a sync on the
 * demo finds something new: the last clip of each camera of "Участок упаковки" on the second day.
 */
export function isUnregisteredDemoClip(leaf: Pick<DemoLeaf, 'slug'>, clip: Pick<PlannedClip, 'dayIndex' | 'clipIndex'>): boolean {
  return leaf.slug === 'packing' && clip.dayIndex === demoDays.length - 1 && clip.clipIndex === CLIPS_PER_CAMERA_DAY - 1;
}

/** Consecutive clips per camera and day; the four cameras of a leaf overlap in time. */
export function planClips(videoSeconds: number): PlannedClip[] {
  const clips: PlannedClip[] = [];
  // Whole seconds (file names carry seconds); short test clips get no offset so cameras still overlap.
  const offset = Math.min(CAMERA_OFFSET_SECONDS, Math.floor(videoSeconds / 8));
  demoDays.forEach((day, dayIndex) => {
    for (let cameraKey = 1; cameraKey <= 4; cameraKey++) {
      for (let clipIndex = 0; clipIndex < CLIPS_PER_CAMERA_DAY; clipIndex++) {
        const startMs = demoInstant(day, DEMO_RECORDING_START) + ((cameraKey - 1) * offset + clipIndex * videoSeconds) * 1000;
        clips.push({ cameraKey, dayIndex, clipIndex, startMs, durationSeconds: videoSeconds, filename: recordingFilename(cameraKey, startMs) });
      }
    }
  });
  return clips;
}

/**
 * How a camera's day differs from another (the video renderer draws it): lighting, the worker's
 * pace and where they stand, the camera's aim — fixed for the day — and, per clip, people passing
 * behind the workplace and short shakes of the camera. Seeded by leaf, day and camera, so a model
 * trained on one day meets another day's picture, as in a plant.
 */
export function demoConditions(leafIndex: number, clip: Pick<PlannedClip, 'cameraKey' | 'dayIndex' | 'clipIndex' | 'durationSeconds'>): DemoConditions {
  const day = seededRandom(7919 * (leafIndex + 1) + 97 * clip.dayIndex + clip.cameraKey);
  const sign = () => (day.chance(0.5) ? -1 : 1);
  const conditions: DemoConditions = {
    brightness: sign() * day.between(0.005, 0.025),
    contrast: day.between(0.95, 1.05),
    speed: day.between(0.85, 1.15),
    shiftX: sign() * day.between(2, 8),
    shiftY: sign() * day.between(1, 5),
    aimX: sign() * day.between(1, 3),
    aimY: sign() * day.between(1, 3),
    shakes: [],
    passersBy: [],
  };
  const events = seededRandom(7919 * (leafIndex + 1) + 97 * clip.dayIndex + clip.cameraKey + 13 * (clip.clipIndex + 1) + 50_000);
  for (let t = events.between(5, 40); t < clip.durationSeconds; t += events.between(30, 70)) {
    conditions.passersBy.push({ from: Math.round(t * 10) / 10, seconds: Math.round(events.between(6, 10) * 10) / 10, leftToRight: events.chance(0.5) });
  }
  for (let t = events.between(10, 80); t < clip.durationSeconds; t += events.between(50, 120)) {
    conditions.shakes.push({ from: Math.round(t * 10) / 10, seconds: Math.round(events.between(1.5, 3) * 10) / 10, pixels: Math.round(events.between(1, 3)) });
  }
  return conditions;
}

/**
 * One worker-day, seeded by leaf, day index and employee as the demo seeds it. `day` is the date
 * of that day index: one of demoDays for the demo, a later date for a day drawn beyond them (the
 * vision bench's further day).
 */
export function planDemoWorkerDay(leafIndex: number, dayIndex: number, employeeIndex: number, day: string): PlannedSegment[] {
  const random = seededRandom(1000 * (leafIndex + 1) + 100 * dayIndex + employeeIndex);
  return planWorkerDay(demoLeaves[leafIndex]!, day, random);
}

/** Every worker-day of the demo (`<leaf slug>/<day index>/<employee index>`): the truth the videos are drawn from. */
export function planDays(): Map<string, PlannedSegment[]> {
  const days = new Map<string, PlannedSegment[]>();
  demoLeaves.forEach((leaf, leafIndex) => {
    demoDays.forEach((day, dayIndex) => {
      leaf.employees.forEach((_, employeeIndex) => {
        days.set(`${leaf.slug}/${dayIndex}/${employeeIndex}`, planDemoWorkerDay(leafIndex, dayIndex, employeeIndex, day));
      });
    });
  });
  return days;
}

function actorsFor(leaf: DemoLeaf, clip: PlannedClip, days: Map<string, PlannedSegment[]>): DemoActor[] {
  const employees = clip.cameraKey <= 3 ? [clip.cameraKey - 1] : [0, 1, 2];
  return employees.map((employeeIndex) => ({
    color: leaf.colors[employeeIndex]!,
    segments: (days.get(`${leaf.slug}/${clip.dayIndex}/${employeeIndex}`) ?? []).map((s) => ({
      from: (s.start - clip.startMs) / 1000,
      to: (s.end - clip.startMs) / 1000,
      category: s.operation.type,
      // Each main operation of the cycle has its own look in the video.
      variant: s.operation.type === 'main' ? leaf.cycle.indexOf(s.operation) : undefined,
    })),
  }));
}

/** What the renderer draws for a clip of a leaf's camera: its workers' segments and the day's conditions. */
export function demoClip(leafIndex: number, clip: PlannedClip, days: Map<string, PlannedSegment[]>): DemoClip {
  const leaf = demoLeaves[leafIndex]!;
  return {
    title: `${leaf.name} · Камера ${clip.cameraKey}`,
    startMs: clip.startMs,
    utcOffsetMinutes: DEMO_UTC_OFFSET_MINUTES,
    durationSeconds: clip.durationSeconds,
    actors: actorsFor(leaf, clip, days),
    conditions: demoConditions(leafIndex, clip),
  };
}

/** Where the demo-video cache lives inside a checkout (kept between test runs). */
export const defaultVideoCacheDir = (root = process.cwd()) => join(root, 'node_modules', '.cache', 'norma-demo-video');
