// Set-up steps shared by `npm start`, `npm test`, `npm run build`, `npm run bench`.
// Plain Node (no dependencies): this runs before anything is installed.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const root = resolve(import.meta.dirname, '..');
export const bun = join(root, 'node_modules', '.bin', 'bun');

export function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', ...options });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

function mustRun(command, args, what) {
  const status = run(command, args);
  if (status !== 0) {
    console.error(`\n✖ ${what} не удалось (код ${status}).`);
    process.exit(status);
  }
}

/** Newest modification time of a file or of any file under a folder (skipping node_modules). */
function newest(path) {
  if (!existsSync(path)) return 0;
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  let latest = stats.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || entry === 'dist' || entry === 'build') continue;
    latest = Math.max(latest, newest(join(path, entry)));
  }
  return latest;
}

/**
 * The Debian packages of `set` ('start': what the server uses; 'test': all of it), through the one list
 * of them, scripts/system-deps.sh: as root, what is missing is installed; otherwise the script
 * names the missing packages and the one command that installs them. `strict`: then this process stops
 * with its code before doing anything else; otherwise (a partial `npm test -- <paths>`, which may not
 * need them) the same lines stand as a warning and the run goes on.
 */
export function ensureSystemPackages(set, { strict = true } = {}) {
  const status = run('bash', [join(root, 'scripts', 'system-deps.sh'), '--ensure', set]);
  if (status === 0) return;
  if (strict) process.exit(status);
  console.warn('⚠ Продолжаю без них: тесты, которым они нужны, не пройдут.');
}

/** Installs npm dependencies when missing or older than the lock file. */
export function ensureInstalled() {
  const marker = join(root, 'node_modules', '.package-lock.json');
  const lock = join(root, 'package-lock.json');
  if (existsSync(marker) && existsSync(bun) && newest(lock) <= newest(marker)) return;
  console.log('→ Устанавливаю зависимости npm…');
  mustRun('npm', existsSync(join(root, 'node_modules')) ? ['install', '--no-audit', '--no-fund'] : ['ci', '--no-audit', '--no-fund'], 'Установка зависимостей');
}

/** Compiles the AssemblyScript report core when its sources changed. */
export function ensureCoreBuilt() {
  const output = join(root, 'core-wasm', 'build', 'core.wasm');
  const sources = join(root, 'core-wasm', 'assembly');
  if (!existsSync(sources)) return;
  if (existsSync(output) && newest(sources) <= newest(output)) return;
  console.log('→ Собираю core-wasm…');
  mustRun('npm', ['run', 'build', '--if-present', '-w', '@norma/core-wasm'], 'Сборка core-wasm');
}

/** Builds the PWA when its sources are newer than the last build. */
export function ensurePwaBuilt() {
  const output = join(root, 'pwa', 'dist', 'index.html');
  const inputs = ['pwa/src', 'pwa/public', 'pwa/index.html', 'pwa/vite.config.ts', 'core-wasm/src', 'core-wasm/build'].map((p) => join(root, p));
  if (existsSync(output) && Math.max(...inputs.map(newest)) <= newest(output)) return;
  console.log('→ Собираю PWA…');
  // Build beside the old copy, then swap: a server or test reading pwa/dist never sees half a build.
  const next = join(root, 'pwa', `.dist-${process.pid}`);
  mustRun(join(root, 'node_modules', '.bin', 'vite'), ['build', 'pwa', '--logLevel', 'warn', '--outDir', next], 'Сборка PWA');
  rmSync(join(root, 'pwa', 'dist'), { recursive: true, force: true });
  renameSync(next, join(root, 'pwa', 'dist'));
}

export function prepare() {
  ensureInstalled();
  ensureCoreBuilt();
  ensurePwaBuilt();
}
