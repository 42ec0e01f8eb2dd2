// SQL-placement check (run by `npm run check`, so also by `npm test`): queries live in services.
// CONTRIBUTING.md «Добавить вызов API»: routes only check input and access and call the service; the
// SQL is in the domain's `service.ts` or `*.service.ts`. This script reads every file of `api/src` and
// fails on a query anywhere else, naming the file, its lines and the count of such files.
//
// What counts as a query (a regex per line, simple on purpose): a Kysely query starter —
// `.selectFrom(`, `.selectNoFrom(`, `.insertInto(`, `.replaceInto(`, `.updateTable(`, `.deleteFrom(`,
// `.mergeInto(` —, running a built query or a transaction — `.execute(`, `.executeQuery(` — and the
// `sql` tagged template (`sql\`…\``, `sql<T>\`…\``). Lines that are comments (starting with `//`, `/*`
// or `*`) are skipped. A query built in one file and run in another is seen where it is built; a
// helper that takes a query builder from elsewhere is not seen, so keep builders in services too.
//
// Allowed, and only these: services (`service.ts`, `*.service.ts`), the database layer (`api/src/db/`:
// connection, schema, migrations, backup), the jobs table's service (`api/src/jobs/queue.ts`) and
// tests (`*.test.ts`). Job handlers (`*.job.ts`) are not: they write through the domains' services.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const SCANNED = 'api/src';

/** Files that may hold queries (paths relative to the repository, `/` separators). */
const ALLOWED = [
  { rule: 'a service', test: (path) => /(^|\/|\.)service\.ts$/.test(path) },
  { rule: 'the database layer', test: (path) => path.startsWith('api/src/db/') },
  { rule: "the jobs table's service", test: (path) => path === 'api/src/jobs/queue.ts' },
  { rule: 'a test', test: (path) => /\.test\.tsx?$/.test(path) },
];

const QUERY = /\.(?:selectFrom|selectNoFrom|insertInto|replaceInto|updateTable|deleteFrom|mergeInto|execute|executeQuery)\(|\bsql(?:<[^`]*?>)?`/;
const COMMENT = /^\s*(?:\/\/|\/\*|\*)/;

/** The lines (1-based) of a source text that hold a query. */
function queryLines(text) {
  const lines = [];
  text.split('\n').forEach((line, i) => {
    if (!COMMENT.test(line) && QUERY.test(line)) lines.push(i + 1);
  });
  return lines;
}

const isAllowed = (path) => ALLOWED.some(({ test }) => test(path));

function sourceFiles(dir) {
  const files = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...sourceFiles(path));
    else if (/\.tsx?$/.test(entry.name)) files.push(path);
  }
  return files;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const offending = [];
  for (const file of sourceFiles(join(root, SCANNED))) {
    const path = relative(root, file).split('\\').join('/');
    if (isAllowed(path)) continue;
    const lines = queryLines(readFileSync(file, 'utf8'));
    if (lines.length) offending.push({ path, lines });
  }
  for (const { path, lines } of offending) {
    console.error(`✖ ${path}:${lines.join(',')} — запрос к базе вне сервиса: перенесите его в service.ts или *.service.ts домена`);
  }
  if (offending.length) {
    console.error(`✖ файлов с запросами вне сервисов: ${offending.length}`);
    process.exit(1);
  }
  console.log(`sql placement: queries only in services, api/src/db and api/src/jobs/queue.ts (${ALLOWED.length} allowed places)`);
}
