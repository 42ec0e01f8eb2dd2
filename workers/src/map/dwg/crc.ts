/** The 16-bit CRC the DWG specification calls «CRC8» (reflected polynomial 0xA001), seeded 0xC0C1 for R2000 sections and objects. */
const TABLE = (() => {
  const t = new Uint16Array(256);
  for (let i = 0; i < 256; i++) {
    let c = i;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xa001 : c >>> 1;
    t[i] = c;
  }
  return t;
})();

export const CRC_SEED = 0xc0c1;

export function crc16(bytes: Uint8Array, seed = CRC_SEED): number {
  let crc = seed;
  for (const b of bytes) crc = (crc >>> 8) ^ TABLE[(crc ^ b) & 0xff];
  return crc;
}
