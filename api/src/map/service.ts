import { sql, type Selectable } from 'kysely';
import type { SessionUser } from '../http/env';
import type { Db } from '../db/database';
import type { ObjectStore } from '../storage/object-store';
import type { MapProjectsTable } from '../db/schema';
import { ApiError, badRequest, conflict, notFound, validationMessage } from '../http/errors';
import { enqueueJob } from '../jobs/queue';
import type { z } from '@hono/zod-openapi';
import { ZodError } from 'zod';
import { CRS_KINDS as WORKER_CRS_KINDS, crsOfKind, crsProjection, defaultCrs, type CrsKind, type DwgTextEncoding, type ProjectCrs } from '@norma/workers/map';
import type { FeatureCollection, MapProject, MapProjectMetaReply, MapProjectsListReply } from './schema';
import { centreOf, collectionText, featuresText, isSmallZone, joinedFeatures, type PreparedDrawing, type SmallZone } from './drawing';
import { FEATURE_TYPES, ZONE_MIN_RADIUS_M } from './schema';

type FC = z.output<typeof FeatureCollection>;
type Row = Selectable<MapProjectsTable>;

export const MAP_ALGO_JOB = 'map.algo';
export const MAP_EXPORT_JOB = 'map.export';

export const emptyCollection = (): FC => ({ type: 'FeatureCollection', features: [] });
const EMPTY = collectionText('[]');
/** A collection as stored: every writer goes through collectionText (map/drawing.ts). */
const storedCollection = (fc: { features: readonly unknown[] }) => collectionText(JSON.stringify(fc.features));
const parse = (text: string | null): FC => (text ? (JSON.parse(text) as FC) : emptyCollection());

/** What export and preview draw: the drawn features and the generated ones (no info labels). */
export const drawingOf = (drawn: FC, general: FC): FC => ({ type: 'FeatureCollection', features: [...drawn.features, ...general.features] });

/** The project's stored coordinate reference, else (nothing stored yet) the default for its drawn features. */
export function projectCrs(row: Pick<Row, 'crs' | 'drawn_feature_collection'>): ProjectCrs | null {
  if (row.crs) return JSON.parse(row.crs) as ProjectCrs;
  return defaultCrs(parse(row.drawn_feature_collection));
}

function crsView(crs: ProjectCrs | null) {
  if (!crs) return { crs: null, crs_options: [] };
  const p = crsProjection(crs);
  return {
    crs: { kind: p.crs.kind, zone: p.crs.zone ?? null, lon: p.crs.lon, lat: p.crs.lat, name: p.name, definition: p.definition, epsg: p.epsg },
    crs_options: WORKER_CRS_KINDS.map((kind) => ({ kind, name: crsProjection(crsOfKind(kind, crs.lon, crs.lat)).name })),
  };
}

const NO_CURRENT = 'Нет текущего проекта карты: создайте проект';
const PROCESSING = 'Проект обрабатывается: дождитесь окончания алгоритма';
const OTHER_PROJECT = 'Текущий проект карты сменился: рисунок, сделанный без сети, относится к другому проекту';
const CHANGED_SINCE = 'Проект карты изменён на сервере после того, как рисунок был сделан без сети';
const SAVED_MEANWHILE = 'Проект карты одновременно сохраняют в другом окне: повторите сохранение';
/** The columns a drawing save keeps (it writes the drawn and drawing ones). */
const KEPT_BY_SAVE = [
  'id',
  'organization_id',
  'name',
  'is_processing',
  'is_golden',
  'info_feature_collection',
  'general_feature_collection',
  'golden_feature_collection',
  'updated_at',
  'job_id',
  'crs',
] as const satisfies readonly (keyof Row)[];

/** MapProject's collections: stored as JSON text, and sent as stored. */
const COLLECTIONS = ['drawn_feature_collection', 'info_feature_collection', 'general_feature_collection', 'drawing_feature_collection'] as const;
type ProjectReply = z.output<typeof MapProject>;

/**
 * The project as its reply's JSON text (MapProject). The collections are spliced in as stored:
 * a project of hundreds of thousands of points costs the thread no parsing and no serialising
 * (issue 24: that held every other call for ~200 ms per save). Stored texts were checked on the way in.
 */
export function projectText(row: Row): string {
  const head = {
    ...crsView(row.crs ? (JSON.parse(row.crs) as ProjectCrs) : null),
    id: row.id,
    name: row.name,
    is_processing: row.is_processing === 1,
    updated_at: row.updated_at,
  } satisfies Omit<ProjectReply, (typeof COLLECTIONS)[number] | 'golden'>;
  const collections = COLLECTIONS.map((key) => `,"${key}":${row[key] || EMPTY}`).join('');
  return `${JSON.stringify(head).slice(0, -1)}${collections},"golden":${row.golden_feature_collection || 'null'}}`;
}

export async function listProjects(db: Db, user: SessionUser): Promise<z.output<typeof MapProjectsListReply>> {
  const projects = await db.selectFrom('map_projects').select(['id', 'name']).where('organization_id', '=', user.organizationId).orderBy('id').execute();
  const current = await currentRow(db, user);
  return { projects, current_id: current?.id ?? null };
}

/**
 * The user's current project: the one stored for them if it is still in their organisation,
 * else the organisation's first one, else none. A read writes nothing (issue 24: GET projects/list
 * wrote); the first one is current until the user picks another (setCurrent) or creates one.
 */
async function currentId(db: Db, user: SessionUser): Promise<number | undefined> {
  const stored = await db
    .selectFrom('map_last_project')
    .innerJoin('map_projects', 'map_projects.id', 'map_last_project.project_id')
    .select('map_projects.id')
    .where('map_last_project.user_id', '=', user.id)
    .where('map_projects.organization_id', '=', user.organizationId)
    .executeTakeFirst();
  if (stored) return stored.id;
  const first = await db.selectFrom('map_projects').select('id').where('organization_id', '=', user.organizationId).orderBy('id').limit(1).executeTakeFirst();
  return first?.id;
}

export async function currentRow(db: Db, user: SessionUser): Promise<Row | undefined> {
  const id = await currentId(db, user);
  return id === undefined ? undefined : db.selectFrom('map_projects').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function requireCurrent(db: Db, user: SessionUser): Promise<Row> {
  const row = await currentRow(db, user);
  if (!row) throw notFound(NO_CURRENT);
  return row;
}

async function remember(db: Db, user: SessionUser, projectId: number) {
  await db
    .insertInto('map_last_project')
    .values({ user_id: user.id, project_id: projectId })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ project_id: projectId }))
    .execute();
}

async function projectInOrganization(db: Db, user: SessionUser, id: number): Promise<Row> {
  const row = await db.selectFrom('map_projects').selectAll().where('id', '=', id).where('organization_id', '=', user.organizationId).executeTakeFirst();
  if (!row) throw notFound('Проект карты не найден');
  return row;
}

export async function createProject(db: Db, user: SessionUser, name: string) {
  const row = await db
    .insertInto('map_projects')
    .values({ organization_id: user.organizationId, name, updated_at: Date.now() })
    .returningAll()
    .executeTakeFirstOrThrow();
  await remember(db, user, row.id);
  return projectText(row);
}

/** Spec 02 §5: deleting is allowed only when more than one project exists; new_id becomes current. */
export async function deleteProject(db: Db, user: SessionUser, deleteId: number, newId: number) {
  if (deleteId === newId) throw badRequest('Новый текущий проект должен отличаться от удаляемого');
  await db.transaction().execute(async (trx) => {
    const count = await trx
      .selectFrom('map_projects')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('organization_id', '=', user.organizationId)
      .executeTakeFirstOrThrow();
    if (Number(count.n) <= 1) throw badRequest('Нельзя удалить единственный проект');
    const doomed = await projectInOrganization(trx, user, deleteId);
    await projectInOrganization(trx, user, newId);
    if (doomed.is_processing) throw conflict('Проект обрабатывается: дождитесь окончания');
    await trx.deleteFrom('map_projects').where('id', '=', deleteId).execute();
    await remember(trx, user, newId);
  });
  return listProjects(db, user);
}

export async function setCurrent(db: Db, user: SessionUser, projectId: number) {
  const row = await projectInOrganization(db, user, projectId);
  await remember(db, user, row.id);
  return projectText(row);
}

export async function meta(db: Db, user: SessionUser): Promise<z.output<typeof MapProjectMetaReply>> {
  const row = await requireCurrent(db, user);
  const counts = Object.fromEntries(FEATURE_TYPES.map((t) => [t, 0])) as Record<(typeof FEATURE_TYPES)[number], number>;
  for (const fc of [row.drawn_feature_collection, row.general_feature_collection, row.info_feature_collection])
    for (const f of parse(fc).features) if (f.properties.type in counts) counts[f.properties.type] += 1;
  return { id: row.id, name: row.name, is_processing: row.is_processing === 1, updated_at: row.updated_at, feature_counts: counts, job_id: row.job_id };
}

async function writable(db: Db, user: SessionUser): Promise<Row> {
  const row = await requireCurrent(db, user);
  if (row.is_processing) throw conflict(PROCESSING);
  return row;
}

/**
 * How far a zone's centre (degrees) and radius (m) may move in a save's round trip through the editor
 * and still be the stored zone: the editor rounds coordinates to 7 decimals (about 1 cm) and a circle's
 * radius to whole metres (pwa/src/screens/map/drawing.ts). A zone moved or resized by hand moves more.
 */
const SAME_CENTRE_DEG = 1e-6;
const SAME_RADIUS_M = 0.5 + 1e-9;
/** Grid cell of the held zones' lookup, degrees: wider than SAME_CENTRE_DEG, so a match is in a cell or its neighbours. */
const CELL_DEG = 1e-5;

/** A zone circle under ZONE_MIN_RADIUS_M a project has held: lon, lat (its centre) and radius, m — map_projects.small_zones (0037). */
type HeldZone = [number, number, number];

/** The small zones of a stored drawing, as small_zones records them. */
function smallZonesOf(storedDrawn: string | null): HeldZone[] {
  return parse(storedDrawn).features.flatMap(({ properties: p, geometry }) => (isSmallZone(p) ? [[...centreOf(geometry), p.radius!] as HeldZone] : []));
}

/** The small zones of a save that the project never held (same centre and radius, within a round trip). */
function newSmallZones(held: HeldZone[], small: SmallZone[]): SmallZone[] {
  const cell = (lon: number, lat: number) => `${Math.round(lon / CELL_DEG)},${Math.round(lat / CELL_DEG)}`;
  const cells = new Map<string, HeldZone[]>();
  for (const zone of held) cells.set(cell(zone[0], zone[1]), [...(cells.get(cell(zone[0], zone[1])) ?? []), zone]);
  const isHeld = ({ centre: [lon, lat], radius }: SmallZone) =>
    [-1, 0, 1].some((dx) =>
      [-1, 0, 1].some((dy) =>
        (cells.get(cell(lon + dx * CELL_DEG, lat + dy * CELL_DEG)) ?? []).some(
          (z) => Math.abs(z[0] - lon) <= SAME_CENTRE_DEG && Math.abs(z[1] - lat) <= SAME_CENTRE_DEG && Math.abs(z[2] - radius) <= SAME_RADIUS_M,
        ),
      ),
    );
  return small.filter((zone) => !isHeld(zone));
}

/**
 * Refuses a save that draws or changes a zone circle under ZONE_MIN_RADIUS_M (docs/map.md «Наименьшая
 * зона»): 400 in the form a failed validation has, as when the schema checked it. A zone the project held
 * before the rule, unchanged, is kept — also after it was deleted and comes back (undo): moving a road in
 * last month's project must not need every old zone redrawn.
 */
function refuseNewSmallZones(held: HeldZone[], small: SmallZone[]) {
  const refused = newSmallZones(held, small).map(
    (z) => `${z.which}: радиус ${String(Math.round(z.radius * 10) / 10).replace('.', ',')} м — меньше наименьшего, ${ZONE_MIN_RADIUS_M} м`,
  );
  if (refused.length === 0) return;
  // The first few by name: a drawing of thousands of tiny zones is one readable message.
  const message = refused.slice(0, 3).join('; ') + (refused.length > 3 ? ` и ещё ${refused.length - 3}` : '');
  const error = new ZodError([{ code: 'custom', path: ['features'], message, input: undefined }]);
  throw new ApiError(400, 'validation_failed', validationMessage(error), error.issues);
}

/**
 * The project's version after a write: its time, and always above the version read, so that a save
 * conditional on the version it read (saveDrawn) never takes a write of the same millisecond for none.
 */
const nextVersion = (read: number | string) => Math.max(Date.now(), Number(read) + 1);
/** nextVersion in SQL, for writes that do not read the version first. */
function bumpedVersion() {
  const now = Date.now();
  return sql<number>`CASE WHEN updated_at >= ${now} THEN updated_at + 1 ELSE ${now} END`;
}

/** How many times an online save (no base) is checked again against a project another save changed meanwhile. */
const SAVE_ATTEMPTS = 3;

/**
 * Saves the drawn features; the generated network stays (an algorithm run replaces it), unless
 * undo/redo restores a snapshot's own network and labels (`restore`). The drawing comes checked
 * and serialised from the document thread (map/drawing.ts): it is stored and answered as that text.
 * The write applies only to the version its checks read (issue 46): a save that lost the race to
 * another is checked again against the new version (a queued save's base then no longer matches: 409).
 */
export async function saveDrawn(db: Db, user: SessionUser, drawing: PreparedDrawing): Promise<string> {
  const id = await currentId(db, user);
  if (id === undefined) throw notFound(NO_CURRENT);
  for (let attempt = 1; ; attempt++) {
    const saved = await saveOnce(db, id, drawing);
    if (saved !== null) return saved;
    if (attempt >= SAVE_ATTEMPTS) throw conflict(SAVED_MEANWHILE);
  }
}

/** One try of saveDrawn: the project's text, or null when another write changed the project after it was read. */
async function saveOnce(db: Db, id: number, drawing: PreparedDrawing): Promise<string | null> {
  // Not the drawn and drawing texts the save replaces: megabytes read on this thread for nothing.
  const row = await db
    .selectFrom('map_projects')
    .select([...KEPT_BY_SAVE, 'small_zones'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound(NO_CURRENT);
  if (row.is_processing) throw conflict(PROCESSING);
  if (drawing.base) {
    if (drawing.base.projectId !== row.id) throw conflict(OTHER_PROJECT);
    if (drawing.base.updatedAt !== Number(row.updated_at)) {
      // The resend of a queued save whose first answer was lost: already stored, nothing to apply twice.
      const stored = await db.selectFrom('map_projects').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow();
      if (stored.drawn_feature_collection === collectionText(drawing.drawn)) return projectText(stored);
      throw conflict(CHANGED_SINCE);
    }
  }
  // Not recorded yet (a project from before 0037): the stored drawing's small zones, read once, recorded by this save.
  const smallZones =
    row.small_zones ??
    JSON.stringify(
      smallZonesOf(
        (await db.selectFrom('map_projects').select('drawn_feature_collection').where('id', '=', row.id).executeTakeFirstOrThrow()).drawn_feature_collection,
      ),
    );
  if (drawing.smallZones.length > 0) refuseNewSmallZones(JSON.parse(smallZones) as HeldZone[], drawing.smallZones);
  const general = drawing.restore ? drawing.restore.general : featuresText(row.general_feature_collection);
  const restored = drawing.restore
    ? { general_feature_collection: collectionText(drawing.restore.general), info_feature_collection: collectionText(drawing.restore.info) }
    : {};
  const set = {
    drawn_feature_collection: collectionText(drawing.drawn),
    // What export and preview draw: drawingOf, spliced as text.
    drawing_feature_collection: collectionText(joinedFeatures(drawing.drawn, general)),
    // The first drawing fixes the project's coordinate reference; later saves never move it.
    crs: row.crs ?? drawing.firstCrs,
    small_zones: smallZones,
    ...restored,
    updated_at: nextVersion(row.updated_at),
  };
  const updated = await db
    .updateTable('map_projects')
    .set(set)
    .where('id', '=', row.id)
    .where('is_processing', '=', 0)
    .where('updated_at', '=', row.updated_at)
    .returning('id')
    .executeTakeFirst();
  if (!updated) return null;
  return projectText({ ...row, ...set });
}

export async function clearProject(db: Db, user: SessionUser) {
  const row = await writable(db, user);
  const empty = EMPTY;
  const updated = await db
    .updateTable('map_projects')
    .set({
      drawn_feature_collection: empty,
      general_feature_collection: empty,
      info_feature_collection: empty,
      drawing_feature_collection: empty,
      // The small zones this drawing held, if not recorded yet (parsed only then): undo of «Удалить всё» brings them back.
      ...(row.small_zones === null ? { small_zones: sql<string>`COALESCE(small_zones, ${JSON.stringify(smallZonesOf(row.drawn_feature_collection))})` } : {}),
      updated_at: bumpedVersion(),
    })
    .where('id', '=', row.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return projectText(updated);
}

/**
 * The analyst picks the project's coordinate reference: the local grid or a national one (СК-42
 * Gauss–Krüger or UTM, the zone of the project's anchor). The anchor itself never moves.
 */
export async function setCrs(db: Db, user: SessionUser, kind: CrsKind) {
  const row = await writable(db, user);
  const current = projectCrs(row);
  if (!current) throw badRequest('Сначала нарисуйте что-нибудь: система координат привязывается к рисунку');
  const updated = await db
    .updateTable('map_projects')
    .set({ crs: JSON.stringify(crsOfKind(kind, current.lon, current.lat)), updated_at: bumpedVersion() })
    .where('id', '=', row.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return projectText(updated);
}

/** Stores the current drawing (drawn + generated) as the golden standard of the project. */
export async function saveGolden(db: Db, user: SessionUser) {
  const row = await writable(db, user);
  const drawing = drawingOf(parse(row.drawn_feature_collection), parse(row.general_feature_collection));
  if (drawing.features.length === 0) throw badRequest('Нечего сохранять как эталон: проект пуст');
  const updated = await db
    .updateTable('map_projects')
    .set({ golden_feature_collection: storedCollection(drawing), is_golden: 1, updated_at: bumpedVersion() })
    .where('id', '=', row.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return projectText(updated);
}

/** Queues an algorithm run; the project is processing until the job ends (either way). */
export async function startAlgo(db: Db, user: SessionUser, algoTag: string): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const row = await writable(trx, user);
    const jobId = await enqueueJob(trx, {
      kind: MAP_ALGO_JOB,
      payload: { project_id: row.id, algo_tag: algoTag },
      organizationId: user.organizationId,
      maxAttempts: 1,
    });
    await trx.updateTable('map_projects').set({ is_processing: 1, job_id: jobId }).where('id', '=', row.id).execute();
    return jobId;
  });
}

/** Queues a CAD export of the current project: DXF or DWG (AutoCAD 2000), docs/map.md «Выгрузка в CAD». */
export async function startExport(db: Db, user: SessionUser, format: 'dxf' | 'dwg', textEncoding: DwgTextEncoding = 'unicode'): Promise<number> {
  const row = await requireCurrent(db, user);
  // The DWG's text encoding goes with the job (DXF has none to choose).
  const payload = format === 'dwg' ? { project_id: row.id, format, text_encoding: textEncoding } : { project_id: row.id, format };
  return enqueueJob(db, { kind: MAP_EXPORT_JOB, payload, organizationId: user.organizationId, maxAttempts: 2 });
}

async function exportJob(db: Db, user: SessionUser, jobId: number) {
  const job = await db
    .selectFrom('jobs')
    .select(['status', 'error', 'result', 'progress'])
    .where('id', '=', jobId)
    .where('kind', '=', MAP_EXPORT_JOB)
    .where('organization_id', '=', user.organizationId)
    .executeTakeFirst();
  if (!job) throw notFound('Задача выгрузки не найдена');
  return job;
}

/** The export job's state as the status call answers it. */
export async function exportStatus(db: Db, user: SessionUser, jobId: number) {
  const job = await exportJob(db, user, jobId);
  return { status: job.status, progress: job.progress, ...(job.error ? { error: job.error } : {}) };
}

/** A finished export's stored files (400 until the job has succeeded). */
async function finishedExport(db: Db, user: SessionUser, jobId: number) {
  const job = await exportJob(db, user, jobId);
  if (job.status !== 'success' || !job.result) throw badRequest('Чертёж ещё не готов');
  return JSON.parse(job.result) as { key: string; filename: string; prj_key?: string };
}

/** Where a finished export is downloaded: the drawing, and its .prj when it has one. */
export async function exportLinks(db: Db, user: SessionUser, jobId: number) {
  const { filename, prj_key } = await finishedExport(db, user, jobId);
  const prj = prj_key ? { prj_url: `/api/v1/dwg/download?work_item_id=${jobId}&file=prj`, prj_filename: 'output.prj' } : {};
  return { url: `/api/v1/dwg/download?work_item_id=${jobId}`, filename, ...prj };
}

/** The stored file a download sends (the drawing, or file=prj its .prj), with its name and media type; 404 when it is missing. */
export async function exportFile(db: Db, storage: ObjectStore, user: SessionUser, jobId: number, file?: 'drawing' | 'prj') {
  const result = await finishedExport(db, user, jobId);
  if (file === 'prj' && !result.prj_key) throw notFound('У этого чертежа нет файла .prj');
  const [key, filename] = file === 'prj' ? [result.prj_key!, 'output.prj'] : [result.key, result.filename];
  if (!(await storage.exists(key))) throw notFound('Файл чертежа не найден в хранилище');
  const contentType = filename.endsWith('.dwg') ? 'application/acad' : filename.endsWith('.prj') ? 'text/plain; charset=utf-8' : 'application/dxf';
  return { key, filename, contentType };
}

export async function projectRow(db: Db, id: number): Promise<Row | undefined> {
  return db.selectFrom('map_projects').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A map.algo job that ends without a result (failed, given up): the project is free again, unless a newer job took it. */
export async function releaseProject(db: Db, projectId: number, jobId: number) {
  await db.updateTable('map_projects').set({ is_processing: 0, job_id: null }).where('id', '=', projectId).where('job_id', '=', jobId).execute();
}

/**
 * A map.algo job's result: the generated network and info labels, and the drawing they make with the
 * drawn features the job started from; the project is free again.
 */
export async function storeAlgoResult(db: Db, projectId: number, drawn: FC, out: { general: FC; info: { features: readonly unknown[] } }) {
  await db
    .updateTable('map_projects')
    .set({
      general_feature_collection: storedCollection(out.general),
      info_feature_collection: storedCollection(out.info),
      drawing_feature_collection: storedCollection(drawingOf(drawn, out.general)),
      is_processing: 0,
      job_id: null,
      updated_at: bumpedVersion(),
    })
    .where('id', '=', projectId)
    .execute();
}

/** A project from before 0016 gets its coordinate reference on its first export, so the next export uses the same one. */
export async function fixProjectCrs(db: Db, projectId: number, crs: ProjectCrs) {
  await db
    .updateTable('map_projects')
    .set({ crs: JSON.stringify(crs) })
    .where('id', '=', projectId)
    .where('crs', 'is', null)
    .execute();
}

export { parse as parseCollection };
