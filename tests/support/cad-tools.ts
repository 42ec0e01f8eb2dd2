import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

/** The folder of the readers' helper scripts (ezdxf, GDAL, LibreCAD). */
export const CAD_SUPPORT_DIR = join(new URL('.', import.meta.url).pathname);

/** A python with ezdxf: Debian's, even when another python3 comes first on PATH. */
export const PYTHON_WITH_EZDXF = ['python3', '/usr/bin/python3'].find((p) => spawnSync(p, ['-c', 'import ezdxf']).status === 0) ?? 'python3';
