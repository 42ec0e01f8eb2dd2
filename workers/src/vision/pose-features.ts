import type { SourceRect } from './features';
import type { KeypointName, PosedHuman } from './movenet-decode';

/**
 * Pose features of video areas (docs/vision.md «Позы как признаки»): where a person's head,
 * elbows and wrists are relative to each area, from MoveNet multipose sampled at a low rate
 * (POSE_FPS) and held between samples. Pure code: the people come from movenet.ts.
 * For every area and every group of keypoints, three numbers:
 *   pose_<group>_p  the highest keypoint score of the group inside the area (0 when none is there)
 *   pose_<group>_x, pose_<group>_y  where that keypoint is in the area, 0…1 (0.5 when none is there)
 */
export const POSE_GROUPS: { name: string; keypoints: KeypointName[] }[] = [
  { name: 'head', keypoints: ['nose'] },
  { name: 'elbows', keypoints: ['left_elbow', 'right_elbow'] },
  { name: 'wrists', keypoints: ['left_wrist', 'right_wrist'] },
];
export const POSE_FEATURES_PER_AREA = POSE_GROUPS.length * 3;

/** How poses are sampled for features, stored in the model's spec (absent: a model without poses). */
export interface PoseSampling {
  /** Pose samples per second of video; each step takes the last sample at or before it. */
  fps: number;
  /** MoveNet input width (a multiple of 32; the height follows the aspect). */
  inputWidth: number;
  /** Overlapping vertical strips run separately (1: the whole picture once). */
  columns: number;
}

/** One sample a second at 256 pixels, one strip: a workplace camera shows few people, and large. */
export const DEFAULT_POSE_SAMPLING: PoseSampling = { fps: 1, inputWidth: 256, columns: 1 };

/** Feature names, `area<i>.pose_<group>_<p|x|y>`, in column order. */
export function poseFeatureNames(areaLabels: string[]): string[] {
  return areaLabels.flatMap((label) => POSE_GROUPS.flatMap((g) => ['p', 'x', 'y'].map((k) => `${label}.pose_${g.name}_${k}`)));
}

/** The POSE_FEATURES_PER_AREA numbers of every area (in order) for the people of one sample, written into `out`. */
export function poseFeatures(people: PosedHuman[], areas: SourceRect[], out: Float32Array): void {
  areas.forEach((area, a) => {
    const x1 = Math.min(area.x1, area.x2);
    const x2 = Math.max(area.x1, area.x2);
    const y1 = Math.min(area.y1, area.y2);
    const y2 = Math.max(area.y1, area.y2);
    POSE_GROUPS.forEach((group, g) => {
      let best = 0;
      let bx = 0.5;
      let by = 0.5;
      for (const person of people)
        for (const k of person.keypoints) {
          if (!group.keypoints.includes(k.name) || k.score <= best) continue;
          if (k.x < x1 || k.x >= x2 || k.y < y1 || k.y >= y2) continue;
          best = k.score;
          bx = (k.x - x1) / Math.max(1, x2 - x1);
          by = (k.y - y1) / Math.max(1, y2 - y1);
        }
      const o = a * POSE_FEATURES_PER_AREA + g * 3;
      out[o] = best;
      out[o + 1] = bx;
      out[o + 2] = by;
    });
  });
}

/** The pose sample a step uses: the last one at or before the step's time (held between samples). */
export function poseSampleOf(step: number, fps: number, poseFps: number, samples: number): number {
  return Math.max(0, Math.min(samples - 1, Math.floor((step / fps) * poseFps + 1e-9)));
}
