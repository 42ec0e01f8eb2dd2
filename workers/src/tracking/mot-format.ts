import type { Track } from './byte-tracker';
import type { MotBox } from './mot-metrics';

/**
 * The MOTChallenge text format (docs/event-analytics.md «Формат MOTChallenge»): one line per box,
 * `frame,id,bb_left,bb_top,bb_width,bb_height,conf,-1,-1,-1`, frames counted from 1 at the video's
 * own frame rate (video frame index 0 is MOT frame 1), pixels of the source video. What analysts
 * feed to the MOTChallenge devkit, py-motmetrics or TrackEval.
 */
export interface MotRow extends MotBox {
  conf: number;
}

const round2 = (v: number) => Math.round(v * 100) / 100;

/** Rows of confirmed tracks, `frame` being the tracker's video frame index (from 0). */
export function motRowsOfTracks(tracks: Track[]): MotRow[] {
  return tracks
    .flatMap((t) => t.points.map((p) => ({ frame: p.frame + 1, id: t.id, box: p.box, conf: p.score })))
    .sort((a, b) => a.frame - b.frame || a.id - b.id);
}

/** The text: lines sorted by frame, then id; coordinates to 0.01 px. */
export function writeMot(rows: MotRow[]): string {
  return [...rows]
    .sort((a, b) => a.frame - b.frame || a.id - b.id)
    .map((r) =>
      [r.frame, r.id, round2(r.box.x1), round2(r.box.y1), round2(r.box.x2 - r.box.x1), round2(r.box.y2 - r.box.y1), round2(r.conf), -1, -1, -1].join(','),
    )
    .map((line) => `${line}\n`)
    .join('');
}

/** Parses the text (blank lines and lines starting with # skipped); a malformed line throws with its number. */
export function readMot(text: string): MotRow[] {
  const rows: MotRow[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (!line || line.startsWith('#')) return;
    const fields = line.split(',').map((f) => Number(f.trim()));
    const [frame, id, x, y, w, h, conf] = fields;
    if (
      fields.length < 7 ||
      fields.some((f) => !Number.isFinite(f)) ||
      !Number.isInteger(frame) ||
      frame! < 1 ||
      !Number.isInteger(id) ||
      !(w! > 0) ||
      !(h! > 0)
    )
      throw new Error(`MOT: строка ${i + 1} не в формате frame,id,x,y,w,h,conf: «${line.slice(0, 80)}»`);
    rows.push({ frame: frame!, id: id!, box: { x1: x!, y1: y!, x2: x! + w!, y2: y! + h! }, conf: conf! });
  });
  return rows;
}
