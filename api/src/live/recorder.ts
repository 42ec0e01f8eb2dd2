import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, renameSync, rmSync, statSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { inspectRecording } from '@norma/workers/ingest';
import {
  segmentFromZero,
  segmentTracks,
  startRtspRecording,
  streamFailureReason,
  withoutCredentials,
  type ClosedSegment,
  type RtspRecording,
} from '@norma/workers/rtsp-record';
import type { Db } from '../db/database';
import type { ObjectStore } from '../storage/object-store';
import { localParts } from '../time-zone';
import { cameraWithContext, registerReadyRecording, registerRecording, type CameraContext } from '../video/registration.service';
import { folderKey, RECORDER_FOLDER } from '../video/sync';
import * as streams from './service';
import { labelClosedSegment, labelMissedSegments } from './live-labels';
import { sweepRetention } from './retention';
import { LEASE_MS } from './stream';

/**
 * The recorder (issue 45, docs/live-cameras.md): takes the enabled camera streams no other recorder
 * holds — a lease in `camera_streams`, claimed by one UPDATE and renewed every third of its length,
 * as a job's lock — and copies each stream with ffmpeg into closed segments that become ordinary
 * videos of the camera (registerRecording: ingest, markup, reports work on them unchanged).
 *
 * Start times: ffmpeg reports every half second how far into the stream it has written (`out_time`);
 * the wall clock of the stream's first frame is the smallest `now − out_time` seen (never earlier
 * than the truth: a frame cannot be written before it arrives), fixed when the first segment closes.
 * Each segment's start is that instant plus the segment's start on the stream's time line, so the
 * segments of one connection are contiguous by construction. A connection that ends (the stream
 * dropped, the camera went silent for `timeoutSeconds`) leaves a gap: from the end of the last
 * segment recorded to the first frame after reconnection. Reconnection backs off 1, 2, 4 … 30 s.
 */

export interface RecorderOptions {
  /** Names this recorder in the leases (default host, process and a random part). */
  recorderId?: string;
  /** Local folder for segments being written (each connection a folder of its own inside). */
  workDir: string;
  leaseMs?: number;
  /** How often free streams are looked for, ms (default 5000). */
  pollMs?: number;
  /** Reconnection back-off: first wait and the longest, ms (default 1000 and 8000: a camera back is recorded again within the issue's 15 s). */
  backoffMs?: { first: number; max: number };
  /** Seconds of silence after which a connection counts as lost (default 5). */
  timeoutSeconds?: number;
  log?: (line: string) => void;
}

export interface Recorder {
  recorderId: string;
  /** Cameras this recorder holds now. */
  held(): number[];
  /** Stops every recording (each closes its segment in progress and registers it) and gives the leases up. */
  stop(): Promise<void>;
}

interface Context {
  db: Db;
  storage: ObjectStore;
  id: string;
  leaseMs: number;
  backoff: { first: number; max: number };
  timeoutSeconds: number;
  workDir: string;
  log: (line: string) => void;
}

/** How often the recorder re-reads ffmpeg's list of closed segments, ms (a small file; part of the live labels' lag). */
const SEGMENT_LIST_MS = 250;

/** How often the stream's frame rate is measured again on a closed segment, ms (and on each connection's first one). */
const FRAME_RATE_EVERY_MS = 30_000;

/**
 * The shortest segment the frame rate is measured on, s. Frames / duration is off by up to a frame
 * over the span — up to 10 % on a connection's first segment, cut by the moment of connecting, of a
 * second or two (a 10 fps camera once read 10.87); over 3 s and more it is under 4 %.
 */
const FRAME_RATE_MIN_SECONDS = 3;

/** A pause that ends early when `wake` is called. */
function pause(ms: number): { done: Promise<void>; wake: () => void } {
  let wake = () => {};
  const done = new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    wake = () => {
      clearTimeout(timer);
      resolve();
    };
  });
  return { done, wake };
}

/** Waits for `condition` to hold (checked every 50 ms). */
async function until(condition: () => boolean) {
  while (!condition()) await Bun.sleep(50);
}

const pad = (n: number) => String(n).padStart(2, '0');

/** `cam1_2026-11-29_09-05-00` in the organisation's local time (the recording name rule of docs/video-storage.md). */
function segmentName(camera: CameraContext, start: number): string {
  const p = localParts(start, camera.time_zone);
  return `cam${camera.camera_key}_${p.year}-${pad(p.month)}-${pad(p.day)}_${pad(p.hour)}-${pad(p.minute)}-${pad(p.second)}`;
}

async function fileSha256(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of Bun.file(path).stream()) hash.update(chunk);
  return hash.digest('hex');
}

/** One camera held by this recorder: connects, records, registers segments, reconnects, until stopped or the lease is lost. */
class CameraSession {
  private stopping = false;
  private recording: RtspRecording | null = null;
  private wait: { wake: () => void } | null = null;
  private settings: streams.StreamRow;
  private sweptAt = 0;
  private frameRateAt = 0;
  /** The connection has had no segment long enough to measure its frame rate on yet (FRAME_RATE_MIN_SECONDS). */
  private frameRateDue = true;
  readonly finished: Promise<void>;

  constructor(
    private readonly ctx: Context,
    private readonly camera: CameraContext,
    row: streams.StreamRow,
  ) {
    this.settings = row;
    // A failure outside a connection (the database gone) ends the session; the lease then runs out and any recorder takes the camera again.
    this.finished = this.run().catch((err: unknown) => ctx.log(`камера ${camera.id}: запись остановлена: ${withoutCredentials(String(err))}`));
  }

  /** Ends the session: the recording closes its segment in progress, the lease is given up. */
  stop() {
    this.stopping = true;
    this.wait?.wake();
    void this.recording?.stop();
  }

  /** Renews the lease; a lost lease or a stream turned off ends the session, changed settings reconnect. */
  async renew() {
    const row = await streams.renewStream(this.ctx.db, this.camera.id, this.ctx.id, this.ctx.leaseMs).catch((err) => {
      this.ctx.log(`камера ${this.camera.id}: аренда не продлена: ${withoutCredentials(String(err))}`);
      return undefined;
    });
    if (row === undefined) return;
    if (row === null || row.enabled !== 1) {
      this.ctx.log(`камера ${this.camera.id}: ${row === null ? 'аренда потеряна' : 'поток выключен'}, запись остановлена`);
      this.stop();
      return;
    }
    const changed = row.url !== this.settings.url || row.segment_seconds !== this.settings.segment_seconds;
    this.settings = row;
    if (changed) void this.recording?.stop();
    // Live labels of segments closed under the camera's model whose job was not queued (a failure between storing and queuing).
    if (row.live_model_id !== null) {
      const queued = await labelMissedSegments(this.ctx.db, this.camera.id).catch((err: unknown) => {
        this.ctx.log(`камера ${this.camera.id}: живая разметка не поставлена: ${withoutCredentials(String(err))}`);
        return 0;
      });
      if (queued > 0) this.ctx.log(`камера ${this.camera.id}: поставлена живая разметка пропущенных отрезков: ${queued}`);
    }
    // Retention is applied by the camera's holder, at most once a minute.
    if (Date.now() - this.sweptAt >= 60_000) {
      this.sweptAt = Date.now();
      const removed = await sweepRetention(this.ctx, row).catch((err: unknown) => {
        this.ctx.log(`камера ${this.camera.id}: срок хранения не применён: ${withoutCredentials(String(err))}`);
        return 0;
      });
      if (removed > 0) this.ctx.log(`камера ${this.camera.id}: по сроку хранения удалено записей: ${removed}`);
    }
  }

  private async run() {
    let failures = 0;
    while (!this.stopping) {
      await streams.setStreamHealth(this.ctx.db, this.camera.id, this.ctx.id, { state: 'connecting' });
      const outcome = await this.connection().catch((err: unknown) => ({ frames: false, message: withoutCredentials(String(err)) }));
      if (this.stopping) break;
      failures = outcome.frames ? 0 : failures + 1;
      const wait = Math.min(this.ctx.backoff.max, this.ctx.backoff.first * 2 ** Math.max(0, failures - 1));
      // Why, in Russian, as the stream check says it (a refused login, no answer, no such path): shown with the camera's state.
      const lastError = outcome.message ? streamFailureReason(outcome.message, false) : null;
      await streams.setStreamHealth(this.ctx.db, this.camera.id, this.ctx.id, { state: 'offline', lastError, connectedAt: null });
      this.ctx.log(`камера ${this.camera.id}: соединение окончено${outcome.message ? ` (${outcome.message.split('\n').pop()})` : ''}, повтор через ${wait} мс`);
      const p = pause(wait);
      this.wait = p;
      await p.done;
      this.wait = null;
    }
    // A lease not given back runs out by itself (LEASE_MS); say so rather than stay silent.
    await streams.releaseStream(this.ctx.db, this.camera.id, this.ctx.id).catch((err: unknown) => {
      this.ctx.log(`камера ${this.camera.id}: аренда не отдана, истечёт сама: ${withoutCredentials(String(err))}`);
    });
  }

  /** One connection to the stream, to its end; whether any frame came, and ffmpeg's last words. */
  private async connection(): Promise<{ frames: boolean; message: string }> {
    const dir = mkdtempSync(join(this.ctx.workDir, `cam${this.camera.id}-`));
    let anchor = Number.POSITIVE_INFINITY;
    let fixed: number | null = null;
    let healthAt = 0;
    let frames = false;
    const onProgress = (outTime: number, wallMs: number) => {
      if (outTime <= 0) return;
      // The connection's first frame: health.ts counts «behind» from here, not from a segment before an outage.
      const connected = frames ? {} : { connectedAt: wallMs };
      frames = true;
      anchor = Math.min(anchor, wallMs - outTime * 1000);
      if (!connected.connectedAt && wallMs - healthAt < 2000) return;
      healthAt = wallMs;
      void streams
        .setStreamHealth(this.ctx.db, this.camera.id, this.ctx.id, {
          state: 'online',
          lastFrameAt: Math.round(anchor + outTime * 1000),
          lastError: null,
          ...connected,
        })
        .catch((err: unknown) => this.ctx.log(`камера ${this.camera.id}: состояние не записано: ${withoutCredentials(String(err))}`));
    };
    try {
      const recording = await startRtspRecording(
        { url: this.settings.url, dir, segmentSeconds: this.settings.segment_seconds, timeoutSeconds: this.ctx.timeoutSeconds },
        { onProgress },
      );
      this.recording = recording;
      if (this.stopping) void recording.stop();
      let done = false;
      let handled = 0;
      const exit = recording.finished.then((result) => {
        done = true;
        return result;
      });
      const takeClosed = async () => {
        const closed = recording.closedSegments();
        const seenAt = Date.now();
        for (; handled < closed.length; handled++) {
          if (fixed === null) fixed = Math.round(anchor);
          await this.store(dir, closed[handled]!, fixed, handled === 0, seenAt);
        }
      };
      try {
        while (!done) {
          // The segment list is re-read every SEGMENT_LIST_MS: a closed segment waits at most that long for its labels to be queued.
          await Promise.race([exit, Bun.sleep(SEGMENT_LIST_MS)]);
          await takeClosed();
        }
        await takeClosed();
      } catch (err) {
        // A segment that could not be stored (the database or the store failing) ends the connection: the recording stops cleanly first.
        await recording.stop();
        throw err;
      }
      const result = await exit;
      return { frames, message: result.code === 0 ? '' : result.message };
    } finally {
      this.recording = null;
      rmSync(dir, { recursive: true, force: true });
    }
  }

  /** A closed segment becomes a video of the camera, with its exact start; a gap before the first one of a connection is recorded. */
  private async store(dir: string, segment: ClosedSegment, anchor: number, first: boolean, closedAt: number) {
    const path = join(dir, segment.file);
    const end = anchor + Math.round(segment.end * 1000);
    // A connection's first segment begins at its first key frame, which may come a little after the
    // stream's time 0 (ffmpeg drops the frames before it): its start is where that frame lies.
    const tracks = await segmentTracks(path);
    const lead = Math.min(tracks.firstFrame, segment.end - segment.start);
    const start = anchor + Math.round((segment.start + lead) * 1000);
    if (first) {
      const previous = await streams.lastSegment(this.ctx.db, this.camera.id);
      if (previous && start - previous.end_time > 1000) {
        await streams.insertGap(this.ctx.db, { cameraId: this.camera.id, from: previous.end_time, to: start, reason: 'Поток прерывался: нет записи' });
      }
    }
    // The first segment of a connection: its frames moved to begin at the file's 0 (one copy per connection).
    let fromZero = lead === 0;
    if (!fromZero) {
      fromZero = await segmentFromZero(path, `${path}.zero.mp4`, { firstFrame: lead, audio: tracks.audio }).then(
        () => (renameSync(`${path}.zero.mp4`, path), true),
        (err: unknown) => (this.ctx.log(`камера ${this.camera.id}: первый отрезок не переписан от нуля: ${withoutCredentials(String(err))}`), false),
      );
    }
    const sizeBytes = statSync(path).size;
    const contentHash = await fileSha256(path);
    // The light path (docs/live-cameras.md «Один приём на отрезок»): one inspection of the closed segment;
    // browser-ready as ffmpeg wrote it (h264 in MP4, index first) — the video is ready at once, with no
    // ingest job (its probe, packet count and remux cost more than the recording itself). Anything else
    // (another codec, a file the inspection refuses) goes through the ordinary ingest job, which says why.
    const inspected = await inspectRecording(path).catch((err: unknown) => {
      this.ctx.log(`камера ${this.camera.id}: отрезок не проверен, его обработает обычный приём: ${withoutCredentials(String(err))}`);
      return null;
    });
    const ready = inspected?.plan.action === 'none' && fromZero ? inspected.info.durationSeconds : null;
    const filename = `${segmentName(this.camera, start)}.mp4`;
    // The recorder's own subfolder, which folder sync leaves alone (video/sync.ts RECORDER_FOLDER).
    const folder = [folderKey(this.camera.storage_folder), RECORDER_FOLDER].filter(Boolean).join('/');
    let key = `${folder}/${filename}`;
    for (let n = 2; await this.ctx.storage.exists(key); n++) key = `${folder}/${filename.replace(/\.mp4$/, `~${n}.mp4`)}`;
    // Under a dot-name first, then renamed: no half-copied file is ever seen by its name.
    const part = `${folder}/.${filename}.part`;
    await this.ctx.storage.put(part, Bun.file(path));
    await this.ctx.storage.move(part, key);
    const recording = {
      camera: this.camera,
      storageKey: key,
      filename: key.slice(key.lastIndexOf('/') + 1),
      contentHash,
      sizeBytes,
      startTime: start,
      startSource: 'file_name' as const,
      startConfirmed: true,
      authorId: null,
      activity: 'Записано с потока камеры',
    };
    const { videoId } =
      ready === null ? await registerRecording(this.ctx.db, recording) : await registerReadyRecording(this.ctx.db, { ...recording, durationSeconds: ready });
    await streams.insertSegment(this.ctx.db, { cameraId: this.camera.id, videoId, start, end, sizeBytes, closedAt });
    // Live labels first (the lag target): the camera's labelling job takes the segment (a failure here is retried by renew()).
    await labelClosedSegment(this.ctx.db, this.camera.id).catch((err: unknown) => {
      this.ctx.log(`камера ${this.camera.id}: живая разметка отрезка не поставлена: ${withoutCredentials(String(err))}`);
    });
    if (first) this.frameRateDue = true;
    await this.recordFrameRate(inspected?.info.frameRate ?? null, (end - start) / 1000);
    rmSync(path, { force: true });
  }

  /**
   * The stream's frame rate for the camera's health: frames / duration of a closed segment (ffprobe's
   * average rate of the file, from the segment's inspection), on a connection's first segment of at
   * least FRAME_RATE_MIN_SECONDS and then at most every FRAME_RATE_EVERY_MS. A segment without one
   * (its inspection failed) or a shorter one leaves the last one.
   */
  private async recordFrameRate(rate: number | null, seconds: number) {
    if (rate === null || seconds < FRAME_RATE_MIN_SECONDS) return;
    if (!this.frameRateDue && Date.now() - this.frameRateAt < FRAME_RATE_EVERY_MS) return;
    this.frameRateDue = false;
    this.frameRateAt = Date.now();
    await streams.recordFrameRate(this.ctx.db, this.camera.id, Math.round(rate * 100) / 100).catch((err: unknown) => {
      this.ctx.log(`камера ${this.camera.id}: частота кадров не записана: ${withoutCredentials(String(err))}`);
    });
  }
}

/** Starts a recorder: it takes free streams every `pollMs`, renews its leases, and records each camera it holds. */
export function startRecorder(deps: { db: Db; storage: ObjectStore }, options: RecorderOptions): Recorder {
  const ctx: Context = {
    db: deps.db,
    storage: deps.storage,
    id: options.recorderId ?? `recorder-${hostname()}-${process.pid}-${crypto.randomUUID().slice(0, 8)}`,
    leaseMs: options.leaseMs ?? LEASE_MS,
    backoff: options.backoffMs ?? { first: 1000, max: 8000 },
    timeoutSeconds: options.timeoutSeconds ?? 5,
    workDir: options.workDir,
    log: options.log ?? (() => {}),
  };
  mkdirSync(ctx.workDir, { recursive: true });
  const sessions = new Map<number, CameraSession>();
  let stopped = false;
  let wait: { wake: () => void } | null = null;

  const tick = async () => {
    for (const session of sessions.values()) await session.renew();
    for (const cameraId of await streams.claimableStreams(ctx.db, ctx.id)) {
      if (sessions.has(cameraId) || stopped) continue;
      const row = await streams.claimStream(ctx.db, cameraId, ctx.id, ctx.leaseMs);
      if (!row) continue;
      const camera = await cameraWithContext(ctx.db, cameraId);
      ctx.log(`камера ${cameraId}: взята в запись`);
      const session = new CameraSession(ctx, camera, row);
      sessions.set(cameraId, session);
      void session.finished.finally(() => sessions.delete(cameraId));
    }
  };
  const loop = (async () => {
    while (!stopped) {
      await tick().catch((err) => ctx.log(`ошибка регистратора: ${withoutCredentials(String(err))}`));
      const p = pause(Math.min(options.pollMs ?? 5000, ctx.leaseMs / 3));
      wait = p;
      await p.done;
    }
  })();

  return {
    recorderId: ctx.id,
    held: () => [...sessions.keys()],
    async stop() {
      stopped = true;
      wait?.wake();
      await loop;
      const all = [...sessions.values()];
      for (const session of all) session.stop();
      await Promise.all(all.map((s) => s.finished));
      await until(() => sessions.size === 0);
    },
  };
}
