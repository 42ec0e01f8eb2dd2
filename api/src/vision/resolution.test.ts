import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { mediaTools } from '@norma/workers/media';
import { applyOperationModel, argmaxRows, evaluateLabels, stepLabels } from '@norma/workers/vision';
import { describe, expect, it } from 'vitest';
import { startWorkers } from '../job-registry';
import { demoCameraDays, peopleSpans, demoCameraDaysSuite, trainedDemoModel } from '../../test-support/demo-camera-days';

/**
 * Issue 43: a model applies to its camera at any resolution and aspect ratio. A model trained (the
 * real job) on day 1 of the demo's camera 1 labels day 2 re-encoded at 1280 and 320 pixels wide with
 * F1 ≥ 0.9 per operation; the picture check (before applying, and in the applying job's result)
 * warns about a 4:3 cut and a 10 % crop and says nothing for the camera's own picture at any size.
 */
const VIDEO_SECONDS = 300;
const run = promisify(execFile);
const demo = demoCameraDaysSuite(VIDEO_SECONDS);

describe('a model at another resolution and aspect ratio of its camera', () => {
  it('keeps F1 ≥ 0.9 at 1280 and 320 pixels wide and warns about another aspect ratio or view', async () => {
    const { db, storage } = demo.t.deps;
    const days = await demoCameraDays(demo.t);
    const { camera, dayOne, dayTwo, operations } = days;

    // Areas keep the frame they were drawn on; one drawn on a 1280-wide frame lands where its 640-wide twin does.
    const areas = (await demo.call('GET', `/api/v1/video-areas?video_id=${dayOne.id}`)).body.video_areas as {
      id: number;
      frame_width: number;
      frame_height: number;
    }[];
    expect(areas.every((a) => a.frame_width === 640 && a.frame_height === 360)).toBe(true);
    const outside = await demo.call('POST', '/api/v1/video-area', {
      camera_id: camera.id,
      name: 'За кадром',
      x1: 10,
      y1: 10,
      x2: 700,
      y2: 100,
      frame_width: 640,
      frame_height: 360,
    });
    expect(outside.status).toBe(400);
    expect(outside.body.error.message).toContain('выходит за кадр');

    const { model, spec, onnx } = await trainedDemoModel(demo.t, demo.call, days, {
      areaIds: areas.map((a) => a.id),
      endSecond: VIDEO_SECONDS,
      comment: 'разрешение',
    });
    expect(spec.source).toEqual({ width: 640, height: 360 });
    expect(spec.view?.gradient.length).toBe(spec.view!.width * spec.view!.height);
    expect(model.report).toContain('Кадр обучения: 640×360');

    // Day 2 re-encoded: other resolutions, a 4:3 cut, a 10 % crop (the view moved), registered as videos of the camera.
    const { ffmpeg } = await mediaTools();
    const original = await storage.local(dayTwo.storage_key);
    const variants = {
      wide: { filter: 'scale=1280:720', size: [1280, 720] },
      small: { filter: 'scale=320:180', size: [320, 180] },
      cut: { filter: 'crop=480:360:80:0', size: [480, 360] },
      cropped: { filter: 'crop=576:324:64:36,scale=640:360', size: [640, 360] },
    } as const;
    const ids: Record<string, number> = {};
    for (const [name, v] of Object.entries(variants)) {
      const file = join(demo.scratch, `${name}.mp4`);
      await run(ffmpeg, ['-y', '-loglevel', 'error', '-i', original, '-vf', v.filter, '-c:v', 'libx264', '-preset', 'veryfast', '-an', file]);
      const key = `recordings/resolution/${name}.mp4`;
      await storage.put(key, readFileSync(file));
      const row = await db
        .insertInto('videos')
        .values({
          camera_id: camera.id,
          filename: `day2_${name}.mp4`,
          storage_key: key,
          content_hash: null,
          size_bytes: null,
          start_time: dayTwo.start_time,
          duration: VIDEO_SECONDS,
          status: 'ready',
          comment: '',
          created_at: Date.now(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      ids[name] = row.id;
    }

    // The check before applying: the camera's own picture at any size — no warning; another aspect ratio or view — a warning.
    const check = async (videoId: number) => {
      const reply = await demo.call('GET', `/api/v1/model/${model.id}/picture-check?video_id=${videoId}`);
      expect(reply.status).toBe(200);
      return reply.body as { warnings: string[]; aspect_change: number; view_similarity: number };
    };
    for (const id of [dayOne.id, dayTwo.id, ids.wide!, ids.small!]) {
      const own = await check(id);
      expect(own.warnings, `video ${id}`).toEqual([]);
      expect(own.aspect_change).toBeLessThan(0.01);
    }
    const cut = await check(ids.cut!);
    expect(cut.warnings.join(' ')).toContain('Соотношение сторон кадра другое');
    const cropped = await check(ids.cropped!);
    expect(cropped.aspect_change).toBeLessThan(0.01);
    expect(cropped.warnings.join(' ')).toContain('Вид камеры не совпадает');
    expect((await demo.call('GET', `/api/v1/model/${model.id}/picture-check?video_id=999999`)).status).toBe(404);

    // The applying job's result carries the same warnings.
    const applied = await demo.call('POST', '/api/v1/start_marker_applying', {
      model_id: model.id,
      unmarked_video_id: ids.cut,
      start_second: 0,
      end_second: 60,
    });
    expect(applied.status).toBe(200);
    const runner = startWorkers(demo.t.deps, { pollMs: 50 });
    await runner.drain();
    await runner.stop();
    const applyJob = await db.selectFrom('jobs').selectAll().where('id', '=', applied.body.job_id).executeTakeFirstOrThrow();
    expect(applyJob.status).toBe('success');
    expect(JSON.parse(applyJob.result!).picture_warnings.join(' ')).toContain('Соотношение сторон кадра другое');

    // F1 per operation on day 2 at 1280 and 320 wide (the stored model, applied as the job applies it).
    const spans = (await peopleSpans(demo.t, days, dayTwo, VIDEO_SECONDS))
      .filter((m) => operations.some((o) => o.id === m.operationId))
      .map((m) => ({
        classIndex: 1 + operations.findIndex((o) => o.id === m.operationId),
        startSecond: m.startSecond,
        endSecond: m.endSecond,
      }));
    for (const name of ['wide', 'small'] as const) {
      const [width, height] = variants[name].size;
      const out = await applyOperationModel({
        video: { file: await storage.local(`recordings/resolution/${name}.mp4`), width, height },
        startSecond: 0,
        endSecond: VIDEO_SECONDS,
        onnx,
        spec,
      });
      const classes = spec.classes.length;
      const evaluation = evaluateLabels(stepLabels(out.steps, 0, spec.fps, spans), argmaxRows(out.probabilities, classes), classes);
      console.log(`resolution ${width} px F1: ${operations.map((o, i) => `«${o.name}» ${evaluation.perClass[i + 1]!.f1.toFixed(3)}`).join(', ')}`);
      operations.forEach((o, i) => {
        expect(evaluation.perClass[i + 1]!.support, `steps of «${o.name}» at ${width}`).toBeGreaterThan(0);
        expect(evaluation.perClass[i + 1]!.f1, `F1 of «${o.name}» at ${width} px wide`).toBeGreaterThanOrEqual(0.9);
      });
    }
  });
});
