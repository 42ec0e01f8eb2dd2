import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';

/** The folder of the readers' helper scripts (ezdxf, GDAL, LibreCAD). */
export const CAD_SUPPORT_DIR = new URL('.', import.meta.url).pathname;

/** A python with ezdxf: Debian's, even when another python3 comes first on PATH. */
export const PYTHON_WITH_EZDXF = ['python3', '/usr/bin/python3'].find((p) => spawnSync(p, ['-c', 'import ezdxf']).status === 0) ?? 'python3';

/**
 * LibreCAD 2.2 on one drawing under Xvfb (tests/support/librecad.sh in `mode`: `open` — the windows
 * it showed, `view` — the drawing's share of the drawing area, `resave` — saved again as DXF through
 * its own «Save as…» to `arg`): the script's output lines. Each try gets a fresh home folder in
 * `workDir` and an X display number of its own from `seed` (xvfb-run -a goes up from it; other X
 * servers starting at once — parallel tests — start at 99). A try is run again, up to three, when
 * xvfb lost the race for its number («no-display») or LibreCAD was gone before its window came up
 * («failed open»: it has died so at start on a loaded machine, once in many runs, and opened the same
 * file at once again); a file LibreCAD cannot open fails every try.
 */
export function librecad(mode: 'open' | 'view' | 'resave', file: string, arg: string, { workDir, seed }: { workDir: string; seed: number }): string[] {
  let lines: string[] = [];
  for (let attempt = 1; attempt <= 3; attempt++) {
    const home = mkdtempSync(join(workDir, 'librecad-'));
    const display = String(200 + ((process.pid * 17 + attempt * 101 + seed) % 700));
    lines = execFileSync('xvfb-run', ['-a', '-n', display, '-s', '-screen 0 1280x1024x24', join(CAD_SUPPORT_DIR, 'librecad.sh'), mode, file, home, arg], {
      encoding: 'utf8',
      timeout: 300_000,
    })
      .split('\n')
      .filter(Boolean);
    if (lines[0] !== 'no-display' && lines[0] !== 'failed open') break;
  }
  return lines;
}
