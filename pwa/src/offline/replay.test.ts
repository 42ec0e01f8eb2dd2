import { describe, expect, it } from 'vitest';
import type { MarkupRow, VideoMarkupsReply } from './markup-rows';
import { carryOverAfterSave } from './replay';

const row = (key: string, id: number, start: number, end: number, operation_id = 1): MarkupRow => ({
  key,
  id,
  operation_id,
  workplace_id: 7,
  employee_id: null,
  start,
  end,
  comment: '',
  source: 'manual',
});
const serverRow = (id: number, start: number, end: number, operation_id = 1) => ({
  id,
  operation_id,
  workplace_id: 7,
  employee_id: null,
  start_time: start,
  end_time: end,
  comment: null,
  source: 'manual' as const,
  author_name: null,
});

describe('carrying local markup over a sent queued save', () => {
  it('gives the sent rows their server ids and keeps only later edits unsaved', () => {
    // Sent: the new rows 0–5 and 5–10. After that, offline: 5–10 moved, 10–15 added.
    const local = { rows: [row('n1', -1, 0, 5), row('n2', -1, 5, 11), row('n3', -1, 10, 15, 2)], stamps: [] };
    const reply: VideoMarkupsReply = { video_markups: [serverRow(40, 0, 5), serverRow(41, 5, 10)], video_stamps: [], version: 3 };
    const carried = carryOverAfterSave(local, reply);
    expect(carried.version).toBe(3);
    expect(carried.rows.map((r) => [r.id, r.start, r.end])).toEqual([
      [40, 0, 5],
      [-1, 5, 11],
      [-1, 10, 15],
    ]);
    expect(carried.rows[0]!.key).toBe('m40');
  });

  it('matches identical new rows one for one, never two local rows to one server row', () => {
    const local = { rows: [row('n1', -1, 0, 5), row('n2', -1, 0, 5)], stamps: [] };
    const reply: VideoMarkupsReply = { video_markups: [serverRow(50, 0, 5)], video_stamps: [], version: 1 };
    expect(carryOverAfterSave(local, reply).rows.map((r) => r.id)).toEqual([50, -1]);
  });

  it('leaves rows the local side already knew alone', () => {
    const local = { rows: [row('m9', 9, 0, 4)], stamps: [] };
    const reply: VideoMarkupsReply = { video_markups: [serverRow(9, 0, 5)], video_stamps: [], version: 2 };
    expect(carryOverAfterSave(local, reply).rows).toEqual([row('m9', 9, 0, 4)]);
  });
});
