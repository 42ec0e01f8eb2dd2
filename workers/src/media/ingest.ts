import { mkdir, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { inputArguments, NotAVideoError, UnsupportedContainerError, withoutPath, type Container } from './container';
import { mediaTools, probe, type ProbeResult } from './ffmpeg';
import { checkBounds, conversionNiceness, decodeCaps, MediaRefusedError, mediaLimits } from './limits';
import { mp4Layout, type Mp4Layout } from './mp4-layout';
import { spawnCapped } from './process';
import { referenceStepEncoding, referenceStepFor } from './reference-frames';

export { mp4Layout, type Mp4Layout } from './mp4-layout';
export { checkIntegrity, type Integrity } from './integrity';
export { NotAVideoError, UnsupportedContainerError, ACCEPTED_CONTAINERS } from './container';
export { MediaRefusedError } from './limits';
export { referenceStepFor } from './reference-frames';

/** What it takes to make a recording play (and seek) in Chromium at once. */
export interface BrowserPlan {
  /** `none`: serve as is; `remux`: rewrite the container (index first), streams copied; `transcode`: re-encode. */
  action: 'none' | 'remux' | 'transcode';
  video: 'copy' | 'h264';
  audio: 'none' | 'copy' | 'aac';
  /**
   * How a rewrite lays the MP4 out: `faststart` — one index (`moov`) before the media; `fragmented` — a
   * small `moov`, a segment index (`sidx`) and the media in fragments of one keyframe interval, for a
   * recording whose one index would be more than INDEX_MAX_BYTES (docs/video-storage.md «Длинные записи»).
   */
  layout: 'faststart' | 'fragmented';
  /** Why the file cannot be served as it is, in Russian (empty for `none`). */
  reasons: string[];
}

/**
 * The most index a browser should read before a recording's first frame. An MP4's one `moov` holds
 * about 4 bytes a frame (sizes) plus 8 with B-frames (composition offsets): 8.4 MB for an 8-hour
 * 25 fps recording, which a tablet-class CPU took 2 s to fetch and parse (issue 47, cold open).
 */
export const INDEX_MAX_BYTES = 1024 * 1024;
/** Index bytes a frame of a written MP4 may take (sizes, composition offsets, keyframe and chunk tables), rounded up. */
const INDEX_BYTES_PER_FRAME = 16;

/** Whether a rewrite of this recording is laid out in fragments: its one index could pass INDEX_MAX_BYTES. */
function needsFragments(info: ProbeResult): boolean {
  return info.durationSeconds * (info.frameRate ?? 25) * INDEX_BYTES_PER_FRAME > INDEX_MAX_BYTES;
}

const megabytes = (bytes: number) => (bytes / 1024 / 1024).toFixed(1).replace('.', ',');

/** H.264 profiles Chromium decodes (8-bit 4:2:0). */
const PLAYABLE_PIXEL_FORMATS = new Set(['yuv420p', 'yuvj420p']);
const UNPLAYABLE_PROFILES = /high 10|4:2:2|4:4:4/i;

/**
 * Decides how to prepare a file for the browser: H.264 (8-bit 4:2:0) video, AAC or no audio, in an
 * MP4 whose index (`moov`) comes before the media.
 */
export function browserPlan(info: ProbeResult, layout: Pick<Mp4Layout, 'isoBmff' | 'moovFirst' | 'indexBytes' | 'fragmented' | 'segmentIndex'>): BrowserPlan {
  const reasons: string[] = [];
  let video: BrowserPlan['video'] = 'copy';
  if (info.videoCodec !== 'h264') {
    video = 'h264';
    reasons.push(`видео в кодеке ${info.videoCodec ?? 'неизвестном'}, а не H.264`);
  } else if ((info.pixelFormat && !PLAYABLE_PIXEL_FORMATS.has(info.pixelFormat)) || (info.videoProfile && UNPLAYABLE_PROFILES.test(info.videoProfile))) {
    video = 'h264';
    reasons.push(`H.264 в формате ${info.pixelFormat ?? ''} ${info.videoProfile ?? ''}, который браузер не воспроизводит`.replace(/\s+/g, ' '));
  }
  let audio: BrowserPlan['audio'] = 'none';
  if (info.audioCodec === 'aac') audio = 'copy';
  else if (info.audioCodec) {
    audio = 'aac';
    reasons.push(`звук в кодеке ${info.audioCodec}, а не AAC`);
  }
  const isMp4 = layout.isoBmff && /mp4|mov/.test(info.formatName);
  if (!isMp4) reasons.push(`контейнер ${info.formatName}, а не MP4`);
  else if (!layout.moovFirst) reasons.push('индекс (moov) в конце файла: браузер не может начать воспроизведение и перемотку сразу');
  else if (layout.indexBytes > INDEX_MAX_BYTES) reasons.push(`индекс (moov) ${megabytes(layout.indexBytes)} МБ: браузер читает его целиком до первого кадра`);
  else if (layout.fragmented && !layout.segmentIndex && needsFragments(info))
    reasons.push('фрагменты без индекса (sidx): перемотка длинной записи читала бы файл подряд');
  const action = video === 'h264' ? 'transcode' : reasons.length ? 'remux' : 'none';
  return { action, video, audio, layout: needsFragments(info) ? 'fragmented' : 'faststart', reasons };
}

export interface ConvertOptions {
  onProgress?: (percent: number) => void;
  signal?: AbortSignal;
}

/**
 * ffmpeg arguments that turn `input` (read as its detected container only) into a browser-ready MP4 at
 * `output` according to `plan`, never longer than `maxSeconds` whatever the file's packets say.
 */
export function convertArguments(
  plan: BrowserPlan,
  input: { path: string; container: Container },
  output: string,
  maxSeconds: number,
  referenceStep: number | null = null,
): string[] {
  const args = [
    '-hide_banner',
    '-loglevel',
    'error',
    '-nostats',
    '-nostdin',
    '-progress',
    'pipe:1',
    '-y',
    ...inputArguments(input.path, input.container),
    '-t',
    String(maxSeconds),
    '-map',
    '0:v:0',
    '-map',
    '0:a:0?',
    '-map_metadata',
    '0',
  ];
  if (plan.video === 'copy') args.push('-c:v', 'copy');
  // Even dimensions (4:2:0).
  else args.push(...h264Encoding(referenceStep), '-vf', 'scale=trunc(iw/2)*2:trunc(ih/2)*2');
  if (plan.audio === 'copy') args.push('-c:a', 'copy');
  else if (plan.audio === 'aac') args.push('-c:a', 'aac', '-b:a', '128k');
  // Fragments start at keyframes (every 2 s in what the ingest encodes); the segment index is written
  // at the start once the file is complete, as faststart moves `moov` there.
  const movflags = plan.layout === 'fragmented' ? '+frag_keyframe+empty_moov+default_base_moof+global_sidx' : '+faststart';
  args.push('-movflags', movflags, '-max_muxing_queue_size', '1024', '-f', 'mp4', `file:${output}`);
  return args;
}

/**
 * The H.264 ingest writes: x264 veryfast at CRF 23, 8-bit 4:2:0, a keyframe every 2 s so that seeking
 * anywhere is quick, and with a reference step the frames vision models sample kept references and
 * the rest unreferenced (reference-frames.ts).
 */
export function h264Encoding(referenceStep: number | null): string[] {
  return [
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-crf',
    '23',
    '-pix_fmt',
    'yuv420p',
    '-force_key_frames',
    'expr:gte(t,n_forced*2)',
    ...(referenceStep ? referenceStepEncoding(referenceStep) : []),
  ];
}

/** Seconds of output written so far, from one `-progress` block line (`out_time_us=…` or `out_time=…`). */
export function progressSeconds(line: string): number | null {
  const micro = /^out_time_(?:us|ms)=(\d+)$/.exec(line);
  if (micro) return Number(micro[1]) / 1e6;
  const clock = /^out_time=(-?)(\d+):(\d{2}):(\d{2}(?:\.\d+)?)$/.exec(line);
  if (clock) return clock[1] ? 0 : Number(clock[2]) * 3600 + Number(clock[3]) * 60 + Number(clock[4]);
  return null;
}

/**
 * Runs ffmpeg for the inspected recording's plan in a child process (the caller's event loop never
 * waits on it) under caps that fit the recording (limits.ts), reporting progress; writes to a
 * temporary name and renames on success. A cap that stopped it is a MediaRefusedError. Resolves with
 * the reference step the H.264 was encoded with (reference-frames.ts; null when the video was copied
 * or its frame rate allows none).
 */
export async function convertForBrowser(
  inspected: Pick<InspectResult, 'plan' | 'info'>,
  input: string,
  output: string,
  options: ConvertOptions = {},
): Promise<{ referenceStep: number | null }> {
  const { plan, info } = inspected;
  const referenceStep = plan.video === 'h264' ? referenceStepFor(info.frameRate) : null;
  const { ffmpeg } = await mediaTools();
  await mkdir(dirname(output), { recursive: true });
  const partial = `${output}.part`;
  const limits = mediaLimits();
  const caps = decodeCaps(info.durationSeconds, info, limits, conversionNiceness(info.durationSeconds, info));
  const child = spawnCapped(ffmpeg, convertArguments(plan, { path: input, container: info.container }, partial, limits.maxSeconds, referenceStep), caps);
  const abort = () => child.kill();
  options.signal?.addEventListener('abort', abort, { once: true });
  let lastPercent = -1;
  const readProgress = async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    for await (const chunk of child.stdout) {
      buffer += decoder.decode(chunk, { stream: true });
      let newline: number;
      while ((newline = buffer.indexOf('\n')) !== -1) {
        const line = buffer.slice(0, newline).trim();
        buffer = buffer.slice(newline + 1);
        const seconds = progressSeconds(line);
        let percent: number | null = null;
        if (seconds !== null && info.durationSeconds > 0) percent = Math.min(99.9, (seconds / info.durationSeconds) * 100);
        if (line === 'progress=end') percent = 100;
        if (percent !== null && Math.floor(percent) > lastPercent) {
          lastPercent = Math.floor(percent);
          options.onProgress?.(Math.round(percent * 10) / 10);
        }
      }
    }
  };
  try {
    const [, exit] = await Promise.all([readProgress(), child.finished]);
    if (options.signal?.aborted) throw new Error('Обработка остановлена');
    if (exit.overCap) throw new MediaRefusedError(`Запись не обработана: ${exit.overCap}`);
    if (exit.code !== 0)
      throw new Error(`ffmpeg завершился с кодом ${exit.code}: ${withoutPath(withoutPath(exit.stderr.trim().slice(-1500), input), partial)}`);
    await rename(partial, output);
    return { referenceStep };
  } catch (err) {
    await rm(partial, { force: true });
    throw err;
  } finally {
    options.signal?.removeEventListener('abort', abort);
  }
}

export interface InspectResult {
  info: ProbeResult;
  layout: Mp4Layout;
  plan: BrowserPlan;
}

/**
 * Probes a file and decides what the browser needs. Throws `NotAVideoError` when it is not a video
 * (`UnsupportedContainerError` when its bytes are no accepted container: nothing decoded it), and
 * `MediaRefusedError` when its header describes a recording outside the bounds (limits.ts).
 */
export async function inspectRecording(path: string): Promise<InspectResult> {
  let info: ProbeResult;
  try {
    info = await probe(path);
  } catch (err) {
    if (err instanceof UnsupportedContainerError || err instanceof MediaRefusedError) throw err;
    throw new NotAVideoError(`Файл не удалось прочитать как видео (ffprobe: ${withoutPath(shortReason(err), path)})`);
  }
  if (!info.videoCodec) throw new NotAVideoError('В файле нет видеодорожки');
  if (!(info.durationSeconds > 0)) throw new NotAVideoError('Не удалось определить длительность видео: файл повреждён или не дописан');
  checkBounds(info);
  const layout = await mp4Layout(path);
  return { info, layout, plan: browserPlan(info, layout) };
}

function shortReason(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  const last =
    text
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean)
      .pop() ?? text;
  return last.replace(/^.*?: /, '').slice(0, 300);
}
