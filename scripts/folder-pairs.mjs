// Boundary check (run by `npm run check`, so also by `npm test`): no two folders import each other.
// dependency-cruiser reads every import (type-only ones included, through tsconfig paths and the
// workspaces' package exports); this script folds the files into folders and fails on any pair A ⇄ B,
// naming the pair and one import of each direction. A folder is `api/src/<domain>`,
// `pwa/src/<folder>`, `workers/src/<folder>` (a file directly in `src/` counts as a folder of its
// own name: `api/src/config.ts` is `api/src/config`), and for the other workspaces the workspace
// itself (`core-wasm`, `tests`, `bench`, `loader`). Imports inside one folder are that folder's
// business. dependency-cruiser's own folder rules look at every directory level and at cycles of any
// length, not at these pairs, hence the folding here. Second rule, one direction only: nothing in
// `workers/` (its tests and test support included) imports the API — no relative path into `api/`,
// no `@norma/api` — since workers/ holds the libraries that know nothing of it (DESIGN.md «Shape»,
// «Jobs»); job handlers live in the API's domains. Runs under Bun (dependency-cruiser needs a newer
// Node than the project's minimum).
import { cruise } from 'dependency-cruiser';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { relative, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');

/**
 * Pairs that are known and being removed elsewhere; each entry is `A ⇄ B` with A < B. Keep this list
 * empty: an entry here is a debt with a name on it.
 */
const ALLOWED_PAIRS = new Set([]);

const SCANNED = ['api/src', 'pwa/src', 'workers/src', 'core-wasm/src', 'core-wasm/assembly', 'tests', 'bench', 'loader/src', 'loader/scripts'];
const SPLIT = ['api/src', 'pwa/src', 'workers/src'];

/** The folder a repository path belongs to, or null when it is outside the checked code. */
export function folderOf(path) {
  for (const base of SPLIT) {
    if (!path.startsWith(`${base}/`)) continue;
    const first = path.slice(base.length + 1).split('/')[0];
    return `${base}/${first.replace(/\.(d\.)?[cm]?[jt]sx?$/, '')}`;
  }
  const top = path.split('/')[0];
  return ['core-wasm', 'tests', 'bench', 'loader'].includes(top) ? top : null;
}

/** Mutual folder pairs in a list of file-level imports `{ from, to }` (repository paths). */
export function mutualPairs(imports) {
  /** `A→B` → the first import seen from a file of A to a file of B. */
  const edges = new Map();
  for (const { from, to } of imports) {
    const a = folderOf(from);
    const b = folderOf(to);
    if (!a || !b || a === b) continue;
    const key = `${a}→${b}`;
    if (!edges.has(key)) edges.set(key, { from, to });
  }
  const pairs = [];
  for (const [key, forward] of edges) {
    const [a, b] = key.split('→');
    if (a >= b) continue;
    const backward = edges.get(`${b}→${a}`);
    if (backward) pairs.push({ pair: `${a} ⇄ ${b}`, forward, backward });
  }
  return pairs.sort((x, y) => x.pair.localeCompare(y.pair));
}

/** The library folders that know nothing of the API: none of their files imports it. */
const LIBRARIES = ['workers/src', 'workers/test-support'];

/** The imports `{ from, to, module }` of a library file (LIBRARIES) into the API: a path in `api/` or the `@norma/api` package. */
export function importsIntoApi(imports) {
  const isLibrary = (path) => LIBRARIES.some((base) => path.startsWith(`${base}/`));
  const isApi = (to, module) => to.startsWith('api/') || /(^|\/)node_modules\/@norma\/api(\/|$)/.test(to) || /^@norma\/api(\/|$)/.test(module ?? '');
  return imports.filter(({ from, to, module }) => isLibrary(from) && isApi(to, module));
}

/** Every file-level import under `paths` as `{ from, to, module }` (repository paths; `module` as written); tests too unless `withTests` is false. */
async function fileImports(paths, withTests) {
  const result = await cruise(
    paths.map((path) => resolve(root, path)),
    {
      baseDir: root,
      tsPreCompilationDeps: true,
      doNotFollow: { path: 'node_modules' },
      exclude: { path: ['(^|/)(node_modules|dist|build)/', ...(withTests ? [] : ['\\.test\\.tsx?$'])] },
      combinedDependencies: true,
    },
    { extensions: ['.ts', '.tsx', '.mts', '.js', '.mjs', '.d.ts', '.json'] },
    { tsConfig: extractTSConfig(resolve(root, 'tsconfig.json')) },
  );
  const imports = [];
  for (const module of result.output.modules) {
    for (const dependency of module.dependencies) {
      if (dependency.coreModule) continue;
      const from = relative(root, resolve(root, module.source));
      // An unresolved `@norma/api/…` still counts for the library rule (workers/ does not declare the package).
      if (!dependency.resolved || dependency.couldNotResolve) {
        if (/^@norma\/api(\/|$)/.test(dependency.module)) imports.push({ from, to: dependency.module, module: dependency.module });
        continue;
      }
      imports.push({ from, to: relative(root, resolve(root, dependency.resolved)), module: dependency.module });
    }
  }
  return imports;
}

if (import.meta.main) {
  const pairs = mutualPairs(await fileImports(SCANNED, false));
  const intoApi = importsIntoApi(await fileImports(LIBRARIES, true));
  for (const { from, module } of intoApi) {
    console.error(
      `✖ библиотека workers/ импортирует API: ${from} → ${module}\n    workers/ не знает API; обработчик задачи — в домене API (api/src/<домен>/*.job.ts)`,
    );
  }
  const offending = pairs.filter((p) => !ALLOWED_PAIRS.has(p.pair));
  const stale = [...ALLOWED_PAIRS].filter((allowed) => !pairs.some((p) => p.pair === allowed));
  for (const { pair, forward, backward } of offending) {
    console.error(`✖ папки импортируют друг друга: ${pair}\n    ${forward.from} → ${forward.to}\n    ${backward.from} → ${backward.to}`);
  }
  for (const allowed of stale) console.error(`✖ пары ${allowed} больше нет: уберите её из ALLOWED_PAIRS в scripts/folder-pairs.mjs`);
  if (offending.length || stale.length || intoApi.length) process.exit(1);
  console.log(ALLOWED_PAIRS.size ? `folder pairs: none (${ALLOWED_PAIRS.size} allowed for now)` : 'folder pairs: none');
  console.log('workers/ → api/: none');
}
