import { existsSync } from 'node:fs';
import { copyFile, mkdir, rename, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { convertForBrowser, inspectRecording } from '@norma/workers/ingest';
import { probe } from '@norma/workers/media';
import { homographyFromPoints, validateZoneShape } from '@norma/workers/tracking';
import type { AppDeps } from '../deps';
import { createZone, RUN_SETTINGS, saveCalibration, startTracking } from '../events/service';
import type { ZoneInput } from '../events/schema';
import type { SessionUser } from '../http/env';
import { addAbsoluteLocation, saveStands } from '../vision/service';
import { demoDays, demoInstant, recordingFilename } from './demo-plan';
import { insertHallCamera, insertHallStructure, insertHallVideo } from './demo-hall.service';

/**
 * The demo's exhibition hall on real footage (issue 44, docs/demo-data.md «Выставочный зал»):
 * vtest.avi from Debian's opencv-doc — people walking and standing on a pavement, filmed from above —
 * as the recording of one camera of a hall, converted for the browser by the ingest's own functions,
 * with a floor calibration, stands, an ordinary zone, a safe zone, and a tracking job queued for the
 * job workers (the seed never runs the tracker itself). Without the file the hall is left out and
 * the seed says in one line how to add it.
 */

/** Where Debian's opencv-doc puts the clip. */
export const DEMO_VTEST_PATH = '/usr/share/doc/opencv-doc/examples/data/vtest.avi';

export const DEMO_HALL = {
  structure: 'Выставочный зал (демо)',
  camera: 'Камера над входом',
  cameraKey: 1,
  folder: 'recordings/hall/cam1',
  /** The recording starts on the demo's first day at 10:00 (local), inside its report windows. */
  start: demoInstant(demoDays[0], '10:00:00'),
} as const;

/** The one line `npm start` prints when the clip is missing. */
export const hallMissingLine = (path: string) =>
  `демо-зал на настоящем видео пропущен: нет ${path}. Установите пакет opencv-doc (apt-get install opencv-doc или ` +
  `sudo bash scripts/system-deps.sh --install test) и пересоздайте базу — остальное демо заполнено`;

/**
 * The calibration: four points on the ground of vtest.avi (768×576) and the same four on the plan,
 * metres (x to the right, y towards the camera). Approximate — nobody measured this floor. The plan
 * points come from a pinhole model of the camera fitted to the clip itself: from the hand-labelled
 * people (workers/test-support/fixtures/vtest-tracks.mot) standing 1.7 m tall, the camera is about
 * 6.0 m above the ground, tilted 18° down; the focal length (1000 px, 42° across) is the one at which
 * people walk as fast across the view as along it (median 1.35 and 1.28 m/s, 1.33 m/s in all — a
 * normal walking pace). The four points: the base of the second traffic cone (left, by the taped-off
 * car park), the foot of the bollard on the right, the feet of the tripod on the grass and the yellow
 * cloth on the grass (bottom left). The sign post's base (433, 391) lands at (13.72, 20.45).
 */
export const HALL_CALIBRATION = {
  frame_width: 768,
  frame_height: 576,
  image_points: [
    [170, 204],
    [707, 236],
    [497, 465],
    [115, 512],
  ] as [number, number][],
  plan_points: [
    [7.4, 8.42],
    [20.47, 11.64],
    [14.42, 22.73],
    [9.91, 23.86],
  ] as [number, number][],
};

/** The sign post's base on the plan: the safe zone's centre and the basis's place. */
export const SIGN_POST = [13.72, 20.45] as [number, number];

/** Stands of the organisation placed in the hall (absolute locations, metres), each with its default zone (a 1.5 m circle). */
export const HALL_STANDS = [
  { name: 'Стенд «Редукторы»', at: [12.3, 14.0] as [number, number] },
  { name: 'Стенд «Упаковка»', at: [15.2, 16.3] as [number, number] },
];
export const HALL_BASIS = { name: 'Базис: столб знака', at: SIGN_POST };

/** The hall's zones besides the stands': the entrance from the road (top right of the frame) and a keep-out circle around the sign post. */
export const HALL_ZONES: ZoneInput[] = [
  {
    name: 'Вход',
    role: 'zone',
    shape: {
      type: 'polygon',
      points: [
        [17, 3],
        [23, 3],
        [23, 10],
        [17, 10],
      ],
    },
  },
  { name: 'Безопасная зона: столб знака', role: 'safe', shape: { type: 'circle', center: SIGN_POST, radius: 1.5 } },
];

export interface HallOptions {
  /** The clip (DEMO_VTEST_PATH by default); a missing file leaves the hall out. */
  vtestPath?: string;
  /** The converted clip is kept here and copied on the next seed instead of being converted again. */
  videoCacheDir?: string;
  log: (line: string) => void;
}

/**
 * Seeds the hall under the organisation's root, as the admin: returns the video's id, or null when
 * the clip is missing (then it logs the one line).
 */
export async function seedDemoHall(deps: AppDeps, admin: SessionUser, rootId: number, options: HallOptions): Promise<number | null> {
  const source = options.vtestPath ?? DEMO_VTEST_PATH;
  if (!existsSync(source)) {
    options.log(hallMissingLine(source));
    return null;
  }
  const { db } = deps;
  // Refused here, before anything is written, exactly as the calibration call would refuse it.
  homographyFromPoints(HALL_CALIBRATION.image_points, HALL_CALIBRATION.plan_points);
  for (const zone of HALL_ZONES) {
    const problem = zone.shape ? validateZoneShape(zone.shape) : null;
    if (problem) throw new Error(`${zone.name}: ${problem}`);
  }
  const filename = recordingFilename(DEMO_HALL.cameraKey, DEMO_HALL.start);
  const storageKey = `${DEMO_HALL.folder}/${filename}`;
  await convertClip(deps, source, storageKey, options.videoCacheDir);
  const path = deps.storage.pathOf(storageKey);
  const bytes = new Uint8Array(await Bun.file(path).arrayBuffer());
  const info = await probe(path);

  const hallId = await insertHallStructure(db, admin.organizationId, rootId, DEMO_HALL.structure);
  const cameraId = await insertHallCamera(db, hallId, { key: DEMO_HALL.cameraKey, name: DEMO_HALL.camera, folder: DEMO_HALL.folder });
  const videoId = await insertHallVideo(db, cameraId, {
    filename,
    storageKey,
    contentHash: new Bun.CryptoHasher('sha256').update(bytes).digest('hex'),
    sizeBytes: bytes.byteLength,
    startTime: DEMO_HALL.start,
    duration: Math.round(info.durationSeconds * 1000) / 1000,
  });
  await saveCalibration(db, cameraId, HALL_CALIBRATION);

  const named = [...HALL_STANDS.map((s) => ({ ...s, kind: 'stand' })), { ...HALL_BASIS, kind: 'basis' }];
  const { stands } = await saveStands(
    db,
    admin,
    { organization_id: admin.organizationId, changed_stands: named.map((s) => ({ name: s.name, kind: s.kind })), stands_to_delete: [] },
    hallId,
  );
  for (const stand of named) {
    const row = stands.find((s) => s.name === stand.name)!;
    await addAbsoluteLocation(db, admin, { stand_id: row.id, structure_id: hallId, x: stand.at[0], y: stand.at[1] });
    // A stand's zone without a shape: the API's default circle around its absolute location.
    if (stand.kind === 'stand') await createZone(db, admin, hallId, { name: stand.name, role: 'stand', stand_id: row.id });
  }
  for (const zone of HALL_ZONES) await createZone(db, admin, hallId, zone);
  await startTracking(db, admin, { video_id: videoId }, RUN_SETTINGS);
  options.log(`демо-зал: видео ${info.durationSeconds.toFixed(1)} с, трекинг поставлен в очередь (идёт в фоне)`);
  return videoId;
}

/** The clip rewritten for the browser (as the ingest job does it) into the storage key, through the cache when there is one. */
async function convertClip(deps: AppDeps, source: string, storageKey: string, cacheDir?: string) {
  const output = deps.storage.pathOf(storageKey);
  await mkdir(dirname(output), { recursive: true });
  const { size, mtimeMs } = await stat(source);
  const cached = cacheDir ? join(cacheDir, `hall-${new Bun.CryptoHasher('sha1').update(`${source}|${size}|${mtimeMs}`).digest('hex')}.mp4`) : null;
  if (cached && existsSync(cached)) return copyFile(cached, output);
  const inspected = await inspectRecording(source);
  if (inspected.plan.action === 'none') await copyFile(source, output);
  else await convertForBrowser(inspected, source, output);
  if (cached) {
    // Copy then rename: a parallel seed never reads a half-written cache entry.
    await mkdir(dirname(cached), { recursive: true });
    const partial = `${cached}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    await copyFile(output, partial);
    await rename(partial, cached);
  }
}
