// `npm run bench`: runs every bench/*.bench.ts with Bun; each writes bench/results/<name>.json.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { bun, prepare, root, run } from './lib.mjs';

prepare();
const only = process.argv[2];
const files = readdirSync(join(root, 'bench')).filter((f) => f.endsWith('.bench.ts') && (!only || f.includes(only))).sort();
let failures = 0;
for (const file of files) {
  console.log(`\n=== ${file}`);
  if (run(bun, [join('bench', file)]) !== 0) failures++;
}
process.exit(failures ? 1 : 0);
