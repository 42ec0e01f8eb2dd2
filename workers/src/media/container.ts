import { basename } from 'node:path';

/**
 * What container a recording is, told from its own bytes (DESIGN.md «Media safety»). Uploaded and
 * synced files are untrusted: ffmpeg left to guess would open an HLS playlist, a concat list or an
 * image sequence named `.mp4` and read whatever files or URLs it names — another organisation's
 * recordings, system files, loopback services. So the container is recognised here before any
 * decoder runs, only real media containers pass, and every ffprobe/ffmpeg call on such a file is
 * pinned to the demuxer found here and to the local-file protocol (`inputArguments`).
 */

/** ffmpeg demuxers of the containers accepted. */
export type Demuxer = 'mov' | 'matroska' | 'avi' | 'mpegts';

export interface Container {
  demuxer: Demuxer;
  /** What a person calls it, for messages. */
  label: string;
}

/** The accepted containers, as the messages and docs name them. */
export const ACCEPTED_CONTAINERS = 'MP4/MOV, MKV/WebM, AVI, MPEG-TS';

/** The file is not a readable video: retrying will not help. */
export class NotAVideoError extends Error {}

/** A file whose bytes are no accepted media container (a playlist, a list of files, a picture, text…). */
export class UnsupportedContainerError extends NotAVideoError {
  constructor() {
    super(
      `Файл не является видеозаписью в поддерживаемом формате (${ACCEPTED_CONTAINERS}): списки воспроизведения, списки файлов, изображения и ссылки не принимаются`,
    );
  }
}

/** Bytes read from the start of a file to recognise it: three MPEG-TS packets of 192 bytes, with room. */
export const SNIFF_BYTES = 1024;

const ascii = (bytes: Uint8Array, from: number, length: number) => String.fromCharCode(...bytes.subarray(from, from + length));

/** First-box types of an ISO base media file (MP4, MOV, 3GP): `ftyp`, or an old QuickTime file's first atom. */
const ISO_FIRST_BOXES = new Set(['ftyp', 'moov', 'mdat', 'free', 'skip', 'wide', 'pnot']);

/** MPEG-TS: the sync byte 0x47 at every packet start, 188-byte packets (or 192 with a timecode first: M2TS, AVCHD). */
function isTransportStream(head: Uint8Array): boolean {
  const syncedEvery = (offset: number, size: number) => {
    let packets = 0;
    for (let at = offset; at < head.length; at += size, packets++) if (head[at] !== 0x47) return false;
    return packets >= 3;
  };
  return syncedEvery(0, 188) || syncedEvery(4, 192);
}

/** The container of a file's first bytes (at most SNIFF_BYTES are looked at); null when it is none of the accepted ones. */
export function containerOf(head: Uint8Array): Container | null {
  if (head.length >= 12) {
    const boxSize = ((head[0]! << 24) | (head[1]! << 16) | (head[2]! << 8) | head[3]!) >>> 0;
    // A box size of 0 (to the end) or 1 (64-bit size follows) is legal; otherwise at least its own header.
    if ((boxSize === 0 || boxSize === 1 || boxSize >= 8) && ISO_FIRST_BOXES.has(ascii(head, 4, 4))) return { demuxer: 'mov', label: 'MP4/MOV' };
  }
  if (head.length >= 4 && head[0] === 0x1a && head[1] === 0x45 && head[2] === 0xdf && head[3] === 0xa3) return { demuxer: 'matroska', label: 'MKV/WebM' };
  if (head.length >= 12 && ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 4) === 'AVI ') return { demuxer: 'avi', label: 'AVI' };
  if (isTransportStream(head.subarray(0, Math.min(head.length, 192 * 5)))) return { demuxer: 'mpegts', label: 'MPEG-TS' };
  return null;
}

/** The container of a file on disk; throws UnsupportedContainerError when it is none of the accepted ones. */
export async function detectContainer(path: string): Promise<Container> {
  const head = new Uint8Array(await Bun.file(path).slice(0, SNIFF_BYTES).arrayBuffer());
  const container = containerOf(head);
  if (!container) throw new UnsupportedContainerError();
  return container;
}

/**
 * The input half of an ffprobe/ffmpeg command line for an untrusted file: only the `file` and `pipe`
 * protocols, the demuxer fixed (no probing of what the bytes might be), the path as a `file:` URL (a
 * name with `:` or `%d` is just a name) and, for MP4/MOV, no external data references.
 */
export function inputArguments(path: string, container: Container): string[] {
  const referencesOff = container.demuxer === 'mov' ? ['-enable_drefs', '0', '-use_absolute_path', '0'] : [];
  return ['-protocol_whitelist', 'file,pipe', '-f', container.demuxer, ...referencesOff, '-i', `file:${path}`];
}

/** A tool's message with the server's path of the file replaced by the file's own name: no server path reaches a user. */
export function withoutPath(text: string, path: string): string {
  return text.replaceAll(`file:${path}`, basename(path)).replaceAll(path, basename(path));
}
