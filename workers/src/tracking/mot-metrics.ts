import { iou } from '../vision/movenet-decode';
import { assignBy } from './assign';
import type { Box } from './kalman';

/**
 * Standard multi-object tracking scores (docs/event-analytics.md «Метрики»), as py-motmetrics and
 * the MOTChallenge devkit compute them, at an IoU threshold (0.5):
 * CLEAR-MOT (Bernardin & Stiefelhagen 2008) — per frame, a ground-truth object keeps the
 * hypothesis it was matched to on its previous frame while they still overlap enough; the rest
 * are matched optimally (Hungarian) by IoU; a ground-truth object matched to a different
 * hypothesis than last time is an identity switch. MOTA = 1 − (FN + FP + IDSW) / GT; MOTP here is
 * the mean IoU of the matches (higher is better).
 * Identity metrics (Ristani et al. 2016) — one global one-to-one assignment of ground-truth
 * identities to hypothesis identities maximising the frames where the pair overlaps enough (IDTP);
 * IDFN = GT − IDTP, IDFP = hypotheses − IDTP, IDF1 = 2·IDTP / (2·IDTP + IDFP + IDFN).
 */
export interface MotBox {
  frame: number;
  id: number;
  box: Box;
  /**
   * Ground truth only: a person too hidden or cut by the frame edge to demand (MOT17's «consider»
   * flag 0). Neither counted nor missed; a hypothesis on it (IoU ≥ the threshold) is dropped, not
   * a false positive.
   */
  ignore?: boolean;
}

export interface MotScores {
  /** Ground-truth boxes, hypothesis boxes. */
  gt: number;
  hyp: number;
  matches: number;
  fn: number;
  fp: number;
  idsw: number;
  mota: number;
  motp: number;
  idtp: number;
  idfp: number;
  idfn: number;
  idf1: number;
  /** Distinct identities in each. */
  gtIds: number;
  hypIds: number;
}

function byFrame(boxes: MotBox[]): Map<number, MotBox[]> {
  const frames = new Map<number, MotBox[]>();
  for (const b of boxes) {
    const list = frames.get(b.frame) ?? [];
    if (list.some((o) => o.id === b.id)) throw new Error(`Разметка: номер ${b.id} дважды на кадре ${b.frame}`);
    list.push(b);
    frames.set(b.frame, list);
  }
  return frames;
}

/** Hypotheses left after those on ignored ground truth are dropped (one per ignored box, optimally), and the counted ground truth. */
function withoutIgnored(gt: MotBox[], hyp: MotBox[], minIou: number): { gt: MotBox[]; hyp: MotBox[] } {
  const ignored = byFrame(gt.filter((b) => b.ignore));
  const hypFrames = byFrame(hyp);
  const dropped = new Set<MotBox>();
  for (const [frame, boxes] of ignored) {
    const h = hypFrames.get(frame) ?? [];
    const { pairs } = assignBy(
      boxes.map((a) => h.map((b) => iou(a.box, b.box))),
      minIou,
      h.length,
    );
    for (const [, j] of pairs) dropped.add(h[j]!);
  }
  return { gt: gt.filter((b) => !b.ignore), hyp: hyp.filter((b) => !dropped.has(b)) };
}

/** CLEAR-MOT and identity scores of `hyp` against `gt` (frames absent from both count as empty). */
export function motScores(allGt: MotBox[], allHyp: MotBox[], minIou = 0.5): MotScores {
  const { gt, hyp } = withoutIgnored(allGt, allHyp, minIou);
  const gtFrames = byFrame(gt);
  const hypFrames = byFrame(hyp);
  const frames = [...new Set([...gtFrames.keys(), ...hypFrames.keys()])].sort((a, b) => a - b);
  /** Ground-truth id → the hypothesis id it was last matched to. */
  const lastMatch = new Map<number, number>();
  /** `${gt}:${hyp}` → frames where the pair overlaps at ≥ minIou (for the identity assignment). */
  const together = new Map<string, number>();
  let matches = 0;
  let iouSum = 0;
  let idsw = 0;
  for (const frame of frames) {
    const g = gtFrames.get(frame) ?? [];
    const h = hypFrames.get(frame) ?? [];
    const overlap = g.map((a) => h.map((b) => iou(a.box, b.box)));
    g.forEach((a, i) =>
      h.forEach((b, j) => {
        if (overlap[i]![j]! >= minIou) together.set(`${a.id}:${b.id}`, (together.get(`${a.id}:${b.id}`) ?? 0) + 1);
      }),
    );
    // Matches kept from the previous frame.
    const pairs: [number, number][] = [];
    g.forEach((a, i) => {
      const j = h.findIndex((b) => b.id === lastMatch.get(a.id));
      if (j >= 0 && overlap[i]![j]! >= minIou && !pairs.some((p) => p[1] === j)) pairs.push([i, j]);
    });
    const freeG = g.map((_, i) => i).filter((i) => !pairs.some((p) => p[0] === i));
    const freeH = h.map((_, j) => j).filter((j) => !pairs.some((p) => p[1] === j));
    const fresh = assignBy(
      freeG.map((i) => freeH.map((j) => overlap[i]![j]!)),
      minIou,
      freeH.length,
    );
    for (const [r, c] of fresh.pairs) {
      const [i, j] = [freeG[r]!, freeH[c]!];
      const previous = lastMatch.get(g[i]!.id);
      if (previous !== undefined && previous !== h[j]!.id) idsw++;
      pairs.push([i, j]);
    }
    for (const [i, j] of pairs) {
      lastMatch.set(g[i]!.id, h[j]!.id);
      iouSum += overlap[i]![j]!;
    }
    matches += pairs.length;
  }
  const fn = gt.length - matches;
  const fp = hyp.length - matches;
  const gtIds = [...new Set(gt.map((b) => b.id))];
  const hypIds = [...new Set(hyp.map((b) => b.id))];
  const identity = assignBy(
    gtIds.map((a) => hypIds.map((b) => together.get(`${a}:${b}`) ?? 0)),
    // Any pair that shares a frame; a limit this far below 1 makes the sum of shared frames itself the objective.
    1e-3,
    hypIds.length,
  );
  const idtp = identity.pairs.reduce((s, [r, c]) => s + (together.get(`${gtIds[r]}:${hypIds[c]}`) ?? 0), 0);
  const idfn = gt.length - idtp;
  const idfp = hyp.length - idtp;
  return {
    gt: gt.length,
    hyp: hyp.length,
    matches,
    fn,
    fp,
    idsw,
    mota: gt.length ? 1 - (fn + fp + idsw) / gt.length : 0,
    motp: matches ? iouSum / matches : 0,
    idtp,
    idfp,
    idfn,
    idf1: gt.length + hyp.length ? (2 * idtp) / (2 * idtp + idfp + idfn) : 1,
    gtIds: gtIds.length,
    hypIds: hypIds.length,
  };
}
