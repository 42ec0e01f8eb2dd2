import { describe, expect, it } from 'vitest';
import { assignBy } from './assign';
import type { Box } from './kalman';
import { motRowsOfTracks, readMot, writeMot, type MotRow } from './mot-format';
import { motScores, type MotBox } from './mot-metrics';
import { ByteTracker } from './byte-tracker';

const P: Box = { x1: 0, y1: 0, x2: 10, y2: 10 };
const Q: Box = { x1: 100, y1: 0, x2: 110, y2: 10 };
const R: Box = { x1: 200, y1: 0, x2: 210, y2: 10 };
/** P moved 2 px right: IoU with P = (8·10) / (100 + 100 − 80) = 80 / 120 = 2/3. */
const P2: Box = { x1: 2, y1: 0, x2: 12, y2: 10 };
const at = (frame: number, id: number, box: Box): MotBox => ({ frame, id, box });

describe('optimal assignment', () => {
  it('beats greedy where the best pair for one is the second best for the other', () => {
    // Greedy takes A–X (0.6) and leaves B alone: Σ(s − 0.2) = 0.4. Optimal: A–Y and B–X, 0.3 + 0.3 = 0.6.
    expect(
      assignBy(
        [
          [0.6, 0.5],
          [0.5, 0],
        ],
        0.2,
      ),
    ).toEqual({
      pairs: expect.arrayContaining([
        [0, 1],
        [1, 0],
      ]) as unknown,
      rows: [],
      cols: [],
    });
    // A pair below the limit is never made, even when that leaves both sides unmatched.
    expect(
      assignBy(
        [
          [0.9, 0.3],
          [0.3, 0.1],
        ],
        0.2,
      ),
    ).toEqual({ pairs: [[0, 0]], rows: [1], cols: [1] });
    expect(assignBy([], 0.5, 2)).toEqual({ pairs: [], rows: [], cols: [0, 1] });
    expect(assignBy([[0.1, 0.2, 0.1]], 0.5)).toEqual({ pairs: [], rows: [0], cols: [0, 1, 2] });
  });
});

describe('CLEAR-MOT and identity metrics', () => {
  it('an identity swap: two switches, IDF1 one half', () => {
    // Frames 1–2: gt 1 ↔ hyp 10 at P, gt 2 ↔ hyp 20 at Q; frames 3–4 the hypotheses swap places.
    const gt = [1, 2, 3, 4].flatMap((f) => [at(f, 1, P), at(f, 2, Q)]);
    const hyp = [1, 2, 3, 4].flatMap((f) => (f <= 2 ? [at(f, 10, P), at(f, 20, Q)] : [at(f, 20, P), at(f, 10, Q)]));
    const s = motScores(gt, hyp);
    // GT 8, all 8 matched, FN 0, FP 0; at frame 3 both gt change hypothesis: IDSW 2. MOTA = 1 − 2/8 = 0.75.
    expect(s).toMatchObject({ gt: 8, hyp: 8, matches: 8, fn: 0, fp: 0, idsw: 2, mota: 0.75, motp: 1 });
    // Each gt shares 2 frames with each hyp: the best one-to-one assignment has IDTP = 2 + 2 = 4,
    // IDFN = 8 − 4 = 4, IDFP = 8 − 4 = 4, IDF1 = 8 / (8 + 4 + 4) = 0.5.
    expect(s).toMatchObject({ idtp: 4, idfn: 4, idfp: 4, idf1: 0.5, gtIds: 2, hypIds: 2 });
  });

  it('a miss and a false positive', () => {
    // gt 1 at P on frames 1–4; hyp 10 at P on 1 and 2, missing on 3, at P2 (IoU 2/3) on 4; hyp 30 far away at R on frame 2.
    const gt = [1, 2, 3, 4].map((f) => at(f, 1, P));
    const hyp = [at(1, 10, P), at(2, 10, P), at(2, 30, R), at(4, 10, P2)];
    const s = motScores(gt, hyp);
    // Matches 3 (frames 1, 2, 4): FN = 4 − 3 = 1, FP = 4 − 3 = 1, IDSW 0: MOTA = 1 − 2/4 = 0.5.
    // MOTP = (1 + 1 + 2/3) / 3 = 8/9. IDTP 3 (gt 1 ↔ hyp 10), IDFN 1, IDFP 1: IDF1 = 6 / 8 = 0.75.
    expect(s).toMatchObject({ gt: 4, hyp: 4, matches: 3, fn: 1, fp: 1, idsw: 0, mota: 0.5, idtp: 3, idfn: 1, idfp: 1, idf1: 0.75 });
    expect(s.motp).toBeCloseTo(8 / 9, 10);
  });

  it('keeps last frame’s match while it still overlaps, even when a better box appears', () => {
    // Frame 1: gt 1 at P, hyp 10 at P2 (IoU 2/3). Frame 2: the same, plus hyp 20 exactly at P (IoU 1).
    // CLEAR-MOT keeps 1 ↔ 10 (2/3 ≥ 0.5): no switch, hyp 20 is a false positive: MOTA = 1 − 1/2 = 0.5.
    const s = motScores([at(1, 1, P), at(2, 1, P)], [at(1, 10, P2), at(2, 10, P2), at(2, 20, P)]);
    expect(s).toMatchObject({ matches: 2, fp: 1, fn: 0, idsw: 0, mota: 0.5 });
    // Below 0.5 the match is not kept: a box 6 px off (IoU 4·10 / 160 = 0.25) is a miss plus a false positive.
    const off: Box = { x1: 6, y1: 0, x2: 16, y2: 10 };
    expect(motScores([at(1, 1, P)], [at(1, 10, off)])).toMatchObject({ matches: 0, fn: 1, fp: 1, mota: -1, idf1: 0 });
  });

  it('neither counts nor penalises an ignored (hidden, cut-off) person', () => {
    // gt 1 at P counts, gt 2 at Q is marked ignore; hyp 10 at P, hyp 20 on the ignored Q (dropped), hyp 30 at R.
    // GT 1, matched 1, FP 1 (hyp 30): MOTA = 1 − 1/1 = 0; IDTP 1, IDFN 0, IDFP 1: IDF1 = 2 / 3.
    const s = motScores([at(1, 1, P), { ...at(1, 2, Q), ignore: true }], [at(1, 10, P), at(1, 20, Q), at(1, 30, R)]);
    expect(s).toMatchObject({ gt: 1, hyp: 2, matches: 1, fn: 0, fp: 1, mota: 0, idtp: 1, idfp: 1, idfn: 0 });
    expect(s.idf1).toBeCloseTo(2 / 3, 10);
  });

  it('rejects an identity twice on one frame', () => {
    expect(() => motScores([at(1, 1, P), at(1, 1, Q)], [])).toThrow('номер 1 дважды на кадре 1');
  });
});

describe('MOTChallenge text format', () => {
  it('writes frame,id,left,top,width,height,conf,-1,-1,-1 and reads it back', () => {
    const rows: MotRow[] = [
      { frame: 2, id: 1, box: { x1: 10.5, y1: 20, x2: 50.25, y2: 120 }, conf: 0.87 },
      { frame: 1, id: 3, box: { x1: 0, y1: 0, x2: 40, y2: 100 }, conf: 0.3 },
      { frame: 1, id: 1, box: { x1: 12, y1: 21, x2: 52, y2: 121 }, conf: 0.9 },
    ];
    const text = writeMot(rows);
    expect(text).toBe('1,1,12,21,40,100,0.9,-1,-1,-1\n1,3,0,0,40,100,0.3,-1,-1,-1\n2,1,10.5,20,39.75,100,0.87,-1,-1,-1\n');
    expect(readMot(text)).toEqual([rows[2], rows[1], rows[0]]);
    expect(readMot(`# comment\n\n${text}`)).toHaveLength(3);
    expect(() => readMot('1,1,0,0,40,100,0.9,-1,-1,-1\n0,1,0,0,40,100\n')).toThrow('строка 2');
    expect(() => readMot('1,1,0,0,-4,100,0.9\n')).toThrow('строка 1');
    expect(() => readMot('1,a,0,0,4,100,0.9\n')).toThrow('строка 1');
  });

  it('numbers a tracker’s frames from 1', () => {
    const tracker = new ByteTracker({ fps: 10, confirmFrames: 1 });
    tracker.update(0, 0, [{ box: { x1: 0, y1: 0, x2: 40, y2: 100 }, score: 0.9 }]);
    tracker.update(1, 0.1, [{ box: { x1: 2, y1: 0, x2: 42, y2: 100 }, score: 0.8 }]);
    expect(writeMot(motRowsOfTracks(tracker.tracks()))).toBe('1,1,0,0,40,100,0.9,-1,-1,-1\n2,1,2,0,40,100,0.8,-1,-1,-1\n');
  });
});
