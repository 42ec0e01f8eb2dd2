import { iou } from './movenet-decode';

/** A hand-labelled person (tests/fixtures/vtest-people.json): x, y, w, h in pixels; `ignore` says why it does not count. */
export interface LabelledPerson {
  x: number;
  y: number;
  w: number;
  h: number;
  ignore?: 'small' | 'occluded' | 'partial';
}

export interface ScoredBox {
  box: { x1: number; y1: number; x2: number; y2: number };
  score: number;
}

export interface DetectionCounts {
  truePositives: number;
  falsePositives: number;
  /** Labelled people that count (not ignored). */
  people: number;
  /** Detections that matched an ignored person: neither right nor wrong. */
  ignored: number;
}

const boxOf = (p: LabelledPerson) => ({ x1: p.x, y1: p.y, x2: p.x + p.w, y2: p.y + p.h });

/**
 * Matches one frame's detections to its labels the usual way (PASCAL VOC): detections best score
 * first, each takes the free counted person it overlaps most at IoU ≥ minIou (a true positive);
 * one that overlaps an ignored person that much is set aside; any other is a false positive.
 */
export function matchFrame(labels: LabelledPerson[], detections: ScoredBox[], minIou = 0.5): DetectionCounts {
  const counted = labels.filter((p) => !p.ignore).map(boxOf);
  const ignoredBoxes = labels.filter((p) => p.ignore).map(boxOf);
  const taken = new Array<boolean>(counted.length).fill(false);
  const result: DetectionCounts = { truePositives: 0, falsePositives: 0, people: counted.length, ignored: 0 };
  for (const detection of [...detections].sort((a, b) => b.score - a.score)) {
    let best = -1;
    let bestIou = minIou;
    counted.forEach((box, i) => {
      const overlap = iou(box, detection.box);
      if (!taken[i] && overlap >= bestIou) [best, bestIou] = [i, overlap];
    });
    if (best >= 0) {
      taken[best] = true;
      result.truePositives++;
    } else if (ignoredBoxes.some((box) => iou(box, detection.box) >= minIou)) result.ignored++;
    else result.falsePositives++;
  }
  return result;
}

/** Precision and recall over many frames' counts. */
export function precisionRecall(counts: DetectionCounts[]): {
  precision: number;
  recall: number;
  truePositives: number;
  falsePositives: number;
  people: number;
} {
  const sum = (key: keyof DetectionCounts) => counts.reduce((s, c) => s + c[key], 0);
  const truePositives = sum('truePositives');
  const falsePositives = sum('falsePositives');
  const people = sum('people');
  return {
    precision: truePositives + falsePositives === 0 ? 1 : truePositives / (truePositives + falsePositives),
    recall: people === 0 ? 1 : truePositives / people,
    truePositives,
    falsePositives,
    people,
  };
}
