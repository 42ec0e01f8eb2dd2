// `npm test`: the static checks (typecheck, lint, format; scripts/check.mjs), then every test (unit,
// API contract, end-to-end in Chromium) under Bun + Vitest. Each check counts as one passed or failed
// item. Ends with the line "N passed, N failed" and a non-zero exit code on any failure.
// With arguments (`npm test -- api/src/auth`) only those tests run, without the checks.
// First the Debian packages the tests use (scripts/system-deps.sh): as root the missing ones are
// installed; otherwise the whole run stops naming them and the one command to run, while a partial
// run only warns and goes on (the tests it picked may not need them).
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { runChecks, checks } from './check.mjs';
import { bun, ensureSystemPackages, prepare, root, run } from './lib.mjs';

const startedAt = Date.now();
const partial = process.argv.length > 2;
ensureSystemPackages('test', { strict: !partial });
prepare();
const failedChecks = partial ? [] : runChecks();
const reportDir = join(root, 'node_modules', '.cache', 'norma-test');
mkdirSync(reportDir, { recursive: true });
// One report per test command: two runs at once (two terminals) must not read each other's counts.
const report = join(reportDir, `vitest-report-${process.pid}.json`);

/** One vitest run; its counts from the JSON report (no report: vitest did not get as far as running, one failure). */
function vitest(args, env = {}) {
  rmSync(report, { force: true });
  const status = run(
    bun,
    [
      '--bun',
      join(root, 'node_modules', '.bin', 'vitest'),
      'run',
      '--pool=threads',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${report}`,
      ...args,
    ],
    {
      env: { ...process.env, ...env },
    },
  );
  const results = existsSync(report) ? JSON.parse(readFileSync(report, 'utf8')) : null;
  // A file that fails to load has no failed test but a failed suite: count it once.
  let failed = results ? results.numFailedTests || results.numFailedTestSuites || 0 : 1;
  if (status !== 0 && failed === 0) failed = 1;
  return {
    status,
    passed: results?.numPassedTests ?? 0,
    failed,
    skipped: (results?.numPendingTests ?? 0) + (results?.numTodoTests ?? 0),
    failures: failureLines(results),
  };
}

/** "file › test: first line of the error" for every failed test or file, so the last lines of a long log name them. */
function failureLines(results) {
  const lines = [];
  for (const file of results?.testResults ?? []) {
    const name = file.name.startsWith(root) ? file.name.slice(root.length + 1) : file.name;
    const failedTests = (file.assertionResults ?? []).filter((t) => t.status === 'failed');
    for (const t of failedTests) lines.push(`${name} › ${t.fullName}: ${failureText(t.failureMessages?.[0], name)}`);
    if (file.status === 'failed' && failedTests.length === 0) lines.push(`${name}: ${firstLine(file.message)}`);
  }
  return lines;
}

function firstLine(text) {
  return (text ?? '').split('\n')[0].slice(0, 300);
}

/**
 * A failed assertion as CI's last lines must show it to be understood without the rest of the log:
 * its message with the expected/received diff (at most 40 lines) and the line of the test file it
 * failed at.
 */
function failureText(text, file) {
  const lines = (text ?? '').split('\n');
  const stackStart = lines.findIndex((line) => /^\s+at /.test(line));
  const message = (stackStart === -1 ? lines : lines.slice(0, stackStart)).filter((line) => line.trim() !== '');
  const at = lines.slice(Math.max(stackStart, 0)).find((line) => line.includes(file));
  const shown = message.slice(0, 40).map((line) => line.slice(0, 300));
  if (message.length > shown.length) shown.push(`… ещё ${message.length - shown.length} строк`);
  if (at) shown.push(at.trim());
  return shown.join('\n    ');
}

const runs = [vitest(process.argv.slice(2))];
// The whole run also repeats the API suite on PostgreSQL (a cluster of its own, tests/support/postgres.ts).
if (!partial) {
  console.log('→ API на PostgreSQL');
  runs.push(vitest(['api/src', 'tests/api/openapi-fuzz.test.ts'], { NORMA_TEST_DATABASE: 'postgres' }));
}
let passed = runs.reduce((sum, r) => sum + r.passed, 0);
let failed = runs.reduce((sum, r) => sum + r.failed, 0);
const skipped = runs.reduce((sum, r) => sum + r.skipped, 0);
const status = runs.some((r) => r.status !== 0) ? 1 : 0;
rmSync(report, { force: true });
if (!partial) {
  passed += checks.length - failedChecks.length;
  failed += failedChecks.length;
  if (failedChecks.length) console.log(`✖ проверки не прошли: ${failedChecks.join('; ')}`);
}
for (const line of runs.flatMap((r) => r.failures)) console.log(`✖ ${line}`);
const elapsed = Math.round((Date.now() - startedAt) / 1000);
console.log(`Время прогона: ${Math.floor(elapsed / 60)} мин ${elapsed % 60} с`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 || status !== 0 ? 1 : 0);
