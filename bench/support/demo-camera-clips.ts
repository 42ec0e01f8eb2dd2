import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderDemoClip } from '../../workers/src/media/demo-video';
import type { LabelSpan, VisionClass } from '../../workers/src/vision/pipeline';
import { defaultVideoCacheDir, demoClip, demoLeaves, planClips, planDays, type PlannedClip } from '../../api/src/seed/demo-plan';

/** The demo's assembly leaf, whose one-worker cameras 1 and 2 the vision benches train and test on. */
export const DEMO_LEAF_INDEX = 0;

/**
 * The demo scene's clips as the vision benches use them (vision-demo, vision-seeds): the leaf's
 * planned days and clips of `videoSeconds`, the classes of its work cycle, each clip drawn once into
 * a scratch folder (`fileOf`) and its work cycle as labelled spans (`spansOf`).
 */
export function demoCameraClips(videoSeconds: number, scratchPrefix: string) {
  const leaf = demoLeaves[DEMO_LEAF_INDEX]!;
  const days = planDays();
  const clips = planClips(videoSeconds);
  const work = mkdtempSync(join(tmpdir(), scratchPrefix));
  const classes: VisionClass[] = [{ operationId: null, name: 'Фон (прочее)' }, ...leaf.cycle.map((op, i) => ({ operationId: i + 1, name: op.name }))];

  async function fileOf(clip: PlannedClip): Promise<string> {
    const file = join(work, clip.filename);
    await renderDemoClip(demoClip(DEMO_LEAF_INDEX, clip, days), file, defaultVideoCacheDir());
    return file;
  }

  /** The cycle's operations of the clip's worker as labelled spans, seconds from the clip's start. */
  function spansOf(clip: PlannedClip): LabelSpan[] {
    return (days.get(`${leaf.slug}/${clip.dayIndex}/${clip.cameraKey - 1}`) ?? [])
      .filter((s) => s.operation.type === 'main')
      .map((s) => ({
        classIndex: leaf.cycle.indexOf(s.operation) + 1,
        startSecond: Math.max(0, (s.start - clip.startMs) / 1000),
        endSecond: Math.min(clip.durationSeconds, (s.end - clip.startMs) / 1000),
      }))
      .filter((s) => s.endSecond > s.startSecond);
  }

  /** The first clip of a camera's day. */
  const firstClip = (cameraKey: number, dayIndex: number) => clips.find((c) => c.cameraKey === cameraKey && c.dayIndex === dayIndex && c.clipIndex === 0)!;

  return { leaf, days, clips, work, classes, fileOf, spansOf, firstClip };
}
