import { stat } from 'node:fs/promises';
import { join } from 'node:path';

export const LOADER_VERSION = '1.0.0';

/** The installers `npm run build:loader` makes (loader/scripts/build.ts names them the same way). */
export const LOADER_PACKAGES = [
  { platform: 'windows', format: 'msi', file: `norma-loader-${LOADER_VERSION}-x64.msi` },
  { platform: 'macos', format: 'dmg', file: `norma-loader-${LOADER_VERSION}-arm64.dmg` },
  { platform: 'linux', format: 'deb', file: `norma-loader_${LOADER_VERSION}_amd64.deb` },
] as const;

const CONTENT_TYPES: Record<string, string> = {
  msi: 'application/x-msi',
  dmg: 'application/x-apple-diskimage',
  deb: 'application/vnd.debian.binary-package',
};

/** Where a package file is: DATA_DIR/loader first (an administrator can put one there), then the build folder. */
async function locate(folders: string[], file: string) {
  for (const folder of folders) {
    const path = join(folder, file);
    const info = await stat(path).catch(() => null);
    if (info?.isFile()) return { path, size: info.size };
  }
  return null;
}

/** What the projects page's loader menu lists: every platform, available or not (never a dead link). */
export async function loaderPackages(folders: string[]) {
  const packages = await Promise.all(
    LOADER_PACKAGES.map(async (item) => {
      const found = await locate(folders, item.file);
      return {
        platform: item.platform,
        format: item.format,
        file: item.file,
        available: found !== null,
        url: found ? `/api/v1/loader/${item.file}` : null,
        size_bytes: found?.size ?? null,
      };
    }),
  );
  return { version: LOADER_VERSION, packages };
}

/** The file of a package by its exact name (only names of the list: nothing else can be read). */
export async function loaderPackageFile(folders: string[], file: string) {
  const item = LOADER_PACKAGES.find((p) => p.file === file);
  if (!item) return null;
  const found = await locate(folders, file);
  return found ? { ...found, file, contentType: CONTENT_TYPES[item.format]! } : null;
}
