/**
 * Report engine: WASM core vs the plain TypeScript reference, in one run, in Bun.
 *   node_modules/.bin/bun bench/report-engine.bench.ts   (build core-wasm first)
 * The cases live in report-engine-cases.ts (the Chromium run times the same ones).
 * Writes bench/results/report-engine.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as wasm from '../core-wasm/src/index.ts';
import * as reference from '../core-wasm/test-support/reference.ts';
import { runCases } from './report-engine-cases.ts';

await wasm.loadCore();
const cases = runCases(wasm, reference);

const out = join(dirname(fileURLToPath(import.meta.url)), 'results', 'report-engine.json');
mkdirSync(dirname(out), { recursive: true });
const runtime = typeof Bun !== 'undefined' ? `bun ${Bun.version}` : `node ${process.version}`;
writeFileSync(out, JSON.stringify({ name: 'report-engine', date: new Date().toISOString(), runtime, cases }, null, 2) + '\n');
console.log(`written ${out}`);
