// Static checks of every workspace, run by `npm test` before the tests (and alone by `npm run check`):
// typecheck (api, workers, tests, bench, loader and configs; the PWA's generated API types are current; pwa; pwa's vite config; core-wasm),
// ESLint with no warnings allowed, Prettier's format check, boundaries (scripts/folder-pairs.mjs: no
// two folders import each other, and workers/ imports nothing of api/; scripts/table-owners.mjs: each
// table written by one folder), and
// dead code (knip, knip.json): files and exports nobody imports. Dead code is checked twice: with the
// tests as importers (a test-support module's exports count as used when a test imports them), then
// for the product alone (--production: an export of product code that only tests import is dead,
// unless tagged @internal). Needs core-wasm built first.
import { join } from 'node:path';
import { bun, prepare, root, run } from './lib.mjs';

const bin = (name) => join(root, 'node_modules', '.bin', name);

export const checks = [
  { name: 'typecheck: api, workers, tests, bench, loader, configs', command: bin('tsc'), args: ['-p', 'tsconfig.json'] },
  { name: 'api types: pwa/src/api/schema.gen.ts matches the routes (npm run api-types)', command: bun, args: ['scripts/api-types.mjs', '--check'] },
  { name: 'typecheck: pwa', command: bin('tsc'), args: ['-p', 'pwa/tsconfig.json'] },
  { name: 'typecheck: pwa vite config', command: bin('tsc'), args: ['-p', 'pwa/tsconfig.node.json'] },
  { name: 'typecheck: core-wasm', command: bin('tsc'), args: ['-p', 'core-wasm/tsconfig.json'] },
  { name: 'lint (eslint, no warnings)', command: bin('eslint'), args: ['.', '--max-warnings', '0'] },
  { name: 'format (prettier --check)', command: bin('prettier'), args: ['--check', '--log-level', 'warn', '.'] },
  {
    name: 'boundaries: no two folders import each other, workers/ imports nothing of api/ (dependency-cruiser)',
    command: bun,
    args: ['scripts/folder-pairs.mjs'],
  },
  { name: 'boundaries: each table written by its owner folder only', command: bun, args: ['scripts/table-owners.mjs'] },
  { name: 'boundaries: SQL only in services, the database layer and the job queue (api/src)', command: bun, args: ['scripts/sql-placement.mjs'] },
  { name: 'dead code: files and exports nobody imports (knip)', command: bin('knip'), args: ['--no-progress', '--no-config-hints'] },
  {
    name: 'dead code: product exports only tests import (knip --production)',
    command: bin('knip'),
    args: ['--no-progress', '--no-config-hints', '--production'],
  },
];

/** Runs every check (all of them, even after a failure); returns the names of those that failed. */
export function runChecks() {
  const failed = [];
  for (const check of checks) {
    console.log(`→ ${check.name}`);
    if (run(check.command, check.args) !== 0) failed.push(check.name);
  }
  return failed;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  prepare();
  const failed = runChecks();
  console.log(failed.length ? `✖ не прошли: ${failed.join('; ')}` : '✓ все проверки прошли');
  process.exit(failed.length ? 1 : 0);
}
