// Table-owner check (run by `npm run check`, so also by `npm test`): each table is written by one
// folder's code. The scan reads the product code of `api/src` and `workers/src` (tests excluded) for
// writes — Kysely's `insertInto('t')`, `updateTable('t')`, `deleteFrom('t')`, `replaceInto('t')`,
// `mergeInto('t')` and raw SQL `INSERT INTO t`, `UPDATE t`, `DELETE FROM t` — folds each file into
// its folder (as scripts/folder-pairs.mjs does) and fails on a write from a folder that does not own
// the table, naming the file and line. A write through a variable (`insertInto(table)`) names no
// table and is not seen: keep such helpers inside the owning folder. Migrations (`api/src/db`) and the
// demo data (`api/src/seed`) write everything: they are not domains. A write the database makes
// itself (ON DELETE CASCADE) is not a write of the code. Runs under Bun, as folder-pairs.mjs does.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { folderOf } from './folder-pairs.mjs';

const root = resolve(import.meta.dirname, '..');

/** Folders that write any table: the schema's migrations and the demo data. */
const WRITE_ANY = new Set(['api/src/db', 'api/src/seed']);

/** Table → the one folder whose services write it (docs/architecture.md «Кто пишет таблицы»). */
export const OWNERS = {
  // auth/: accounts (better-auth's tables), organisations, roles, sign-in limits.
  user: 'api/src/auth',
  session: 'api/src/auth',
  account: 'api/src/auth',
  verification: 'api/src/auth',
  organizations: 'api/src/auth',
  memberships: 'api/src/auth',
  rate_limits: 'api/src/auth',
  sign_in_failures: 'api/src/auth',
  // admin/: what hangs on the organisation's tree (the tree itself is org/'s: admin/ imports org/).
  cameras: 'api/src/admin',
  workplaces: 'api/src/admin',
  employees: 'api/src/admin',
  // org/: the structure tree, a structure's report parameters, its operations.
  structures: 'api/src/org',
  structure_settings: 'api/src/org',
  shifts: 'api/src/org',
  operations: 'api/src/org',
  operation_types: 'api/src/org',
  // video/: recordings and their history.
  videos: 'api/src/video',
  activities: 'api/src/video',
  // markup/: all markup and its saves.
  markups: 'api/src/markup',
  markup_saves: 'api/src/markup',
  video_stamps: 'api/src/markup',
  video_stamp_types: 'api/src/markup',
  model_rejections: 'api/src/markup',
  // vision/: models, areas, stands, movables.
  models: 'api/src/vision',
  model_operations: 'api/src/vision',
  model_video_areas: 'api/src/vision',
  video_areas: 'api/src/vision',
  stands: 'api/src/vision',
  absolute_locations: 'api/src/vision',
  stand_locations: 'api/src/vision',
  movables: 'api/src/vision',
  movable_locations: 'api/src/vision',
  // events/: event analytics (issue 44) — tracker runs and tracks, calibrations, zones.
  event_trackings: 'api/src/events',
  event_tracks: 'api/src/events',
  event_calibrations: 'api/src/events',
  event_zones: 'api/src/events',
  event_figures: 'api/src/events',
  // live/: camera streams, their recorders' leases, gaps and recorded segments (issue 45).
  camera_streams: 'api/src/live',
  recording_gaps: 'api/src/live',
  stream_segments: 'api/src/live',
  // map/.
  map_projects: 'api/src/map',
  map_last_project: 'api/src/map',
  cadastral_parcels: 'api/src/map',
  // report/.
  share_keys: 'api/src/report',
  report_products: 'api/src/report',
  reference_stability: 'api/src/report',
  // the rest.
  jobs: 'api/src/jobs',
  norm_cards: 'api/src/norms',
  norm_approvers: 'api/src/norms',
  norm_line_scenarios: 'api/src/norms',
  calculator_defaults: 'api/src/calculator',
  calculator_gear: 'api/src/calculator',
  calculator_license: 'api/src/calculator',
  feedback: 'api/src/site',
  captcha_used: 'api/src/site',
};

const SCANNED = ['api/src', 'workers/src'];
const KYSELY = /\b(?:insertInto|updateTable|deleteFrom|replaceInto|mergeInto)\(\s*['"`]([a-z_]+)(?:\s+as\s+\w+)?['"`]/g;
const RAW = /\b(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+"?([a-z_]+)"?/g;

/** Every literal write in a source text: `{ table, line }` (raw SQL only where the name is a known table). */
export function writesIn(text) {
  const found = [];
  const lineAt = (index) => text.slice(0, index).split('\n').length;
  for (const match of text.matchAll(KYSELY)) found.push({ table: match[1], line: lineAt(match.index) });
  for (const match of text.matchAll(RAW)) if (match[1] in OWNERS) found.push({ table: match[1], line: lineAt(match.index) });
  return found;
}

/** Writes from a folder that does not own the table, and writes to tables with no owner. */
export function strayWrites(files) {
  const stray = [];
  for (const { path, text } of files) {
    const folder = folderOf(path);
    if (!folder || WRITE_ANY.has(folder)) continue;
    for (const { table, line } of writesIn(text)) {
      const owner = OWNERS[table];
      if (owner !== folder) stray.push({ path, line, table, owner: owner ?? null });
    }
  }
  return stray;
}

function sourceFiles(dir) {
  const files = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!['node_modules', 'dist', 'build', 'migrations'].includes(entry.name)) files.push(...sourceFiles(path));
    } else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) files.push(path);
  }
  return files;
}

if (import.meta.main) {
  const files = SCANNED.flatMap((base) => sourceFiles(join(root, base))).map((file) => ({ path: relative(root, file), text: readFileSync(file, 'utf8') }));
  const stray = strayWrites(files);
  for (const { path, line, table, owner } of stray) {
    console.error(
      owner
        ? `✖ ${path}:${line} пишет таблицу ${table}, а её владелец — ${owner}: позовите функцию его сервиса`
        : `✖ ${path}:${line} пишет таблицу ${table}, у которой нет владельца: добавьте её в OWNERS (scripts/table-owners.mjs)`,
    );
  }
  if (stray.length) process.exit(1);
  console.log(`table owners: every write from its owner (${Object.keys(OWNERS).length} tables)`);
}
