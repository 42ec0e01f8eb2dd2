import { deflateSync, inflateSync } from 'node:zlib';

/**
 * A minimal writer and reader of Apple's UDIF disk images (.dmg): the volume in chunks of 256 KiB,
 * each zlib-compressed (or marked as zeros), an XML property list with one `blkx` table ("mish")
 * of those chunks, and the 512-byte `koly` trailer — the layout of `hdiutil`'s UDZO images.
 */
const SECTOR = 512;
const CHUNK_SECTORS = 512;
const CHUNK_ZERO = 0x00000002;
const CHUNK_RAW = 0x00000001;
const CHUNK_ZLIB = 0x80000005;
const CHUNK_END = 0xffffffff;
const CHECKSUM_CRC32 = 2;

const crc32 = (data: Uint8Array) => Bun.hash.crc32(data) >>> 0;

interface Chunk {
  type: number;
  firstSector: number;
  sectors: number;
  offset: number;
  length: number;
}

function mishTable(sectorCount: number, chunks: Chunk[], dataChecksum: number): Uint8Array {
  const table = new Uint8Array(204 + 40 * (chunks.length + 1));
  const view = new DataView(table.buffer);
  view.setUint32(0, 0x6d697368); // "mish"
  view.setUint32(4, 1);
  view.setBigUint64(8, 0n); // first sector
  view.setBigUint64(16, BigInt(sectorCount));
  view.setBigUint64(24, 0n); // data start
  view.setUint32(32, CHUNK_SECTORS + 8); // sectors a reader needs to buffer one chunk
  view.setUint32(36, 0); // blocks descriptor
  view.setUint32(64, CHECKSUM_CRC32);
  view.setUint32(68, 32);
  view.setUint32(72, dataChecksum);
  view.setUint32(200, chunks.length + 1);
  const end = chunks.at(-1);
  const all = [...chunks, { type: CHUNK_END, firstSector: sectorCount, sectors: 0, offset: end ? end.offset + end.length : 0, length: 0 }];
  all.forEach((chunk, i) => {
    const at = 204 + 40 * i;
    view.setUint32(at, chunk.type);
    view.setBigUint64(at + 8, BigInt(chunk.firstSector));
    view.setBigUint64(at + 16, BigInt(chunk.sectors));
    view.setBigUint64(at + 24, BigInt(chunk.offset));
    view.setBigUint64(at + 32, BigInt(chunk.length));
  });
  return table;
}

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Wraps the raw image of a volume (an ISO 9660 file system here) into a compressed UDIF .dmg. */
export function udifImage(volume: Uint8Array, partitionName: string): Uint8Array {
  const padded = new Uint8Array(Math.ceil(volume.length / SECTOR) * SECTOR);
  padded.set(volume);
  const sectorCount = padded.length / SECTOR;
  const chunks: Chunk[] = [];
  const parts: Uint8Array[] = [];
  let offset = 0;
  for (let first = 0; first < sectorCount; first += CHUNK_SECTORS) {
    const sectors = Math.min(CHUNK_SECTORS, sectorCount - first);
    const plain = padded.subarray(first * SECTOR, (first + sectors) * SECTOR);
    if (plain.every((byte) => byte === 0)) {
      chunks.push({ type: CHUNK_ZERO, firstSector: first, sectors, offset, length: 0 });
      continue;
    }
    const packed = new Uint8Array(deflateSync(plain, { level: 9 }));
    const [type, bytes] = packed.length < plain.length ? [CHUNK_ZLIB, packed] : [CHUNK_RAW, plain];
    chunks.push({ type, firstSector: first, sectors, offset, length: bytes.length });
    parts.push(bytes);
    offset += bytes.length;
  }
  const data = new Uint8Array(offset);
  let at = 0;
  for (const part of parts) {
    data.set(part, at);
    at += part.length;
  }
  const dataChecksum = crc32(data);
  const mish = mishTable(sectorCount, chunks, dataChecksum);
  const name = escapeXml(partitionName);
  const plist = new TextEncoder().encode(
    `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
	<key>resource-fork</key>
	<dict>
		<key>blkx</key>
		<array>
			<dict>
				<key>Attributes</key>
				<string>0x0050</string>
				<key>CFName</key>
				<string>${name}</string>
				<key>Data</key>
				<data>${Buffer.from(mish).toString('base64')}</data>
				<key>ID</key>
				<string>-1</string>
				<key>Name</key>
				<string>${name}</string>
			</dict>
		</array>
	</dict>
</dict>
</plist>
`,
  );
  const koly = new Uint8Array(512);
  const view = new DataView(koly.buffer);
  view.setUint32(0, 0x6b6f6c79); // "koly"
  view.setUint32(4, 4);
  view.setUint32(8, 512);
  view.setUint32(12, 1); // flattened
  view.setBigUint64(16, 0n);
  view.setBigUint64(24, 0n); // data fork at the start
  view.setBigUint64(32, BigInt(data.length));
  view.setBigUint64(40, 0n);
  view.setBigUint64(48, 0n);
  view.setUint32(56, 1);
  view.setUint32(60, 1);
  koly.set(crypto.getRandomValues(new Uint8Array(16)), 64);
  view.setUint32(80, CHECKSUM_CRC32);
  view.setUint32(84, 32);
  view.setUint32(88, dataChecksum);
  view.setBigUint64(216, BigInt(data.length)); // XML right after the data
  view.setBigUint64(224, BigInt(plist.length));
  // The master checksum: CRC32 over every blkx table's checksum, big-endian.
  const checksums = new Uint8Array(4);
  new DataView(checksums.buffer).setUint32(0, dataChecksum);
  view.setUint32(352, CHECKSUM_CRC32);
  view.setUint32(356, 32);
  view.setUint32(360, crc32(checksums));
  view.setUint32(488, 1); // device image
  view.setBigUint64(492, BigInt(sectorCount));
  const image = new Uint8Array(data.length + plist.length + koly.length);
  image.set(data, 0);
  image.set(plist, data.length);
  image.set(koly, data.length + plist.length);
  return image;
}

export interface UdifContents {
  version: number;
  sectorCount: number;
  partitionName: string;
  /** The volume, put back together from the chunk table. */
  volume: Uint8Array;
  dataChecksumOk: boolean;
}

/**
 * Reads a UDIF image with raw, zero and zlib chunks, checking its structure; throws if it is not one.
 * @internal for the tests, which read back what the build writes.
 */
export function readUdif(image: Uint8Array): UdifContents {
  if (image.length < 1024) throw new Error('слишком короткий файл для UDIF');
  const koly = new DataView(image.buffer, image.byteOffset + image.length - 512, 512);
  if (koly.getUint32(0) !== 0x6b6f6c79) throw new Error('нет подписи koly в конце файла');
  if (koly.getUint32(8) !== 512) throw new Error('неверный размер заголовка koly');
  const dataLength = Number(koly.getBigUint64(32));
  const xmlOffset = Number(koly.getBigUint64(216));
  const xmlLength = Number(koly.getBigUint64(224));
  const sectorCount = Number(koly.getBigUint64(492));
  if (xmlOffset + xmlLength > image.length - 512 || dataLength > xmlOffset) throw new Error('ссылки koly выходят за файл');
  const xml = new TextDecoder().decode(image.subarray(xmlOffset, xmlOffset + xmlLength));
  if (!/<key>resource-fork<\/key>[\s\S]*<key>blkx<\/key>/.test(xml)) throw new Error('в списке свойств нет таблицы blkx');
  const data = /<key>Data<\/key>\s*<data>([\s\S]*?)<\/data>/.exec(xml);
  const name = /<key>Name<\/key>\s*<string>([\s\S]*?)<\/string>/.exec(xml);
  if (!data) throw new Error('в таблице blkx нет данных mish');
  const mish = new Uint8Array(Buffer.from(data[1]!.replace(/\s+/g, ''), 'base64'));
  const table = new DataView(mish.buffer, mish.byteOffset, mish.byteLength);
  if (table.getUint32(0) !== 0x6d697368) throw new Error('нет подписи mish');
  const runs = table.getUint32(200);
  const volume = new Uint8Array(Number(table.getBigUint64(16)) * SECTOR);
  for (let i = 0; i < runs; i++) {
    const at = 204 + 40 * i;
    const type = table.getUint32(at);
    if (type === CHUNK_END) break;
    if (type === CHUNK_ZERO || type === 0 || type === 0x7ffffffe) continue;
    if (type !== CHUNK_RAW && type !== CHUNK_ZLIB) throw new Error(`блоки типа ${type.toString(16)} не поддерживаются`);
    const first = Number(table.getBigUint64(at + 8));
    const sectors = Number(table.getBigUint64(at + 16));
    const offset = Number(table.getBigUint64(at + 24));
    const length = Number(table.getBigUint64(at + 32));
    const stored = image.subarray(offset, offset + length);
    const plain = type === CHUNK_ZLIB ? new Uint8Array(inflateSync(stored)) : stored;
    if (plain.length !== sectors * SECTOR) throw new Error(`блок ${i}: ${plain.length} байт вместо ${sectors * SECTOR}`);
    volume.set(plain, first * SECTOR);
  }
  return {
    version: koly.getUint32(4),
    sectorCount,
    partitionName: name?.[1] ?? '',
    volume,
    dataChecksumOk: crc32(image.subarray(0, dataLength)) === koly.getUint32(88),
  };
}
