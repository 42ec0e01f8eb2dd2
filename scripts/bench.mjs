// `npm run bench [-- NAME] [-- --check]`: runs every bench/*.bench.ts (or those whose file name contains
// NAME) with Bun; each writes bench/results/<name>.json. With --check, the figures just written are
// then held to bench/budgets.json and any budget missed fails the run.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { checkBudgets } from './bench-budgets.mjs';
import { bun, prepare, root, run } from './lib.mjs';

prepare();
const args = process.argv.slice(2);
const check = args.includes('--check');
const only = args.find((arg) => !arg.startsWith('--'));
const files = readdirSync(join(root, 'bench'))
  .filter((f) => f.endsWith('.bench.ts') && (!only || f.includes(only)))
  .sort();
let failures = 0;
for (const file of files) {
  console.log(`\n=== ${file}`);
  if (run(bun, [join('bench', file)]) !== 0) failures++;
}
if (check) {
  const { lines, failed } = checkBudgets(files.map((file) => file.replace(/\.bench\.ts$/, '')));
  console.log(`\n=== бюджеты (bench/budgets.json)\n${lines.join('\n')}`);
  failures += failed;
}
process.exit(failures ? 1 : 0);
