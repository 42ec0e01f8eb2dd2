// Checks the installers `npm run build:loader` makes, each as a valid file of its format. They are
// not built by `npm test` (about 130 MB of downloads and a minute of work), so each check runs only
// when its package exists and is skipped — with the reason in its name — otherwise.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { VERSION } from '../src/options';
import { readUdif, udifImage } from './udif';

const dist = resolve(import.meta.dirname, '..', 'dist');
const files = {
  deb: join(dist, `norma-loader_${VERSION}_amd64.deb`),
  msi: join(dist, `norma-loader-${VERSION}-x64.msi`),
  dmg: join(dist, `norma-loader-${VERSION}-arm64.dmg`),
};
const scratch = mkdtempSync(join(tmpdir(), 'norma-loader-packages-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const built = (path: string) => existsSync(path);
const title = (what: string, path: string) => (built(path) ? what : `${what} — пропущено: пакет не собран (npm run build:loader)`);
const tool = (name: string) => Bun.which(name);
const sh = (command: string[], cwd = scratch) => {
  const result = Bun.spawnSync(command, { cwd, stdout: 'pipe', stderr: 'pipe' });
  if (result.exitCode !== 0) throw new Error(`${command.join(' ')}: ${result.stderr.toString()}`);
  return result.stdout.toString();
};
const head = (path: string, bytes: number) => new Uint8Array(readFileSync(path).subarray(0, bytes));

describe('loader installers', () => {
  it.skipIf(!built(files.deb))(title('.deb: a Debian package norma-loader 1.0.0 for amd64 with an x86-64 executable', files.deb), () => {
    expect(new TextDecoder().decode(head(files.deb, 21))).toBe('!<arch>\ndebian-binary');
    const info = sh(['dpkg-deb', '--field', files.deb, 'Package', 'Version', 'Architecture']);
    expect(info).toContain('Package: norma-loader');
    expect(info).toContain(`Version: ${VERSION}`);
    expect(info).toContain('Architecture: amd64');
    expect(sh(['dpkg-deb', '--contents', files.deb])).toMatch(/-rwxr-xr-x root\/root .* \.\/usr\/bin\/norma-loader/);
    const unpacked = join(scratch, 'deb');
    sh(['dpkg-deb', '--extract', files.deb, unpacked]);
    const binary = join(unpacked, 'usr', 'bin', 'norma-loader');
    const elf = head(binary, 20);
    expect([...elf.subarray(0, 4)]).toEqual([0x7f, 0x45, 0x4c, 0x46]);
    expect(new DataView(elf.buffer).getUint16(18, true)).toBe(0x3e); // x86-64
    // It runs here (Linux x64): the version and the usage text.
    expect(sh([binary, '--version']).trim()).toBe(VERSION);
    expect(sh([binary, '--help'])).toContain('загрузчик записей камер Norma');
  });

  it.skipIf(!built(files.msi))(title('.msi: a Windows Installer database of Norma Loader 1.0.0 with a Windows executable', files.msi), () => {
    expect([...head(files.msi, 8)]).toEqual([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
    if (!tool('msiinfo') || !tool('msiextract')) return;
    const properties = sh(['msiinfo', 'export', files.msi, 'Property']);
    expect(properties).toMatch(/ProductName\tNorma Loader/);
    expect(properties).toMatch(new RegExp(`ProductVersion\\t${VERSION.replace(/\./g, '\\.')}`));
    expect(sh(['msiinfo', 'export', files.msi, 'File'])).toContain('norma-loader.exe');
    const unpacked = join(scratch, 'msi');
    sh(['msiextract', '-C', unpacked, files.msi]);
    const exe = sh(['find', unpacked, '-name', 'norma-loader.exe']).trim();
    const pe = head(exe, 0x200);
    expect(new TextDecoder().decode(pe.subarray(0, 2))).toBe('MZ');
    const peOffset = new DataView(pe.buffer).getUint32(0x3c, true);
    expect(new TextDecoder().decode(pe.subarray(peOffset, peOffset + 4))).toBe('PE\0\0');
    expect(new DataView(pe.buffer).getUint16(peOffset + 4, true)).toBe(0x8664); // x64
  });

  it.skipIf(!built(files.dmg))(title('.dmg: a UDIF image of an ISO 9660 volume with the arm64 macOS executable', files.dmg), () => {
    const image = new Uint8Array(readFileSync(files.dmg));
    const dmg = readUdif(image);
    expect(dmg.version).toBe(4);
    expect(dmg.dataChecksumOk).toBe(true);
    expect(dmg.volume.length).toBe(dmg.sectorCount * 512);
    // ISO 9660 primary volume descriptor at sector 16, named "Norma Loader".
    expect(new TextDecoder().decode(dmg.volume.subarray(0x8001, 0x8006))).toBe('CD001');
    expect(new TextDecoder().decode(dmg.volume.subarray(0x8028, 0x8028 + 32)).trim()).toMatch(/^Norma Loader$/i);
    // Independent readers, when installed: dmg2img gives back the same volume; 7-Zip lists the executable.
    if (tool('dmg2img')) {
      const raw = join(scratch, 'volume.img');
      sh(['dmg2img', '-s', '-i', files.dmg, '-o', raw]);
      expect(Bun.hash.crc32(new Uint8Array(readFileSync(raw)))).toBe(Bun.hash.crc32(dmg.volume));
    }
    const sevenZip = tool('7zz') ?? tool('7z');
    if (sevenZip) {
      const listing = sh([sevenZip, 'l', files.dmg]);
      expect(listing).toContain('Type = Dmg');
      expect(listing).toMatch(/Norma Loader\/norma-loader/);
      sh([sevenZip, 'x', '-y', `-o${join(scratch, 'dmg')}`, files.dmg]);
      const binary = sh(['find', join(scratch, 'dmg'), '-name', 'norma-loader', '-type', 'f'])
        .trim()
        .split('\n')[0]!;
      const macho = new DataView(head(binary, 8).buffer);
      expect(macho.getUint32(0, true)).toBe(0xfeedfacf); // 64-bit Mach-O
      expect(macho.getUint32(4, true)).toBe(0x0100000c); // arm64
    }
  });
});

describe('UDIF writer', () => {
  it('round-trips a volume with data, zeros and incompressible bytes', () => {
    const volume = new Uint8Array(700 * 1024 + 100);
    volume.fill(7, 0, 1000);
    volume.set(crypto.getRandomValues(new Uint8Array(65536)), 400 * 1024);
    const read = readUdif(udifImage(volume, 'whole disk (Apple_ISO : 0)'));
    expect(read.dataChecksumOk).toBe(true);
    expect(read.partitionName).toBe('whole disk (Apple_ISO : 0)');
    expect(read.volume.subarray(0, volume.length)).toEqual(volume);
    expect(read.volume.length % 512).toBe(0);
  });

  it('refuses files that are not UDIF', () => {
    expect(() => readUdif(new Uint8Array(4096))).toThrow('koly');
  });
});
