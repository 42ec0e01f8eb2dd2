import { detectContainer, inputArguments, withoutPath } from './container';
import { frameRateOf, mediaTools } from './ffmpeg';
import { hours, MediaRefusedError, mediaLimits, probeCaps } from './limits';
import { spawnCapped } from './process';

/** What reading a recording through shows beyond its header (issue 24: damaged recordings). */
export interface Integrity {
  /** Duration the container declares, seconds. */
  declaredSeconds: number;
  /** Duration of the video that can actually be read, seconds (the declared one when every frame is there). */
  readableSeconds: number;
  /** Why the recording is damaged, in Russian; null when it reads through whole. */
  damage: string | null;
}

/** Frames short of the declared count that still count as whole (rounding at the end of a recording). */
const tolerance = (declaredFrames: number) => Math.max(2, Math.ceil(declaredFrames * 0.005));

const seconds = (s: number) => `${s.toLocaleString('ru-RU', { maximumFractionDigits: 1 })} с`;

/**
 * Reads every packet of the video stream (`ffprobe -count_packets`: demuxing only, no decoding, so an
 * hour of recording is read in seconds) and compares the frames found with the frames the container
 * declares. A file cut short — an interrupted copy, a recorder that died — keeps its index, so the
 * header still promises the whole duration; the packets stop where the data does, and the demuxer
 * reports «partial file» or invalid data. Either makes the recording damaged, with the reason.
 * A file whose packets run longer than the bounds allow (a header that understates) is refused
 * (MediaRefusedError), and so is one whose reading outlasts its cap.
 */
export async function checkIntegrity(path: string, declaredSeconds: number): Promise<Integrity> {
  const container = await detectContainer(path);
  const { ffprobe } = await mediaTools();
  const args = ['-v', 'error', '-count_packets', '-select_streams', 'v:0', '-show_entries', 'stream=nb_frames,nb_read_packets,avg_frame_rate', '-of', 'json'];
  const child = spawnCapped(ffprobe, [...args, ...inputArguments(path, container)], probeCaps(declaredSeconds));
  const [stdout, { code, stderr, overCap }] = await Promise.all([new Response(child.stdout).text(), child.finished]);
  if (overCap) throw new MediaRefusedError(`Запись не проверена: ${overCap}`);
  if (code !== 0) return { declaredSeconds, readableSeconds: 0, damage: `Запись повреждена: файл не читается (${lastLine(withoutPath(stderr, path))})` };
  const stream = (JSON.parse(stdout) as { streams?: { nb_frames?: string; nb_read_packets?: string; avg_frame_rate?: string }[] }).streams?.[0];
  const declaredFrames = Number(stream?.nb_frames);
  const readFrames = Number(stream?.nb_read_packets);
  const frameRate = frameRateOf(stream?.avg_frame_rate);
  const readSeconds = frameRate ? readFrames / frameRate : Number.NaN;
  const { maxSeconds } = mediaLimits();
  if (readSeconds > maxSeconds) throw new MediaRefusedError(`Запись длиннее допустимой: в файле ${hours(readSeconds)} видео при пределе ${hours(maxSeconds)}`);
  const errors = stderr
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => /partial file|invalid data|corrupt|error while decoding|truncat/i.test(line));
  // MKV and some recorders declare no frame count: then only the demuxer's errors tell.
  const knowsFrames = Number.isFinite(declaredFrames) && declaredFrames > 0 && Number.isFinite(readFrames);
  const short = knowsFrames && declaredFrames - readFrames > tolerance(declaredFrames);
  const readableSeconds = short ? Math.round(declaredSeconds * (readFrames / declaredFrames) * 1000) / 1000 : declaredSeconds;
  if (short)
    return {
      declaredSeconds,
      readableSeconds,
      damage: `Запись повреждена: файл обрезан — заявлено ${seconds(declaredSeconds)}, читается ${seconds(readableSeconds)} (${readFrames} из ${declaredFrames} кадров)`,
    };
  if (errors.length > 0) return { declaredSeconds, readableSeconds, damage: `Запись повреждена: ошибки при чтении (${shorten(errors[0]!)})` };
  return { declaredSeconds, readableSeconds, damage: null };
}

const shorten = (line: string) => line.replace(/^\[[^\]]*\]\s*/, '').slice(0, 200);
const lastLine = (text: string) => shorten(text.trim().split('\n').pop() ?? 'ffprobe');
