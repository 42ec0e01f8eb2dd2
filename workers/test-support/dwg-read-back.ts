/**
 * Test support only: reads a DWG back with LibreDWG (`@mlightcad/libredwg-web`, GPL-3.0, a
 * devDependency) to check what Norma writes. Product code never imports this file.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { LibreDwg, type DwgDatabase } from '@mlightcad/libredwg-web';

/** LibreDWG's DWG_ERR_CRITICAL: error bits from this value up mean the file could not be read. */
export const LIBREDWG_CRITICAL = 128;

interface WasmFs {
  FS: { writeFile(name: string, data: Uint8Array): void; unlink(name: string): void };
  dwg_read_file(name: string): { error: number; data: number };
  dwg_get_codepage(data: number): number;
  dwg_free(data: number): void;
}

let reader: Promise<LibreDwg & WasmFs> | undefined;

/** The wasm loads from node_modules (no network). */
const libredwg = () =>
  (reader ??= LibreDwg.create(join(dirname(createRequire(import.meta.url).resolve('@mlightcad/libredwg-web/package.json')), 'wasm')) as Promise<
    LibreDwg & WasmFs
  >);

export interface ReadBack {
  /** LibreDWG's error bits (0 — none; CRC mismatches, invalid handles and the like set low bits). */
  error: number;
  codepage: number;
  db: DwgDatabase | null;
}

export async function readDwg(bytes: Uint8Array): Promise<ReadBack> {
  const lib = await libredwg();
  lib.FS.writeFile('read-back.dwg', bytes);
  try {
    const { error, data } = lib.dwg_read_file('read-back.dwg');
    if (error >= LIBREDWG_CRITICAL || !data) return { error, codepage: 0, db: null };
    const codepage = lib.dwg_get_codepage(data);
    const db = lib.convert(data);
    lib.dwg_free(data);
    return { error, codepage, db };
  } finally {
    lib.FS.unlink('read-back.dwg');
  }
}
