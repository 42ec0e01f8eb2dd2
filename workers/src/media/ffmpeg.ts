import { existsSync } from 'node:fs';
import { detectContainer, inputArguments, type Container } from './container';
import { MediaRefusedError, probeCaps, type ProcessCaps } from './limits';
import { spawnCapped } from './process';

export interface MediaTools {
  ffmpeg: string;
  ffprobe: string;
}

let cached: MediaTools | null = null;

function onPath(name: string): string | null {
  return Bun.which(name);
}

/**
 * The system ffmpeg/ffprobe when present (Debian's has every codec we use), else the static
 * binaries shipped inside the @ffmpeg-installer / @ffprobe-installer npm packages, so a machine
 * without apt access can still ingest and generate video.
 */
export async function mediaTools(): Promise<MediaTools> {
  if (cached) return cached;
  let ffmpeg = onPath('ffmpeg');
  let ffprobe = onPath('ffprobe');
  if (!ffmpeg) {
    try {
      const mod = (await import('@ffmpeg-installer/ffmpeg' as string)) as { path: string };
      if (existsSync(mod.path)) ffmpeg = mod.path;
    } catch {}
  }
  if (!ffprobe) {
    try {
      const mod = (await import('@ffprobe-installer/ffprobe' as string)) as { path: string };
      if (existsSync(mod.path)) ffprobe = mod.path;
    } catch {}
  }
  if (!ffmpeg || !ffprobe) {
    throw new Error('Не найдены ffmpeg и ffprobe: установите пакет ffmpeg (apt-get install ffmpeg) или зависимости npm.');
  }
  cached = { ffmpeg, ffprobe };
  return cached;
}

/**
 * Runs a tool on trusted input (the demo's own generated video) and returns stdout; throws with stderr
 * on a non-zero exit. Untrusted files go through `runCapped` and `inputArguments` (container.ts).
 */
export async function run(command: string, args: string[]): Promise<string> {
  const child = Bun.spawn([command, ...args], { stdout: 'pipe', stderr: 'pipe' });
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  if (code !== 0) throw new Error(`${command.split('/').pop()} завершился с кодом ${code}: ${stderr.trim().slice(-2000)}`);
  return stdout;
}

/** Runs a tool under `caps` and returns stdout; a cap that stopped it is a MediaRefusedError, another failure an Error with stderr. */
export async function runCapped(command: string, args: string[], caps: ProcessCaps): Promise<string> {
  const child = spawnCapped(command, args, caps);
  const [stdout, exit] = await Promise.all([new Response(child.stdout).text(), child.finished]);
  if (exit.overCap) throw new MediaRefusedError(exit.overCap);
  if (exit.code !== 0) throw new Error(`${command.split('/').pop()} завершился с кодом ${exit.code}: ${exit.stderr.trim().slice(-2000)}`);
  return stdout;
}

export interface ProbeResult {
  durationSeconds: number;
  videoCodec: string | null;
  audioCodec: string | null;
  formatName: string;
  creationTime: string | null;
  width: number | null;
  height: number | null;
  /** Pixel format and profile of the video stream (yuv420p, High…): what a browser can decode. */
  pixelFormat: string | null;
  videoProfile: string | null;
  /** Frames a second of the video stream (average; the nominal rate when the average is unknown). */
  frameRate: number | null;
  /** The container, recognised from the file's bytes before ffprobe ran (container.ts). */
  container: Container;
}

/** `30000/1001` → 29.97; null for `0/0` and the like. */
export function frameRateOf(text: string | undefined): number | null {
  const [num, den] = (text ?? '').split('/').map(Number);
  const value = den ? num! / den : Number.NaN;
  return Number.isFinite(value) && value > 0 ? value : null;
}

/**
 * Reads a recording's header with ffprobe, pinned to the container its bytes show (a file that is no
 * accepted container throws UnsupportedContainerError before ffprobe starts).
 */
export async function probe(file: string): Promise<ProbeResult> {
  const container = await detectContainer(file);
  const { ffprobe } = await mediaTools();
  const out = await runCapped(
    ffprobe,
    ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', ...inputArguments(file, container)],
    probeCaps(),
  );
  const data = JSON.parse(out) as {
    format: { duration?: string; format_name: string; tags?: Record<string, string> };
    streams: {
      codec_type: string;
      codec_name: string;
      width?: number;
      height?: number;
      pix_fmt?: string;
      profile?: string;
      avg_frame_rate?: string;
      r_frame_rate?: string;
      duration?: string;
      disposition?: { attached_pic?: number };
      tags?: Record<string, string>;
    }[];
  };
  // A cover picture is a "video" stream too; the recording is the first real one.
  const video = data.streams.find((s) => s.codec_type === 'video' && !s.disposition?.attached_pic);
  const audio = data.streams.find((s) => s.codec_type === 'audio');
  const duration = Number(data.format.duration ?? video?.duration ?? 0);
  return {
    durationSeconds: Number.isFinite(duration) ? duration : 0,
    videoCodec: video?.codec_name ?? null,
    audioCodec: audio?.codec_name ?? null,
    formatName: data.format.format_name,
    creationTime: data.format.tags?.creation_time ?? video?.tags?.creation_time ?? null,
    width: video?.width ?? null,
    height: video?.height ?? null,
    pixelFormat: video?.pix_fmt ?? null,
    videoProfile: video?.profile ?? null,
    frameRate: frameRateOf(video?.avg_frame_rate) ?? frameRateOf(video?.r_frame_rate),
    container,
  };
}
