/**
 * The bit-level encodings of the DWG format (Open Design Specification for .dwg files, chapter 2
 * «Bit codes and data definitions»), as an append-only MSB-first bit stream. Only what an AutoCAD
 * 2000 (AC1015) file needs: R2000 strings are bytes in the drawing's code page (see cp1251.ts).
 */
export class BitWriter {
  private buf = new Uint8Array(1024);
  /** Bits written so far. */
  private pos = 0;

  get bitLength(): number {
    return this.pos;
  }

  get byteLength(): number {
    return Math.ceil(this.pos / 8);
  }

  private ensure(bits: number) {
    const need = Math.ceil((this.pos + bits) / 8);
    if (need <= this.buf.length) return;
    const next = new Uint8Array(Math.max(need, this.buf.length * 2));
    next.set(this.buf);
    this.buf = next;
  }

  /** `count` low bits of `value`, most significant first (count ≤ 32). */
  bits(value: number, count: number): this {
    this.ensure(count);
    for (let i = count - 1; i >= 0; i--) {
      const bit = Math.floor(value / 2 ** i) % 2;
      if (bit) this.buf[this.pos >> 3] |= 0x80 >> (this.pos & 7);
      this.pos++;
    }
    return this;
  }

  /** Overwrites 32 bits at a bit position as RL (the R2000 object «size in bits» is known only at the end). */
  patchRL(bitPos: number, value: number) {
    const end = this.pos;
    const bytes = [value & 0xff, (value >>> 8) & 0xff, (value >>> 16) & 0xff, (value >>> 24) & 0xff];
    for (let i = 0; i < 32; i++) {
      const p = bitPos + i;
      const bit = (bytes[i >> 3] >> (7 - (i & 7))) & 1;
      if (bit) this.buf[p >> 3] |= 0x80 >> (p & 7);
      else this.buf[p >> 3] &= ~(0x80 >> (p & 7));
    }
    this.pos = end;
  }

  /** Zero bits up to the next byte boundary. */
  align(): this {
    while (this.pos & 7) this.B(0);
    return this;
  }

  bytes(): Uint8Array {
    return this.buf.slice(0, this.byteLength);
  }

  B(v: boolean | number): this {
    return this.bits(v ? 1 : 0, 1);
  }
  BB(v: number): this {
    return this.bits(v & 3, 2);
  }
  RC(v: number): this {
    return this.bits(v & 0xff, 8);
  }
  RS(v: number): this {
    return this.RC(v).RC(v >> 8);
  }
  RL(v: number): this {
    return this.RS(v & 0xffff).RS((v >>> 16) & 0xffff);
  }
  RD(v: number): this {
    const b = new Uint8Array(new Float64Array([v]).buffer);
    for (const x of b) this.RC(x);
    return this;
  }
  raw(bytes: Uint8Array | number[]): this {
    for (const x of bytes) this.RC(x);
    return this;
  }

  /** Bitshort: 00 + RS, 01 + RC (0–255), 10 — 0, 11 — 256. */
  BS(v: number): this {
    const u = v & 0xffff;
    if (u === 0) return this.BB(2);
    if (u === 256) return this.BB(3);
    if (u < 256) return this.BB(1).RC(u);
    return this.BB(0).RS(u);
  }
  /** Bitlong: 00 + RL, 01 + RC (0–255), 10 — 0. */
  BL(v: number): this {
    const u = v >>> 0;
    if (u === 0) return this.BB(2);
    if (u < 256) return this.BB(1).RC(u);
    return this.BB(0).RL(u);
  }
  /** Bitdouble: 00 + RD, 01 — 1.0, 10 — 0.0. */
  BD(v: number): this {
    if (Object.is(v, 0)) return this.BB(2);
    if (v === 1) return this.BB(1);
    return this.BB(0).RD(v);
  }
  /**
   * Bitdouble with default: 00 — the default; 01 + 4 bytes — the low 4 bytes replaced; 10 + 6 bytes —
   * bytes 4–5 then 0–3 replaced; 11 + RD. Chosen by comparing the IEEE bytes, so values stay exact.
   */
  DD(v: number, def: number): this {
    const a = new Uint8Array(new Float64Array([v]).buffer);
    const d = new Uint8Array(new Float64Array([def]).buffer);
    const same = (from: number, to: number) => a.slice(from, to).every((x, i) => x === d[from + i]);
    if (same(0, 8)) return this.BB(0);
    if (same(4, 8)) return this.BB(1).raw(a.slice(0, 4));
    if (same(6, 8)) return this.BB(2).raw(a.slice(4, 6)).raw(a.slice(0, 4));
    return this.BB(3).RD(v);
  }
  /** Extrusion (R2000+): 1 — (0, 0, 1), else 0 + 3 BD. */
  BE(x = 0, y = 0, z = 1): this {
    if (x === 0 && y === 0 && z === 1) return this.B(1);
    return this.B(0).BD(x).BD(y).BD(z);
  }
  /** Thickness (R2000+): 1 — 0.0, else 0 + BD. */
  BT(v = 0): this {
    return v === 0 ? this.B(1) : this.B(0).BD(v);
  }
  RD2(x: number, y: number): this {
    return this.RD(x).RD(y);
  }
  BD3(x: number, y: number, z: number): this {
    return this.BD(x).BD(y).BD(z);
  }
  /** Text (R2000): BS byte length, then the bytes (already in the drawing code page), no terminator. */
  T(bytes: Uint8Array): this {
    return this.BS(bytes.length).raw(bytes);
  }
  /** Colour (R2000 CMC): the ACI index as BS (256 — ByLayer, 0 — ByBlock). */
  CMC(aci: number): this {
    return this.BS(aci);
  }
  /** Handle reference: code nibble, byte-count nibble, then the handle bytes most significant first. */
  H(code: number, handle: number): this {
    const bytes: number[] = [];
    for (let v = handle; v > 0; v = Math.floor(v / 256)) bytes.unshift(v % 256);
    return this.RC(((code & 0xf) << 4) | bytes.length).raw(bytes);
  }
}

/** Modular char (object map): 7 bits a byte, least significant first, 0x80 — more follows, 0x40 of the last — negative. */
export function modularChar(value: number): number[] {
  const out: number[] = [];
  let v = Math.abs(value);
  for (;;) {
    const byte = v & 0x7f;
    v = Math.floor(v / 128);
    if (v === 0 && !(byte & 0x40)) {
      out.push(value < 0 ? byte | 0x40 : byte);
      return out;
    }
    out.push(byte | 0x80);
  }
}

/** Modular short (object size): 15 bits a word (RS), least significant first, 0x8000 — more follows. */
export function modularShort(value: number): number[] {
  const out: number[] = [];
  let v = value;
  for (;;) {
    const word = v & 0x7fff;
    v = Math.floor(v / 32768);
    const w = v ? word | 0x8000 : word;
    out.push(w & 0xff, w >> 8);
    if (!v) return out;
  }
}
