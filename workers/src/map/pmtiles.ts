import { gzipSync } from 'node:zlib';

/**
 * A small PMTiles v3 writer (the format is public: github.com/protomaps/PMTiles/blob/main/spec/v3/spec.md).
 * No registry package writes PMTiles; the `pmtiles` package reads what this writes (workers tests).
 * Tiles are addressed by Hilbert tile id; the root directory (gzip) sits right after the 127-byte
 * header and must fit the first 16 KiB with it, else entries go to leaf directories.
 */

export interface PmTile {
  z: number;
  x: number;
  y: number;
  /** The tile's bytes as they will be served (already compressed if tileCompression says so). */
  data: Uint8Array;
}

export interface PmHeaderInfo {
  minZoom: number;
  maxZoom: number;
  bounds: [number, number, number, number];
  center: [number, number, number];
  /** 1 none, 2 gzip. */
  tileCompression: 1 | 2;
  /** 1 mvt, 2 png, 3 jpeg, 4 webp. */
  tileType: 1 | 2 | 3 | 4;
  metadata: Record<string, unknown>;
}

/** The Hilbert tile id of z/x/y (spec §"Tile IDs"). */
export function zxyToTileId(z: number, x: number, y: number): number {
  let acc = 0;
  for (let t = 0; t < z; t++) acc += 4 ** t;
  const n = 2 ** z;
  let d = 0;
  let tx = x;
  let ty = y;
  for (let s = n / 2; s >= 1; s /= 2) {
    const rx = (tx & s) > 0 ? 1 : 0;
    const ry = (ty & s) > 0 ? 1 : 0;
    d += s * s * ((3 * rx) ^ ry);
    if (ry === 0) {
      if (rx === 1) {
        tx = s - 1 - tx;
        ty = s - 1 - ty;
      }
      [tx, ty] = [ty, tx];
    }
  }
  return acc + d;
}

interface Entry {
  tileId: number;
  offset: number;
  length: number;
  runLength: number;
}

function varint(out: number[], value: number) {
  let v = value;
  while (v >= 0x80) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
}

function serializeDirectory(entries: Entry[]): Uint8Array {
  const out: number[] = [];
  varint(out, entries.length);
  let last = 0;
  for (const e of entries) {
    varint(out, e.tileId - last);
    last = e.tileId;
  }
  for (const e of entries) varint(out, e.runLength);
  for (const e of entries) varint(out, e.length);
  entries.forEach((e, i) => varint(out, i > 0 && e.offset === entries[i - 1].offset + entries[i - 1].length ? 0 : e.offset + 1));
  return gzipSync(Uint8Array.from(out));
}

const ROOT_LIMIT = 16_384 - 127;

export function writePmtiles(tiles: PmTile[], info: PmHeaderInfo): Uint8Array {
  const sorted = tiles.map((t) => ({ ...t, id: zxyToTileId(t.z, t.x, t.y) })).sort((a, b) => a.id - b.id);
  // Identical tiles (open sea, empty land) are stored once; runs of equal consecutive ids share an entry.
  const byContent = new Map<string, { offset: number; length: number }>();
  const chunks: Uint8Array[] = [];
  let dataLength = 0;
  const entries: Entry[] = [];
  for (const tile of sorted) {
    const key = Buffer.from(tile.data).toString('base64');
    let place = byContent.get(key);
    if (!place) {
      place = { offset: dataLength, length: tile.data.byteLength };
      byContent.set(key, place);
      chunks.push(tile.data);
      dataLength += tile.data.byteLength;
    }
    const prev = entries[entries.length - 1];
    if (prev && prev.offset === place.offset && prev.tileId + prev.runLength === tile.id) prev.runLength += 1;
    else entries.push({ tileId: tile.id, offset: place.offset, length: place.length, runLength: 1 });
  }

  let root = serializeDirectory(entries);
  let leaves: Uint8Array = new Uint8Array(0);
  if (root.byteLength > ROOT_LIMIT) {
    for (let leafSize = 4096; ; leafSize *= 2) {
      const rootEntries: Entry[] = [];
      const leafChunks: Uint8Array[] = [];
      let leafOffset = 0;
      for (let i = 0; i < entries.length; i += leafSize) {
        const leaf = serializeDirectory(entries.slice(i, i + leafSize));
        rootEntries.push({ tileId: entries[i].tileId, offset: leafOffset, length: leaf.byteLength, runLength: 0 });
        leafChunks.push(leaf);
        leafOffset += leaf.byteLength;
      }
      root = serializeDirectory(rootEntries);
      if (root.byteLength <= ROOT_LIMIT) {
        leaves = concat(leafChunks);
        break;
      }
    }
  }
  const metadata = gzipSync(new TextEncoder().encode(JSON.stringify(info.metadata)));
  const rootOffset = 127;
  const metadataOffset = rootOffset + root.byteLength;
  const leafOffset = metadataOffset + metadata.byteLength;
  const dataOffset = leafOffset + leaves.byteLength;

  const header = new ArrayBuffer(127);
  const view = new DataView(header);
  new Uint8Array(header).set(new TextEncoder().encode('PMTiles'), 0);
  view.setUint8(7, 3);
  const u64 = (at: number, value: number) => view.setBigUint64(at, BigInt(value), true);
  u64(8, rootOffset);
  u64(16, root.byteLength);
  u64(24, metadataOffset);
  u64(32, metadata.byteLength);
  u64(40, leafOffset);
  u64(48, leaves.byteLength);
  u64(56, dataOffset);
  u64(64, dataLength);
  u64(72, sorted.length);
  u64(80, entries.length);
  u64(88, chunks.length);
  view.setUint8(96, 1); // clustered: tile data is in tile id order
  view.setUint8(97, 2); // internal compression gzip
  view.setUint8(98, info.tileCompression);
  view.setUint8(99, info.tileType);
  view.setUint8(100, info.minZoom);
  view.setUint8(101, info.maxZoom);
  const e7 = (at: number, deg: number) => view.setInt32(at, Math.round(deg * 1e7), true);
  e7(102, info.bounds[0]);
  e7(106, info.bounds[1]);
  e7(110, info.bounds[2]);
  e7(114, info.bounds[3]);
  view.setUint8(118, info.center[2]);
  e7(119, info.center[0]);
  e7(123, info.center[1]);
  return concat([new Uint8Array(header), root, metadata, leaves, ...chunks]);
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}
