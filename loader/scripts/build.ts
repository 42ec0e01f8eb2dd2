// `npm run build:loader`: the loader as one executable per platform (`bun build --compile`), packaged
// as a Linux .deb (dpkg-deb), a Windows .msi (wixl, from Debian's msitools sources — package "wixl")
// and a macOS .dmg (an ISO 9660 volume from genisoimage, wrapped as UDIF), all version 1.0.0, into
// loader/dist/. Missing tools are installed with apt-get when allowed, else named with a clear message.
// Not part of `npm start` or `npm test`: the three runtimes are about 100 MB each.
import { chmodSync, cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { USAGE, VERSION } from '../src/options';
import { udifImage } from './udif';

const root = resolve(import.meta.dirname, '..');
const dist = join(root, 'dist');
const work = join(dist, '.work');
export const PACKAGE_FILES = {
  deb: `norma-loader_${VERSION}_amd64.deb`,
  msi: `norma-loader-${VERSION}-x64.msi`,
  dmg: `norma-loader-${VERSION}-arm64.dmg`,
};
// Fixed: Windows recognises later versions of the loader as upgrades of this one.
const UPGRADE_CODE = '6F1B2D0E-8C3A-4E57-9B21-5A0C7E4D9F13';
const COMPONENT_GUIDS = ['2C9E4A71-0B5D-4F38-A6E2-81D7C3F05B64', 'D47A0E19-6F2C-4B83-9E5A-3C1B8F7260AE'];

const readme = `${USAGE}
Установка:
  Linux (Debian, Ubuntu): sudo apt install ./${PACKAGE_FILES.deb}   → команда norma-loader
  Windows: ${PACKAGE_FILES.msi}                         → C:\\Program Files\\Norma Loader\\norma-loader.exe
  macOS (Apple silicon): ${PACKAGE_FILES.dmg} → скопируйте norma-loader, например, в /usr/local/bin

Запуск как службы: Linux — systemd (ExecStart=/usr/bin/norma-loader …), Windows — Планировщик
заданий «при запуске компьютера», macOS — launchd. Пароль лучше держать в файле (--password-file)
или в переменной NORMA_LOADER_PASSWORD, а не в командной строке.
`;

function run(command: string[], what: string, cwd?: string): void {
  const result = Bun.spawnSync(command, { stdout: 'inherit', stderr: 'inherit', cwd });
  if (result.exitCode !== 0) throw new Error(`${what}: команда ${command[0]} завершилась с кодом ${result.exitCode}`);
}

/** The tool, or an attempt to install its Debian package (as root or with sudo); null with a message if not possible. */
function ensureTool(command: string, debianPackage: string): string | null {
  const found = Bun.which(command);
  if (found) return found;
  console.log(`→ Нет ${command}: ставлю пакет Debian ${debianPackage} (apt-get install ${debianPackage})…`);
  const asRoot = process.getuid?.() === 0;
  const prefix = asRoot ? [] : Bun.which('sudo') ? ['sudo', '-n'] : null;
  if (prefix) {
    const result = Bun.spawnSync([...prefix, 'apt-get', 'install', '-y', '--no-install-recommends', debianPackage], { stdout: 'inherit', stderr: 'inherit' });
    if (result.exitCode === 0 && Bun.which(command)) return Bun.which(command);
  }
  console.error(`✖ Не удалось поставить ${debianPackage}. Поставьте его сами: sudo apt-get install ${debianPackage} — и запустите сборку снова.`);
  return null;
}

function compile(target: string, outfile: string) {
  console.log(`→ bun build --compile --target=bun-${target}`);
  run([process.execPath, 'build', '--compile', `--target=bun-${target}`, join(root, 'src', 'main.ts'), '--outfile', outfile], `Сборка для ${target}`);
}

function buildDeb(binary: string) {
  const stage = join(work, 'deb');
  mkdirSync(join(stage, 'DEBIAN'), { recursive: true });
  mkdirSync(join(stage, 'usr', 'bin'), { recursive: true });
  mkdirSync(join(stage, 'usr', 'share', 'doc', 'norma-loader'), { recursive: true });
  cpSync(binary, join(stage, 'usr', 'bin', 'norma-loader'));
  chmodSync(join(stage, 'usr', 'bin', 'norma-loader'), 0o755);
  writeFileSync(join(stage, 'usr', 'share', 'doc', 'norma-loader', 'README.txt'), readme);
  writeFileSync(
    join(stage, 'DEBIAN', 'control'),
    [
      'Package: norma-loader',
      `Version: ${VERSION}`,
      'Architecture: amd64',
      'Section: utils',
      'Priority: optional',
      'Maintainer: Norma <support@norma.invalid>',
      `Installed-Size: ${Math.ceil(Bun.file(binary).size / 1024)}`,
      'Description: Norma loader: uploads camera recordings to a Norma server',
      ' Watches a folder on the recording computer and uploads new MP4 files to a camera',
      ' of a structure, resuming after network loss and never sending a file twice.',
      '',
    ].join('\n'),
  );
  run(['dpkg-deb', '--root-owner-group', '-Zxz', '--build', stage, join(dist, PACKAGE_FILES.deb)], 'Пакет .deb');
}

function buildMsi(wixl: string, binary: string) {
  const stage = join(work, 'msi');
  mkdirSync(stage, { recursive: true });
  cpSync(binary, join(stage, 'norma-loader.exe'));
  writeFileSync(join(stage, 'README.txt'), readme.replace(/\n/g, '\r\n'));
  const wxs = `<?xml version="1.0" encoding="utf-8"?>
<Wix xmlns="http://schemas.microsoft.com/wix/2006/wi">
  <Product Id="*" Name="Norma Loader" Version="${VERSION}" Manufacturer="Norma" Language="1033" Codepage="1252" UpgradeCode="${UPGRADE_CODE}">
    <Package InstallerVersion="500" Compressed="yes" InstallScope="perMachine" Description="Norma Loader ${VERSION}" Comments="Uploads camera recordings to a Norma server" />
    <Media Id="1" Cabinet="loader.cab" EmbedCab="yes" />
    <MajorUpgrade DowngradeErrorMessage="A newer version of Norma Loader is already installed." />
    <Directory Id="TARGETDIR" Name="SourceDir">
      <Directory Id="ProgramFiles64Folder">
        <Directory Id="INSTALLDIR" Name="Norma Loader">
          <Component Id="LoaderExe" Guid="${COMPONENT_GUIDS[0]}" Win64="yes">
            <File Id="NormaLoaderExe" Name="norma-loader.exe" Source="norma-loader.exe" KeyPath="yes" />
          </Component>
          <Component Id="LoaderReadme" Guid="${COMPONENT_GUIDS[1]}" Win64="yes">
            <File Id="NormaLoaderReadme" Name="README.txt" Source="README.txt" KeyPath="yes" />
          </Component>
        </Directory>
      </Directory>
    </Directory>
    <Feature Id="Main" Title="Norma Loader" Level="1">
      <ComponentRef Id="LoaderExe" />
      <ComponentRef Id="LoaderReadme" />
    </Feature>
  </Product>
</Wix>
`;
  writeFileSync(join(stage, 'loader.wxs'), wxs);
  // wixl takes File sources relative to where it runs.
  run([wixl, '--arch', 'x64', '-o', join(dist, PACKAGE_FILES.msi), 'loader.wxs'], 'Пакет .msi', stage);
}

async function buildDmg(genisoimage: string, binary: string) {
  const stage = join(work, 'dmg', 'Norma Loader');
  mkdirSync(stage, { recursive: true });
  cpSync(binary, join(stage, 'norma-loader'));
  chmodSync(join(stage, 'norma-loader'), 0o755);
  writeFileSync(join(stage, 'README.txt'), readme);
  const iso = join(work, 'loader.iso');
  // Rock Ridge keeps the executable bit; Joliet keeps long names; macOS mounts ISO 9660 natively.
  run([genisoimage, '-quiet', '-V', 'Norma Loader', '-R', '-J', '-o', iso, join(work, 'dmg')], 'Образ ISO 9660');
  const volume = new Uint8Array(await Bun.file(iso).arrayBuffer());
  await Bun.write(join(dist, PACKAGE_FILES.dmg), udifImage(volume, 'whole disk (Apple_ISO : 0)'));
}

async function main() {
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const problems: string[] = [];
  const dpkgDeb = Bun.which('dpkg-deb');
  const wixl = ensureTool('wixl', 'wixl');
  const genisoimage = ensureTool('genisoimage', 'genisoimage');

  const linux = join(work, 'bin', 'linux-x64', 'norma-loader');
  const windows = join(work, 'bin', 'windows-x64', 'norma-loader.exe');
  const mac = join(work, 'bin', 'darwin-arm64', 'norma-loader');
  compile('linux-x64', linux);
  compile('windows-x64', windows);
  compile('darwin-arm64', mac);

  if (dpkgDeb) buildDeb(linux);
  else problems.push(`${PACKAGE_FILES.deb}: нет dpkg-deb (пакет dpkg)`);
  if (wixl) buildMsi(wixl, windows);
  else problems.push(`${PACKAGE_FILES.msi}: нет wixl (пакет wixl из msitools)`);
  if (genisoimage) await buildDmg(genisoimage, mac);
  else problems.push(`${PACKAGE_FILES.dmg}: нет genisoimage (пакет genisoimage)`);

  rmSync(work, { recursive: true, force: true });
  for (const file of Object.values(PACKAGE_FILES)) {
    const package_ = Bun.file(join(dist, file));
    if (await package_.exists()) console.log(`✔ loader/dist/${file} (${(package_.size / 1024 ** 2).toFixed(1)} МБ)`);
  }
  if (problems.length) {
    console.error(`✖ Не собраны:\n  ${problems.join('\n  ')}`);
    process.exit(1);
  }
}

if (import.meta.main) await main();
