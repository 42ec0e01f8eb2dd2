/**
 * The interactive report (GET /api/v2/frv) assembled from report inputs: the markups of the
 * window in time order, each mapped onto every video file that covers part of it.
 */
import { CATEGORIES } from '../types.ts';
import type { Category } from '../types.ts';
import { toIso, type ReportInputs, type VideoSpan } from './inputs.ts';

export interface FrvItem {
  operation_name: string;
  operation_type: Category;
  time_slot: { fromm: string; to: string };
  duration: number;
  video_segments: { video_id: number; video_segment: { start: number; end: number }; camera_id: number; camera_key: number; filename: string }[];
  id: number;
  number: number;
  index: number;
  operation_id: number;
  employee_id: number | null;
  employee_name: string | null;
  workplace_name: string;
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
export function assembleInteractiveFrv(inputs: ReportInputs) {
  const { structure: context, from, to, segments, videos, employees, workplaces } = inputs;
  const employeeName = new Map(employees.map((e) => [e.id, e.name]));
  const workplaceName = new Map(workplaces.map((w) => [w.id, w.name]));
  const longest = videos.reduce((m, v) => Math.max(m, v.end - v.start), 0);

  const items: FrvItem[] = [];
  for (const s of segments) {
    const start = Math.max(s.start, from);
    const end = Math.min(s.end, to);
    if (!(end > start)) continue;
    const videoSegments: FrvItem['video_segments'] = [];
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
