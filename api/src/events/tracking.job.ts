import { probe } from '@norma/workers/media';
import { MediaRefusedError } from '@norma/workers/ingest';
import { appearanceOf, ByteTracker, finishTracks, scaleBox, TRACKER_DEFAULTS, type Track } from '@norma/workers/tracking';
import { decodeFrames, FrameDecodeError, MOVENET_COLUMNS, moveNetPeople, movenetInputSize, type PosedHuman, type Sampling } from '@norma/workers/vision';
import type { Db } from '../db/database';
import { PermanentJobError, type JobHandler } from '../jobs/runner';
import type { ObjectStore } from '../storage/object-store';
import type { MoveNetThread } from '../threads/movenet-threads';
import { videoSource } from '../vision/job-support';
import { commitTracking, trackingRun, type StoredTrack, type TrackingPayload, type TrackingSettingsValue } from './service';

/** Share of the progress bar the frames take; the rest is the commit. */
const FRAMES_SHARE = 97;
const round = (v: number, digits: number) => Math.round(v * 10 ** digits) / 10 ** digits;

/**
 * event_tracking (docs/event-analytics.md «Задача трекинга»): the video decoded once at the run's
 * sampling rate and MoveNet's input size (workers' decodeFrames: ffmpeg under the media caps, the
 * container pinned; in runs of a few seconds, decodeChunked), MoveNet multipose on every sampled
 * frame — on the server's MoveNet threads when this process has them (as GET /api/v1/humans),
 * else in place — the people with their appearance (colour histograms of the body, taken from the
 * same decoded frame) fed to the ByteTracker, the tracker's tracks joined offline over the whole
 * recording (finishTracks: tracklets of one person linked by time, reachable place and appearance),
 * and the tracks stored at the end together with the job's success (commitTracking). Nothing is written before that commit: a cancelled job leaves
 * the video's earlier tracking as it was, and a job taken back after its worker died runs again
 * from the first frame (no checkpoint: the tracker's state is the whole past, and a rerun of the
 * same frames gives the same tracks).
 */
export function trackingHandler(db: Db, storage: ObjectStore, movenet?: MoveNetThread): JobHandler {
  return {
    async run({ job, workerId, signal, progress }) {
      const payload = job.payload as TrackingPayload;
      const run = await trackingRun(db, payload.tracking_id);
      if (!run) throw new PermanentJobError('Трекинг удалён');
      const settings = JSON.parse(run.settings) as TrackingSettingsValue;
      const video = await videoSource(db, storage, run.video_id);
      const info = await probe(video.file);
      const videoFps = info.frameRate && info.frameRate > 0 ? info.frameRate : 25;
      const duration = video.duration ?? info.durationSeconds;
      // Never above the video's own rate: the fps filter would repeat frames.
      const fps = Math.min(settings.fps_sampled, videoFps);
      const source = { width: video.width, height: video.height };
      const input = movenetInputSize(video.width, video.height, settings.input_width);
      const lowScore = settings.thresholds.lowScore!;
      const detect = (rgb: Uint8Array): Promise<PosedHuman[]> =>
        movenet ? movenet.detectFrame({ rgb, input }, source, lowScore) : moveNetPeople(rgb, input, source, MOVENET_COLUMNS, lowScore);
      const tracker = new ByteTracker({ ...settings.thresholds, fps, frameSize: source });
      const expected = Math.max(1, Math.floor(duration * fps));
      const started = performance.now();
      let frames = 0;
      try {
        const sampling = { fps, width: input.width, height: input.height, pixelFormat: 'rgb24' as const, source: { ...source, frameRate: videoFps } };
        await decodeChunked(video.file, sampling, duration, signal, async (rgb, index) => {
          const time = index / fps;
          const people = await detect(rgb);
          // Each person's colours from the frame the detector saw (its boxes are in source pixels).
          const picture = { rgb, width: input.width, height: input.height };
          const detections = people.map((p) => ({ box: p.box, score: p.score, feature: appearanceOf(picture, scaleBox(p.box, source, input)) ?? undefined }));
          // The video's own frame shown at that moment: MOT frames count in it (n → n + 1).
          tracker.update(Math.round(time * videoFps), time, detections);
          frames++;
          progress(Math.min(FRAMES_SHARE, (frames / expected) * FRAMES_SHARE));
        });
      } catch (err) {
        if (signal.aborted) return null;
        if (err instanceof FrameDecodeError || err instanceof MediaRefusedError) throw new PermanentJobError(err.message);
        throw err;
      }
      if (signal.aborted) return null;
      // The offline step over the whole recording: tracklets of one person joined (and gaps filled when on).
      const tracks = finishTracks(tracker.tracks(), { ...TRACKER_DEFAULTS, ...settings.thresholds }, { fps, videoFps, frame: source }).map(stored);
      const workSeconds = (performance.now() - started) / 1000;
      const stats = {
        tracks: tracks.length,
        frames,
        seconds: round(duration, 2),
        work_seconds: round(workSeconds, 2),
        x_real_time: round(duration / Math.max(workSeconds, 1e-3), 2),
      };
      const result = { tracking_id: run.id, video_id: run.video_id, fps_sampled: fps, ...stats };
      const committed = await commitTracking(
        db,
        { id: job.id, workerId },
        { id: run.id, videoId: run.video_id },
        { videoFps, frameWidth: video.width, frameHeight: video.height, stats, tracks },
        result,
      );
      if (committed === 'gone') throw new PermanentJobError('Трекинг удалён: результат не записан');
      if (committed === 'cancelled') return null;
      progress(100);
      return result;
    },
  };
}

/**
 * Seconds of video per ffmpeg run. ffmpeg's time cap grows with the span it decodes (120 s + 4 × the
 * span for this picture; media/limits.ts); when MoveNet paced a decode of the whole video, a machine
 * loaded by other work (load average 20–30 on two cores, 29.11.2026) took 135 s of the 152 s cap of
 * 8 s at 10 fps, and test runs of the job failed. So each run decodes its few seconds into memory
 * first (at most 40 pictures of MoveNet's input size, about 53 MB at 768×576) and ends in well under
 * a second; MoveNet then works on them with no ffmpeg waiting. One ffmpeg start per 4 s of video
 * costs about 0.03 processor seconds per second of video (bench/event-tracking.bench.ts).
 */
const CHUNK_SECONDS = 4;

/**
 * The sampled frames of [0, duration) in runs of CHUNK_SECONDS (each run starts on the sampling
 * grid, so the frames are those of one run over the whole span), each to `onFrame` with its index
 * from the start of the video, after the run's decode has ended; a run's frame past its share
 * (ffmpeg's rounding at the end of a span) is left to the next run.
 */
export async function decodeChunked(
  file: string,
  sampling: Omit<Sampling, 'startSecond' | 'endSecond'>,
  duration: number,
  signal: AbortSignal | undefined,
  onFrame: (rgb: Uint8Array, index: number) => Promise<void>,
): Promise<number> {
  const perRun = Math.max(1, Math.round(CHUNK_SECONDS * sampling.fps));
  let count = 0;
  for (let first = 0; first / sampling.fps < duration; first += perRun) {
    if (signal?.aborted) break;
    const endSecond = Math.min(duration, (first + perRun) / sampling.fps);
    const pictures: Uint8Array[] = [];
    await decodeFrames(
      file,
      { ...sampling, startSecond: first / sampling.fps, endSecond },
      (rgb, index) => {
        if (index < perRun) pictures.push(rgb.slice());
      },
      signal,
    );
    for (const [index, rgb] of pictures.entries()) {
      if (signal?.aborted) break;
      count++;
      await onFrame(rgb, first + index);
    }
  }
  return count;
}

/** A tracker's track as stored: points [frame, time, x, y, w, h, score], pixels to 0.01, time to 1 ms. */
function stored(track: Track): StoredTrack {
  return {
    number: track.id,
    firstTime: round(track.firstTime, 3),
    lastTime: round(track.lastTime, 3),
    points: track.points.map((p) => [
      p.frame,
      round(p.time, 3),
      round(p.box.x1, 2),
      round(p.box.y1, 2),
      round(p.box.x2 - p.box.x1, 2),
      round(p.box.y2 - p.box.y1, 2),
      round(p.score, 3),
    ]),
  };
}
