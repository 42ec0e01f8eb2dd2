// `npm test`: every test (unit, API contract, end-to-end in Chromium) under Bun + Vitest.
// Ends with the line "N passed, N failed" and a non-zero exit code on any failure.
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { bun, prepare, root, run } from './lib.mjs';

prepare();
const reportDir = join(root, 'node_modules', '.cache', 'norma-test');
mkdirSync(reportDir, { recursive: true });
const report = join(reportDir, 'vitest-report.json');
rmSync(report, { force: true });

const status = run(bun, [
  '--bun', join(root, 'node_modules', '.bin', 'vitest'), 'run', '--pool=threads',
  '--reporter=default', '--reporter=json', `--outputFile.json=${report}`,
  ...process.argv.slice(2),
]);

let passed = 0;
let failed = 0;
let skipped = 0;
if (existsSync(report)) {
  const results = JSON.parse(readFileSync(report, 'utf8'));
  passed = results.numPassedTests ?? 0;
  // A file that fails to load has no failed test but a failed suite: count it once.
  failed = results.numFailedTests || results.numFailedTestSuites || 0;
  skipped = (results.numPendingTests ?? 0) + (results.numTodoTests ?? 0);
} else {
  failed = 1;
}
if (status !== 0 && failed === 0) failed = 1;
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 || status !== 0 ? 1 : 0);
