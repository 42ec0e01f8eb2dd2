/**
 * The Debian packages `npm start`, `npm test` and `.ci/run` need are listed once, in
 * scripts/system-deps.sh (issue 41): the check names a missing package and the one command that
 * installs it and fails; with every package there it passes; and no other script or CI file keeps a
 * list of its own. The packages are checked by their files under a made-up root (NORMA_SYSTEM_ROOT),
 * so the test neither needs nor changes what this machine has installed.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..', '..');
const script = join(root, 'scripts', 'system-deps.sh');
const INSTALL = 'sudo bash scripts/system-deps.sh --install';

/** The script's table: package, set and the file that shows it is installed. */
const table = [...readFileSync(script, 'utf8').matchAll(/^ {2}'([a-z0-9.+-]+)\|(start|test)\|([^|]+)\|/gm)].map(([, name, set, file]) => ({
  name: name!,
  set: set!,
  file: file!,
}));

let fakeRoot: string;

const check = (...args: string[]) => {
  const result = spawnSync('bash', [script, '--check', ...args], { cwd: root, encoding: 'utf8', env: { ...process.env, NORMA_SYSTEM_ROOT: fakeRoot } });
  return { status: result.status, stderr: result.stderr };
};
const fileOf = (name: string) => join(fakeRoot, table.find((p) => p.name === name)!.file.replace('*', '15'));

beforeAll(() => {
  fakeRoot = mkdtempSync(join(tmpdir(), 'norma-system-'));
  for (const { file } of table) {
    const path = join(fakeRoot, file.replace('*', '15'));
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, '');
  }
});
afterAll(() => rmSync(fakeRoot, { recursive: true, force: true }));

describe('scripts/system-deps.sh', () => {
  it('lists what the tests and the server need, the server’s set inside the tests’ one', () => {
    const names = table.map((p) => p.name);
    for (const name of [
      'chromium',
      'ffmpeg',
      'postgresql',
      'poppler-utils',
      'librecad',
      'gdal-bin',
      'python3-ezdxf',
      'opencv-doc',
      'gmt-gshhg-high',
      'libgeonames-common',
    ])
      expect(names).toContain(name);
    const list = (set: string) => spawnSync('bash', [script, '--list', set], { encoding: 'utf8' }).stdout.trim().split('\n');
    expect(list('test')).toEqual([...new Set(names)]);
    expect(list('start')).toEqual(['ffmpeg', 'libgeonames-common', 'gmt-gshhg-high']);
  });

  it('passes with every package present', () => {
    expect(check()).toEqual({ status: 0, stderr: '' });
    expect(check('start')).toEqual({ status: 0, stderr: '' });
  });

  it('names a missing package and the one command to run, and fails', () => {
    rmSync(fileOf('chromium'));
    try {
      const missing = check();
      expect(missing.status).toBe(1);
      expect(missing.stderr).toContain('Не хватает пакетов Debian: chromium\n');
      expect(missing.stderr).toContain(`Поставьте их одной командой (из папки проекта): ${INSTALL}\n`);
      // The server does not need Chromium.
      expect(check('start').status).toBe(0);
    } finally {
      writeFileSync(fileOf('chromium'), '');
    }
    rmSync(fileOf('ffmpeg'));
    try {
      const missing = check('start');
      expect(missing.status).toBe(1);
      expect(missing.stderr).toContain('Не хватает пакетов Debian: ffmpeg\n');
      expect(missing.stderr).toContain(`${INSTALL} start\n`);
    } finally {
      writeFileSync(fileOf('ffmpeg'), '');
    }
    expect(check().status).toBe(0);
  });

  it('--ensure installs what is missing as root (apt-get update, then install of just those), otherwise only names it', () => {
    // A stand-in apt-get first on PATH: it writes down how it was called and "installs" Chromium's file.
    const bin = mkdtempSync(join(tmpdir(), 'norma-apt-'));
    const log = join(bin, 'calls');
    writeFileSync(join(bin, 'apt-get'), `#!/bin/sh\necho "$DEBIAN_FRONTEND $*" >> '${log}'\ncase "$1" in install) : > '${fileOf('chromium')}';; esac\n`, {
      mode: 0o755,
    });
    rmSync(fileOf('chromium'));
    try {
      const result = spawnSync('bash', [script, '--ensure', 'test'], {
        cwd: root,
        encoding: 'utf8',
        env: { ...process.env, DEBIAN_FRONTEND: '', NORMA_SYSTEM_ROOT: fakeRoot, PATH: `${bin}:${process.env.PATH}` },
      });
      if (process.getuid?.() === 0) {
        expect(result.status).toBe(0);
        expect(readFileSync(log, 'utf8')).toBe(' update -qq\nnoninteractive install -y -qq chromium\n');
      } else {
        expect(result.status).toBe(1);
        expect(result.stderr).toContain(INSTALL);
      }
    } finally {
      writeFileSync(fileOf('chromium'), '');
      rmSync(bin, { recursive: true, force: true });
    }
  });

  it('refuses a mode or set it does not know', () => {
    expect(spawnSync('bash', [script, '--install-everything'], { encoding: 'utf8' }).status).toBe(2);
    expect(spawnSync('bash', [script, '--check', 'prod'], { encoding: 'utf8' }).status).toBe(2);
  });

  it('is the one list: .ci/run, npm test and npm start go through it, and no other script names apt packages', () => {
    const ci = readFileSync(join(root, '.ci', 'run'), 'utf8');
    expect(ci).toMatch(/^bash scripts\/system-deps\.sh --install test$/m);
    expect(ci.indexOf('bash scripts/system-deps.sh')).toBeLessThan(ci.indexOf('npm test'));
    const lib = readFileSync(join(root, 'scripts', 'lib.mjs'), 'utf8');
    expect(lib).toContain("join(root, 'scripts', 'system-deps.sh'), '--ensure', set]");
    expect(readFileSync(join(root, 'scripts', 'test.mjs'), 'utf8')).toContain("ensureSystemPackages('test', { strict: !partial });");
    expect(readFileSync(join(root, 'scripts', 'start.mjs'), 'utf8')).toContain("ensureSystemPackages('start');");
    const others = [...readdirSync(join(root, 'scripts')).map((f) => join('scripts', f)), ...readdirSync(join(root, '.ci')).map((f) => join('.ci', f))].filter(
      (f) => f !== join('scripts', 'system-deps.sh'),
    );
    const packages = [...new Set(table.map((p) => p.name))];
    for (const file of others) {
      const text = readFileSync(join(root, file), 'utf8');
      expect(text, file).not.toMatch(/apt-get|apt install|dpkg/);
      const named = packages.filter((p) => new RegExp(`(^|[\\s'"(])${p.replace(/[.+]/g, '\\$&')}([\\s'")]|$)`, 'm').test(text));
      expect(named, `${file} names packages of its own`).toEqual([]);
    }
  });
});
