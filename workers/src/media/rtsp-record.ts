import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { mediaTools, frameRateOf, runCapped } from './ffmpeg';
import { mediaLimits, probeCaps } from './limits';
import { spawnCapped } from './process';

/**
 * A camera's RTSP stream (issue 45, docs/live-cameras.md): checking it, and copying it into closed
 * segments. Every ffmpeg/ffprobe call here is pinned to the RTSP demuxer and to the protocols RTSP
 * needs (rtsp, rtp, udp, tcp, and tls for rtsps): no other URL, file or playlist is ever opened from
 * the address. The address carries the camera's credentials: nothing here writes it to a log, and
 * every message passes through `withoutCredentials` first.
 */

/** Longest stream address accepted, characters. */
export const MAX_STREAM_URL_LENGTH = 1024;

/** Why an address is not a camera stream (Russian), or null when it is one. */
export function streamUrlProblem(url: string): string | null {
  if (url.length > MAX_STREAM_URL_LENGTH) return `Адрес потока длиннее ${MAX_STREAM_URL_LENGTH} символов`;
  if (/\s/.test(url) || [...url].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f))
    return 'В адресе потока не может быть пробелов и управляющих символов';
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'Адрес потока не разобран: ожидается rtsp://адрес/путь';
  }
  if (parsed.protocol !== 'rtsp:' && parsed.protocol !== 'rtsps:') return 'Принимаются только адреса rtsp:// и rtsps://';
  if (!parsed.hostname) return 'В адресе потока не указан узел камеры';
  return null;
}

/** The address with its password replaced by `***` (`rtsp://user:***@host/path`): what may be shown or logged. */
export function maskStreamUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password === '') return url;
    parsed.password = '***';
    return parsed.toString();
  } catch {
    return withoutCredentials(url);
  }
}

/** Any `scheme://user:password@` inside a text (an ffmpeg message quotes the address) with the password masked. */
export function withoutCredentials(text: string): string {
  return text.replace(/([a-z][a-z0-9+.-]*:\/\/[^\s:/@]*):[^\s@/]*@/gi, '$1:***@');
}

/**
 * The address to store when a user sends `next`: the masked form of the stored address (the
 * password shown as `***`) keeps the stored password, so that a settings form sent back unchanged
 * does not wipe it.
 */
export function mergeMaskedPassword(next: string, stored: string | null): string {
  if (!stored) return next;
  try {
    const a = new URL(next);
    const b = new URL(stored);
    if (a.password !== '***' || b.password === '') return next;
    if (a.username !== b.username || a.host !== b.host) return next;
    a.password = b.password;
    return a.toString();
  } catch {
    return next;
  }
}

/** Protocols an RTSP session may open: the control connection, RTP over UDP or TCP, TLS for rtsps. */
const RTSP_PROTOCOLS = 'rtsp,rtsps,rtp,udp,tcp,tls';

/** Input options of an RTSP address, pinned to the RTSP demuxer; `timeoutSeconds`: a silent stream ends the process. */
export function rtspInput(url: string, timeoutSeconds: number): string[] {
  const problem = streamUrlProblem(url);
  if (problem) throw new Error(problem);
  return [
    '-protocol_whitelist',
    RTSP_PROTOCOLS,
    '-f',
    'rtsp',
    // Socket I/O timeout (µs): a camera that stops sending ends the process instead of holding it forever.
    '-timeout',
    String(Math.round(timeoutSeconds * 1e6)),
    // A bigger UDP receive buffer: a key frame arrives as a burst of packets.
    '-buffer_size',
    String(4 * 1024 * 1024),
    '-i',
    url,
  ];
}

export interface RecordArguments {
  url: string;
  /** Folder the segments and their list are written to (local). */
  dir: string;
  segmentSeconds: number;
  /** Seconds of silence after which ffmpeg gives the stream up (default 5). */
  timeoutSeconds?: number;
}

/** Name of the closed-segment list in the recording folder. */
export const SEGMENT_LIST = 'segments.csv';

/**
 * ffmpeg arguments that copy the stream's first video track (no re-encoding), with its first sound
 * track in AAC when it has one, into MP4 segments of
 * about `segmentSeconds` (cut at the key frame at or after each multiple), each written under a
 * dot-name (`.segment-000000.mp4`) and added to `segments.csv` only once it is closed. Progress
 * (`out_time_us`) goes to stdout every half second: it tells the wall clock of the stream's start.
 */
export function recordArguments(options: RecordArguments): string[] {
  return [
    '-hide_banner',
    '-nostats',
    '-loglevel',
    'warning',
    ...rtspInput(options.url, options.timeoutSeconds ?? 5),
    '-map',
    '0:v:0',
    // The camera's sound, when it has any: cameras send G.711 (which MP4 cannot hold) or AAC, and which
    // one is known only once connected — so it is encoded to AAC (the picture is copied).
    '-map',
    '0:a:0?',
    '-c:v',
    'copy',
    '-c:a',
    'aac',
    '-b:a',
    '64k',
    // Each segment's MP4 gets its own creation time (the moment it was opened), so that two segments
    // of a stream that repeats itself are never the same bytes.
    '-metadata',
    'creation_time=now',
    '-f',
    'segment',
    '-segment_time',
    String(options.segmentSeconds),
    '-segment_format',
    'mp4',
    // The index first (as the browser wants it): a closed segment is ready as it is — no remux by the
    // ingest job (api/src/live/recorder.ts registers it ready at once, docs/live-cameras.md).
    '-segment_format_options',
    'movflags=+faststart',
    '-reset_timestamps',
    '1',
    '-segment_list',
    join(options.dir, SEGMENT_LIST),
    '-segment_list_type',
    'csv',
    '-progress',
    'pipe:1',
    '-stats_period',
    '0.5',
    join(options.dir, '.segment-%06d.mp4'),
  ];
}

/** A closed segment: its file in the recording folder and its span on the stream's time line, seconds. */
export interface ClosedSegment {
  file: string;
  start: number;
  end: number;
}

/** The closed segments of a `segments.csv` (`name,start,end` a line); a line not yet complete is left for the next read. */
export function parseSegmentList(text: string): ClosedSegment[] {
  const segments: ClosedSegment[] = [];
  const lines = text.split('\n');
  // The last piece has no newline yet: ffmpeg may be writing it.
  for (const line of lines.slice(0, -1)) {
    const match = /^(\.segment-\d{6}\.mp4),(\d+(?:\.\d+)?),(\d+(?:\.\d+)?)\r?$/.exec(line);
    if (!match) continue;
    segments.push({ file: match[1]!, start: Number(match[2]), end: Number(match[3]) });
  }
  return segments;
}

/** The `out_time_us` values (seconds) of an ffmpeg `-progress` text; the remainder is an unfinished line. */
export function parseProgress(text: string): { outTimes: number[]; rest: string } {
  const lines = text.split('\n');
  const rest = lines.pop() ?? '';
  const outTimes: number[] = [];
  for (const line of lines) {
    const match = /^out_time_us=(\d+)\s*$/.exec(line);
    if (match) outTimes.push(Number(match[1]) / 1e6);
  }
  return { outTimes, rest };
}

export interface RecordingEvents {
  /** Called at each progress report: `outTime` (s on the stream's time line) and the wall clock it was read at, ms. */
  onProgress(outTime: number, wallMs: number): void;
}

export interface RtspRecording {
  /** Closed segments listed so far (the list re-read). */
  closedSegments(): ClosedSegment[];
  /** Ends the recording: ffmpeg is asked to stop (`q`), closing the segment in progress; killed if it does not within 10 s. */
  stop(): Promise<void>;
  /** The process's end: its code and the last of its messages (credentials masked). */
  finished: Promise<{ code: number; message: string }>;
}

/**
 * Starts ffmpeg copying the stream into `options.dir` (recordArguments). The process runs under an
 * address-space cap (prlimit) and no wall-time cap: it runs as long as the stream lasts.
 */
export async function startRtspRecording(options: RecordArguments, events: RecordingEvents): Promise<RtspRecording> {
  const { ffmpeg } = await mediaTools();
  const prlimit = Bun.which('prlimit');
  const memory = mediaLimits().memoryBaseBytes;
  const prefix = prlimit ? [prlimit, `--as=${memory}`, '--'] : [];
  const child = Bun.spawn([...prefix, ffmpeg, ...recordArguments(options)], {
    stdin: 'pipe',
    stdout: 'pipe',
    stderr: 'pipe',
    env: { ...process.env, MALLOC_ARENA_MAX: '2' },
  });
  void (async () => {
    const decoder = new TextDecoder();
    let rest = '';
    for await (const chunk of child.stdout) {
      const parsed = parseProgress(rest + decoder.decode(chunk, { stream: true }));
      rest = parsed.rest;
      const now = Date.now();
      for (const outTime of parsed.outTimes) events.onProgress(outTime, now);
    }
  })();
  const stderr = (async () => {
    let text = '';
    const decoder = new TextDecoder();
    for await (const chunk of child.stderr) text = (text + decoder.decode(chunk, { stream: true })).slice(-8192);
    return text;
  })();
  const finished = Promise.all([child.exited, stderr]).then(([code, text]) => ({ code, message: withoutCredentials(text.trim()).slice(-2000) }));
  const listFile = join(options.dir, SEGMENT_LIST);
  return {
    closedSegments: () => (existsSync(listFile) ? parseSegmentList(readFileSync(listFile, 'utf8')) : []),
    finished,
    async stop() {
      if (child.exitCode !== null) return;
      try {
        child.stdin.write('q');
        await child.stdin.end();
      } catch {
        // The process has just ended by itself.
      }
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await child.exited;
      clearTimeout(timer);
    },
  };
}

/** What a stream check found. */
export interface StreamInfo {
  codec: string;
  width: number;
  height: number;
  frameRate: number | null;
}

/** A check that failed, with the reason in Russian (unreachable, refused credentials, no video). */
export class StreamCheckError extends Error {}

/** The reason a failed ffprobe/ffmpeg on a stream gives, in Russian. */
export function streamFailureReason(stderr: string, timedOut: boolean): string {
  // A status code only where ffmpeg reports one («method DESCRIBE failed: 403 …», «Server returned 404 …»): its lines
  // also carry ports («127.0.0.1:40317»), addresses («[tls @ 0x5604031a2b40]») and times that hold the same digits.
  const status = (code: number) => new RegExp(`(?:failed:|returned)\\s+${code}\\b`, 'i').test(stderr);
  if (status(401) || /unauthorized|authorization failed/i.test(stderr)) return 'Камера отказала во входе: проверьте имя и пароль в адресе';
  if (status(403) || /forbidden/i.test(stderr)) return 'Камера запретила доступ к потоку (403)';
  if (status(404) || /not found/i.test(stderr)) return 'На камере нет потока по этому пути (404)';
  if (/connection refused/i.test(stderr)) return 'Камера недоступна: соединение отклонено';
  // rtsps:// to a port that speaks no TLS (or a camera refusing the handshake): ffmpeg's tls layer says so.
  if (/\btls\b|ssl|handshake|certificate/i.test(stderr))
    return 'Защищённое соединение (rtsps) не установлено: камера не отвечает по TLS на этом порту или отклонила соединение — проверьте порт или используйте rtsp://';
  if (timedOut || /timed out|timeout/i.test(stderr)) return 'Камера не ответила вовремя: проверьте адрес и сеть';
  if (/name or service not known|failed to resolve|could not resolve/i.test(stderr)) return 'Имя узла камеры не найдено';
  if (/invalid data|does not contain any stream|no video/i.test(stderr)) return 'По этому адресу нет видеопотока';
  return 'Поток не открылся: ' + (withoutCredentials(stderr.trim().split('\n').pop() ?? '').slice(0, 300) || 'причина неизвестна');
}

/** Runs a probe process on the stream with a hard wall time; its stdout, or a StreamCheckError. */
async function runOnStream(command: string, args: string[], wallSeconds: number): Promise<Uint8Array> {
  const child = spawnCapped(command, args, { wallSeconds, memoryBytes: mediaLimits().memoryBaseBytes, niceness: 0 });
  const [stdout, exit] = await Promise.all([new Response(child.stdout).bytes(), child.finished]);
  if (exit.code !== 0 || stdout.length === 0) throw new StreamCheckError(streamFailureReason(exit.stderr, exit.overCap !== null));
  return stdout;
}

/** Opens the stream with ffprobe (a hard limit of `wallSeconds`) and reads its video track. */
export async function checkStream(url: string, wallSeconds = 20): Promise<StreamInfo> {
  const { ffprobe } = await mediaTools();
  const out = await runOnStream(
    ffprobe,
    ['-v', 'error', '-print_format', 'json', '-show_streams', '-select_streams', 'v:0', ...rtspInput(url, Math.min(10, wallSeconds / 2))],
    wallSeconds,
  );
  const data = JSON.parse(new TextDecoder().decode(out)) as {
    streams?: { codec_type?: string; codec_name?: string; width?: number; height?: number; avg_frame_rate?: string; r_frame_rate?: string }[];
  };
  const video = data.streams?.find((s) => s.codec_type === 'video');
  if (!video?.codec_name || !video.width || !video.height) throw new StreamCheckError('По этому адресу нет видеопотока');
  return {
    codec: video.codec_name,
    width: video.width,
    height: video.height,
    frameRate: frameRateOf(video.avg_frame_rate) ?? frameRateOf(video.r_frame_rate),
  };
}

/** One frame of the stream as a JPEG (at most 1280 pixels wide), with a hard limit of `wallSeconds`. */
export async function streamSnapshot(url: string, wallSeconds = 20): Promise<Uint8Array> {
  const { ffmpeg } = await mediaTools();
  return runOnStream(
    ffmpeg,
    [
      '-hide_banner',
      '-loglevel',
      'error',
      ...rtspInput(url, Math.min(10, wallSeconds / 2)),
      '-map',
      '0:v:0',
      '-frames:v',
      '1',
      '-vf',
      "scale='min(1280,iw)':-2",
      '-f',
      'mjpeg',
      '-q:v',
      '5',
      'pipe:1',
    ],
    wallSeconds,
  );
}

/**
 * A connection's first segment copied (no re-encoding) so that its first frame — the first key frame,
 * at `tracks.firstFrame` s after the file's time 0 — lies at 0, as the ingest job's remux puts it,
 * with the index first: the video's start (that frame) is the player's 0. Writes `output`.
 * A segment with sound (`tracks.audio`) keeps it: the sound starts at the file's 0, before the first
 * picture, so the copy starts at that picture (`-ss`), dropping the sound before it — both tracks then
 * begin at 0. A segment without sound is copied as it is: ffmpeg starts it at its first packet, and
 * `-ss` there would shorten the picture's time line by the lead (measured: 4.0 s → 3.8 s, 40 frames).
 */
export async function segmentFromZero(path: string, output: string, tracks: SegmentTracks): Promise<void> {
  const { ffmpeg } = await mediaTools();
  const from = tracks.audio && tracks.firstFrame > 0 ? ['-ss', tracks.firstFrame.toFixed(6)] : [];
  const args = ['-hide_banner', '-loglevel', 'error', '-nostdin', '-y', '-protocol_whitelist', 'file', ...from, '-f', 'mov', '-i', `file:${path}`];
  const sound = tracks.audio ? ['-map', '0:a:0'] : [];
  // ffmpeg does not copy creation_time: set anew, so that two segments of a stream that repeats itself stay different bytes (as recordArguments).
  const out = ['-map', '0:v:0', ...sound, '-c', 'copy', '-metadata', 'creation_time=now', '-movflags', '+faststart', '-f', 'mp4', `file:${output}`];
  await runCapped(ffmpeg, [...args, ...out], probeCaps());
}

/** A closed segment's tracks: where its first frame lies (seconds on its own time line), and whether it has sound. */
export interface SegmentTracks {
  firstFrame: number;
  audio: boolean;
}

/**
 * Where a closed segment's first frame lies on its own time line: a connection's first segment starts
 * at the first key frame (ffmpeg drops the frames before it) while its span in the list starts at the
 * stream's time 0; and whether the segment has a sound track. Read with ffprobe pinned to the MP4
 * demuxer and local files.
 */
export async function segmentTracks(path: string): Promise<SegmentTracks> {
  const { ffprobe } = await mediaTools();
  const out = await runCapped(
    ffprobe,
    ['-v', 'error', '-protocol_whitelist', 'file', '-f', 'mov', '-show_entries', 'stream=codec_type,start_time', '-of', 'csv=p=0', `file:${path}`],
    probeCaps(),
  );
  const streams = out
    .trim()
    .split('\n')
    .map((line) => line.trim().split(','));
  const video = streams.find(([type]) => type === 'video');
  const value = Number(video?.[1]);
  return { firstFrame: Number.isFinite(value) && value > 0 ? value : 0, audio: streams.some(([type]) => type === 'audio') };
}
