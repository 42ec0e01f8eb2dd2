/** One top-level box ("atom") of an ISO base media file (MP4/MOV). */
export interface Mp4Box {
  type: string;
  offset: number;
  size: number;
}

export interface Mp4Layout {
  /** The file is an ISO BMFF file: its top-level boxes chain up to the end of the file. */
  isoBmff: boolean;
  boxes: Mp4Box[];
  /** `moov` (the index) comes before the first `mdat` (the media): the browser can start at once. */
  moovFirst: boolean;
  /** Bytes of the `moov` box (0 without one): what a browser reads and parses before the first frame. */
  indexBytes: number;
  /** The media comes in fragments (`moof` boxes) rather than one `mdat` indexed by `moov`. */
  fragmented: boolean;
  /** A segment index (`sidx`) says where each fragment starts: a seek goes straight to its fragment. */
  segmentIndex: boolean;
}

const PRINTABLE = /^[\x20-\x7e]{4}$/;

/**
 * Reads the top-level boxes of a file by their 8/16-byte headers only (a few reads, whatever the
 * size), to tell whether the index (`moov`) precedes the media (`mdat`) — "faststart".
 */
export async function mp4Layout(path: string): Promise<Mp4Layout> {
  const file = Bun.file(path);
  const total = file.size;
  const boxes: Mp4Box[] = [];
  let offset = 0;
  let isoBmff = total >= 8;
  while (offset < total && boxes.length < 10_000) {
    const header = new DataView(await file.slice(offset, offset + 16).arrayBuffer());
    if (header.byteLength < 8) {
      isoBmff = false;
      break;
    }
    let size = header.getUint32(0);
    const type = String.fromCharCode(header.getUint8(4), header.getUint8(5), header.getUint8(6), header.getUint8(7));
    if (size === 1) {
      if (header.byteLength < 16) {
        isoBmff = false;
        break;
      }
      size = Number(header.getBigUint64(8));
    } else if (size === 0) {
      size = total - offset;
    }
    if (!PRINTABLE.test(type) || size < 8 || offset + size > total) {
      isoBmff = false;
      break;
    }
    boxes.push({ type, offset, size });
    offset += size;
  }
  if (boxes[0] && !['ftyp', 'styp', 'moov', 'free', 'skip', 'wide', 'mdat'].includes(boxes[0].type)) isoBmff = false;
  const moov = boxes.findIndex((b) => b.type === 'moov');
  const mdat = boxes.findIndex((b) => b.type === 'mdat');
  return {
    isoBmff,
    boxes,
    moovFirst: moov !== -1 && (mdat === -1 || moov < mdat),
    indexBytes: moov === -1 ? 0 : boxes[moov]!.size,
    fragmented: boxes.some((b) => b.type === 'moof'),
    segmentIndex: boxes.some((b) => b.type === 'sidx'),
  };
}
