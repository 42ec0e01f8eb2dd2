import { CATEGORIES } from '@norma/core-wasm';
import type { Db } from '../db/database';
import { toIso } from '../http/time';
import type { InteractiveFrvBody } from './schema';
import { loadSegments, loadStructureContext } from './service';

interface VideoSpan {
  id: number;
  cameraId: number;
  cameraKey: number;
  filename: string;
  start: number;
  end: number;
}

/**
 * Video files of the structure's cameras (ready, with a known duration) whose span overlaps
 * [from, to), by start time.
 */
async function videosOverlapping(db: Db, structureId: number, from: number, to: number): Promise<VideoSpan[]> {
  const rows = await db
    .selectFrom('videos')
    .innerJoin('cameras', 'cameras.id', 'videos.camera_id')
    .select(['videos.id', 'videos.camera_id', 'cameras.camera_key', 'videos.filename', 'videos.start_time', 'videos.duration'])
    .where('cameras.structure_id', '=', structureId)
    .where('videos.status', '=', 'ready')
    .where('videos.duration', '>', 0)
    .where('videos.start_time', '<', to)
    .where((eb) => eb(eb('videos.start_time', '+', eb(eb.ref('videos.duration'), '*', 1000)), '>', from))
    .orderBy('videos.start_time')
    .orderBy('cameras.camera_key')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    cameraId: r.camera_id,
    cameraKey: r.camera_key,
    filename: r.filename,
    start: r.start_time,
    end: r.start_time + Math.round(r.duration! * 1000),
  }));
}

/** First index whose start is ≥ value (videos sorted by start). */
function lowerBound(videos: VideoSpan[], value: number): number {
  let lo = 0;
  let hi = videos.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (videos[mid]!.start < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * GET /api/v2/frv (interactive report): the markups of the window in time order, each clipped
 * to the window and mapped onto EVERY video file of the structure that covers part of it — any
 * camera, clipped to each file's span, as seconds from that file's start.
 */
export async function buildInteractiveFrv(db: Db, structureId: number, from: number, to: number): Promise<InteractiveFrvBody> {
  const context = await loadStructureContext(db, structureId);
  const [segments, videos, employees, workplaces] = await Promise.all([
    loadSegments(db, structureId, from, to),
    videosOverlapping(db, structureId, from, to),
    db.selectFrom('employees').select(['id', 'name']).where('structure_id', '=', structureId).execute(),
    db.selectFrom('workplaces').select(['id', 'name']).where('structure_id', '=', structureId).execute(),
  ]);
  const employeeName = new Map(employees.map((e) => [e.id, e.name]));
  const workplaceName = new Map(workplaces.map((w) => [w.id, w.name]));
  const longest = videos.reduce((m, v) => Math.max(m, v.end - v.start), 0);

  const items: InteractiveFrvBody['items'] = [];
  for (const s of segments) {
    const start = Math.max(s.start, from);
    const end = Math.min(s.end, to);
    if (!(end > start)) continue;
    const videoSegments: InteractiveFrvBody['items'][number]['video_segments'] = [];
    for (let i = lowerBound(videos, start - longest); i < videos.length && videos[i]!.start < end; i++) {
      const v = videos[i]!;
      const a = Math.max(start, v.start);
      const b = Math.min(end, v.end);
      if (b > a) {
        videoSegments.push({
          video_id: v.id,
          video_segment: { start: (a - v.start) / 1000, end: (b - v.start) / 1000 },
          camera_id: v.cameraId,
          camera_key: v.cameraKey,
          filename: v.filename,
        });
      }
    }
    // Videos come in start order, and the sort is stable: by camera, then in time.
    videoSegments.sort((x, y) => x.camera_key - y.camera_key);
    items.push({
      operation_name: s.operationName,
      operation_type: s.category,
      time_slot: { fromm: toIso(start), to: toIso(end) },
      duration: (end - start) / 1000,
      video_segments: videoSegments,
      id: s.id,
      number: items.length + 1,
      index: CATEGORIES.indexOf(s.category),
      operation_id: s.operationId,
      employee_id: s.employeeId === 0 ? null : s.employeeId,
      employee_name: employeeName.get(s.employeeId) ?? null,
      workplace_name: workplaceName.get(s.workplaceId) ?? '',
    });
  }
  return {
    structure: { name: context.name, id: context.id },
    requested_slot: { fromm: toIso(from), to: toIso(to) },
    items,
    // The one source of type labels and colours, also for a visitor with a share key.
    operation_types: context.operationTypes.map((t) => ({ code: t.code, label: t.label, color: t.color })),
    time_zone: context.timeZone,
  };
}
