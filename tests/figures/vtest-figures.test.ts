import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  assignByIou,
  ByteTracker,
  computeFigures,
  finishTracks,
  homographyFromPoints,
  readMot,
  toPlan,
  TRACKER_DEFAULTS,
  type Box,
  type EventFigures,
  type FigureZone,
  type PlanTrack,
} from '@norma/workers/tracking';
import { beforeAll, describe, expect, it } from 'vitest';
import { STAND_ZONE_RADIUS, TRACKING_FPS } from '../../api/src/events/schema';
import { HALL_CALIBRATION, HALL_STANDS, HALL_ZONES } from '../../api/src/seed/demo-hall';
import { vtestDetections } from '../../workers/test-support/vtest-detections';
import { withAppearance } from '../../workers/test-support/vtest-appearance';
import { VTEST_AVI, VTEST_MISSING } from '../support/vtest';

/**
 * The event figures against hand truth (issue 44, docs/event-analytics.md «Цифры против истины»).
 *
 * The scene: vtest.avi as the demo's exhibition hall — its calibration (api/src/seed/demo-hall.ts),
 * its two stands (1.5 m circles round their places, as the API makes a stand's zone), the entrance
 * and the safe zone round the sign post. The same figures core (computeFigures) is fed:
 * - **truth**: the hand-labelled identities (workers/test-support/fixtures/vtest-tracks.mot, every
 *   10th frame of the clip, the counted boxes — 18 people), one track per person;
 * - **tracker**: MoveNet's recorded people on every frame (workers/test-support/fixtures/
 *   vtest-detections.json), with their appearance taken from the frames when vtest.avi is at hand
 *   (as the tracking job does), through the ByteTracker and the offline step after it (finishTracks)
 *   at their current defaults and the tracking job's default rate (TRACKING_FPS.default), its tracks
 *   sampled on the same labelled frames;
 * - **tracker boxes, true identities**: the tracker's boxes on the labelled frames, each given the
 *   identity of the labelled person it overlaps (IoU ≥ 0.5). Where these agree with the truth and
 *   the tracker's own tracks do not, the tracker's identities are at fault, not the figures core.
 * The foot point is the bottom centre of the box through the calibration, as the API does it.
 * Dwell is checked twice: the visits' seconds (stays of at least FIGURE_DEFAULTS.minDwellSeconds) and
 * every second anyone spent inside (inside_seconds, walk-throughs included).
 */
const VIDEO_FPS = 10;
/** Every how many video frames the tracking job detects at its default rate. */
const STEP = Math.round(VIDEO_FPS / TRACKING_FPS.default);
const WINDOW = { from: 0, to: 79.5 };
/** The targets: dwell per zone within 10 % of the truth, visitors per minute within ±1. */
const DWELL_SHARE = 0.1;
const PER_MINUTE = 1;

interface Labelled {
  frame: number;
  id: number;
  box: Box;
}

const homography = homographyFromPoints(HALL_CALIBRATION.image_points, HALL_CALIBRATION.plan_points);

/** The hand-labelled boxes, frames as video frame indices; «consider» 0 (hidden, far, cut by the edge) marked. */
function labelled(): (Labelled & { counted: boolean })[] {
  const text = readFileSync(join(import.meta.dirname, '..', '..', 'workers', 'test-support', 'fixtures', 'vtest-tracks.mot'), 'utf8');
  return readMot(text).map((r) => ({ frame: r.frame - 1, id: r.id, box: r.box, counted: r.conf !== 0 }));
}

/** Boxes grouped by identity into plan tracks: the foot point (bottom centre) on the plan, seconds in the video. */
function planTracks(boxes: readonly Labelled[], prefix: string): PlanTrack[] {
  const byId = new Map<number, PlanTrack>();
  for (const b of boxes) {
    const plan = toPlan(homography, [(b.box.x1 + b.box.x2) / 2, b.box.y2]);
    if (!plan) continue;
    const track = byId.get(b.id) ?? { id: `${prefix}${b.id}`, camera_id: 1, points: [] };
    track.points.push({ t: b.frame / VIDEO_FPS, x: plan[0], y: plan[1] });
    byId.set(b.id, track);
  }
  return [...byId.values()];
}

/**
 * The tracker at its defaults over the recorded frames at the job's rate: its boxes. Each person
 * carries their appearance taken from the frame (vtest.avi itself), as the tracking job gives it.
 */
async function trackerBoxes(): Promise<Labelled[]> {
  const recorded = vtestDetections();
  const detections = await withAppearance(VTEST_AVI, recorded.frames, 768, 576, recorded.fps);
  const frame = { width: 768, height: 576 };
  const tracker = new ByteTracker({ fps: VIDEO_FPS / STEP, frameSize: frame });
  for (let f = 0; f < detections.length; f += STEP) tracker.update(f, f / VIDEO_FPS, detections[f]!);
  // The offline step after the tracker, as the tracking job runs it.
  const tracks = finishTracks(tracker.tracks(), TRACKER_DEFAULTS, { fps: VIDEO_FPS / STEP, videoFps: VIDEO_FPS, frame });
  return tracks.flatMap((t) => t.points.map((p) => ({ frame: p.frame, id: t.id, box: p.box })));
}

/**
 * The tracker's boxes given the identity of the labelled person each overlaps (IoU ≥ 0.5; counted or
 * not: a person half hidden behind the sign is still that person); the rest keep a number of their own.
 */
function withTrueIdentities(truth: readonly Labelled[], hyp: readonly Labelled[]): Labelled[] {
  const out: Labelled[] = [];
  for (const frame of new Set(hyp.map((h) => h.frame))) {
    const gt = truth.filter((b) => b.frame === frame);
    const mine = hyp.filter((b) => b.frame === frame);
    const { pairs, cols } = assignByIou(
      gt.map((b) => b.box),
      mine.map((b) => b.box),
      0.5,
    );
    for (const [r, c] of pairs) out.push({ ...mine[c]!, id: gt[r]!.id });
    for (const c of cols) out.push({ ...mine[c]!, id: 1000 + mine[c]!.id });
  }
  return out;
}

function hallZones(): FigureZone[] {
  return [
    ...HALL_STANDS.map((s, i) => ({
      id: `stand${i + 1}`,
      name: s.name,
      role: 'stand' as const,
      shape: { type: 'circle' as const, center: s.at, radius: STAND_ZONE_RADIUS },
    })),
    ...HALL_ZONES.map((z, i) => ({ id: `zone${i + 1}`, name: z.name, role: z.role, shape: z.shape! })),
  ];
}

const summary = (f: EventFigures) => ({
  visitors: f.visitors,
  perMinute: f.visitors_per_minute.map((m) => m.visitors),
  dwell: Object.fromEntries(
    f.dwell.map((d) => [d.name, { visits: d.visits, visitors: d.visitors, seconds: d.total_seconds, inside: d.inside_seconds, median: d.median_seconds }]),
  ),
  safeEntries: f.safe_zone_entries.map((s) => s.entries.length),
});

const allLabelled = labelled();
const truthBoxes = allLabelled.filter((b) => b.counted);
const frames = new Set(allLabelled.map((b) => b.frame));
const zones = hallZones();
const truth = computeFigures(planTracks(truthBoxes, 'gt'), zones, WINDOW);

describe('event figures of the hand-labelled identities on the demo hall', () => {
  it('18 people over two minutes, zones the people really stand in', () => {
    expect(frames.size).toBe(80);
    expect(truth.visitors).toBe(18);
    expect(truth.visitors_per_minute).toHaveLength(2);
    // Not a vacuous check: two zones with more than 10 s of visits, three with more than 10 s of anyone inside.
    expect(truth.dwell.filter((d) => d.total_seconds > 10).length).toBeGreaterThanOrEqual(2);
    expect(truth.dwell.filter((d) => d.inside_seconds > 10).length).toBeGreaterThanOrEqual(3);
  });
});

// The tracker as the job runs it needs the frames' pixels (appearance): without vtest.avi only the truth above is checked.
describe.skipIf(VTEST_MISSING)('event figures on vtest.avi from the tracker against the hand-labelled identities', () => {
  let tracker: EventFigures;
  let trueIds: EventFigures;

  beforeAll(async () => {
    const jobRate = await trackerBoxes();
    const hyp = jobRate.filter((b) => frames.has(b.frame));
    tracker = computeFigures(planTracks(hyp, 'tr'), zones, WINDOW);
    trueIds = computeFigures(planTracks(withTrueIdentities(allLabelled, hyp), 'id'), zones, WINDOW);
    // For the record only: the tracker's tracks at the job's rate, every point, as the tracking job stores them.
    const allPoints = computeFigures(planTracks(jobRate, 'tr'), zones, WINDOW);
    const report = {
      fps: VIDEO_FPS / STEP,
      truth: summary(truth),
      tracker: summary(tracker),
      trackerBoxesTrueIds: summary(trueIds),
      trackerAllPoints: summary(allPoints),
    };
    console.log(`Цифры против истины на vtest.avi: ${JSON.stringify(report)}`);
  });

  it('dwell per zone from the tracker is within 10 % of the truth: visits and all time inside', () => {
    for (const [i, zone] of zones.entries()) {
      for (const key of ['total_seconds', 'inside_seconds'] as const) {
        const want = truth.dwell[i]![key];
        const got = tracker.dwell[i]![key];
        expect(Math.abs(got - want), `${zone.name}, ${key}: трекер ${got} с, истина ${want} с`).toBeLessThanOrEqual(DWELL_SHARE * want);
        // The same with the tracker's boxes under the true identities: the core and the boxes, not the identities.
        const trueIdSeconds = trueIds.dwell[i]![key];
        expect(Math.abs(trueIdSeconds - want), `${zone.name}, ${key}: рамки трекера с номерами истины ${trueIdSeconds} с`).toBeLessThanOrEqual(
          DWELL_SHARE * want,
        );
      }
    }
  });

  it('visitors per minute within ±1 of the truth: from the tracker boxes under true identities and from the tracker', () => {
    const want = truth.visitors_per_minute.map((m) => m.visitors);
    const fromTrueIds = trueIds.visitors_per_minute.map((m) => m.visitors);
    for (const [k, v] of want.entries()) expect(Math.abs(fromTrueIds[k]! - v), `минута ${k + 1}`).toBeLessThanOrEqual(PER_MINUTE);
    const fromTracker = tracker.visitors_per_minute.map((m) => m.visitors);
    const worst = Math.max(...want.map((v, k) => Math.abs(fromTracker[k]! - v)));
    // The issue's ±1 (met since 29.11.2026 with the stricter re-identification and the offline
    // step: 16 and 9 for 16 and 9; before, 14 in the first minute).
    expect(worst).toBeLessThanOrEqual(PER_MINUTE);
  });
});
