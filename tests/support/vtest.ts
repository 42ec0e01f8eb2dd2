import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { mediaTools } from '@norma/workers/media';
import type { LabelledPerson } from '@norma/workers/vision';

/**
 * Real camera footage for the person detector (issue 25, docs/vision.md «Детектор людей»):
 * vtest.avi from Debian's opencv-doc package (`.ci/run` installs it) and the hand-labelled boxes of
 * every 25th frame in tests/fixtures/vtest-people.json.
 */
export const VTEST_AVI = '/usr/share/doc/opencv-doc/examples/data/vtest.avi';
export const VTEST_MISSING = existsSync(VTEST_AVI)
  ? null
  : `нет ${VTEST_AVI}: установите пакет opencv-doc (apt-get install opencv-doc; .ci/run ставит его сам)`;

export interface VtestFixture {
  width: number;
  height: number;
  fps: number;
  frames: { frame: number; people: LabelledPerson[] }[];
}

export function vtestFixture(): VtestFixture {
  return JSON.parse(readFileSync(join(import.meta.dirname, '..', 'fixtures', 'vtest-people.json'), 'utf8')) as VtestFixture;
}

/** The given frames of vtest.avi (by index), scaled to width×height, as RGB bytes — one ffmpeg run. */
export async function vtestFrames(frames: number[], width: number, height: number): Promise<Uint8Array[]> {
  const { ffmpeg } = await mediaTools();
  const select = frames.map((n) => `eq(n\\,${n})`).join('+');
  const child = Bun.spawn(
    [
      ffmpeg,
      '-hide_banner',
      '-loglevel',
      'error',
      '-nostdin',
      '-i',
      VTEST_AVI,
      '-vf',
      `select='${select}',scale=${width}:${height}:flags=area`,
      '-vsync',
      '0',
      '-pix_fmt',
      'rgb24',
      '-f',
      'rawvideo',
      'pipe:1',
    ],
    { stdout: 'pipe', stderr: 'pipe' },
  );
  const [bytes, stderr, status] = await Promise.all([new Response(child.stdout).arrayBuffer(), new Response(child.stderr).text(), child.exited]);
  if (status !== 0) throw new Error(`ffmpeg: ${stderr}`);
  const all = new Uint8Array(bytes);
  const size = width * height * 3;
  if (all.length !== size * frames.length) throw new Error(`ffmpeg дал ${all.length} байт вместо ${size * frames.length}`);
  return frames.map((_, i) => all.subarray(i * size, (i + 1) * size));
}
