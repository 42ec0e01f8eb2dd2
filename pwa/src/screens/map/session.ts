import { api, ApiCallError, type ApiInit } from '../../api/client';
import { pollUntil, waitForJob as jobEnded } from '../../api/jobs';
import type { HtmlMenuReply, MapAlgoTag, MapFeature, MapFeatureCollection, MapProject, MapProjectCrsSetBody, MapProjectsListReply } from '../../api/types';
import { dropQueuedDrawing, queuedDrawing, queueMapSave, rememberProject } from '../../offline/mapOutbox';
import { History, type Change } from '../../state/history';
import { login } from '../../state/login';
import type { onMapSaveReplayed } from '../../state/outboxSync';
import { SessionStore } from '../../state/session-store';
import { notify } from '../../status/notifications';

/** The body of a save: the drawing as the editor holds it (the document renders a coordinate pair looser than the schema checks it). */
type MapSaveBody = ApiInit<'/api/v1/projects/last/save', 'post'>['body'];

/** A drawing sent offline reaching the server (or refused), as the outbox tells the open screen. */
type ReplayOutcome = Parameters<Parameters<typeof onMapSaveReplayed>[0]>[0];

/** What undo/redo restore: the drawn features, the generated network and the labels. */
export interface Snapshot {
  drawn: MapFeatureCollection;
  general: MapFeatureCollection;
  info: MapFeatureCollection;
}

/**
 * The map project's undo/redo (spec 02 §4, §9): the project as it is now and up to 9 steps back
 * (10 states); each save or update adds one; a new step after an undo drops the redo tail.
 */
export const HISTORY_CAPACITY = 10;

/** How often a running algorithm is checked (the export's polling interval, spec 02 §4). */
export const POLL_MS = 1000;

/** What the screen is waiting for (shown as the busy state). */
export type Busy = null | 'loading' | 'saving' | 'processing';

const snapshotOf = (p: MapProject): Snapshot => ({ drawn: p.drawn_feature_collection, general: p.general_feature_collection, info: p.info_feature_collection });
const collection = (features: MapFeature[]): MapFeatureCollection => ({ type: 'FeatureCollection', features });
const sameCollection = (a: MapFeatureCollection, b: MapFeatureCollection) => a === b || JSON.stringify(a) === JSON.stringify(b);

/**
 * One history step between two states: the collections that changed, with their value before and
 * after. The drawing is always in it: every step (a save, an algorithm, delete all) is a step of the
 * drawing, even when it left the drawing as it was.
 */
export function snapshotDiff(before: Snapshot, after: Snapshot): Change<MapFeatureCollection>[] {
  return (['drawn', 'general', 'info'] as const)
    .filter((key) => key === 'drawn' || !sameCollection(before[key], after[key]))
    .map((key) => ({ key, before: before[key], after: after[key] }));
}

/** The state `changes` lead to from `from`. */
function applied(from: Snapshot, changes: Change<MapFeatureCollection>[]): Snapshot {
  const next = { ...from };
  for (const change of changes) next[change.key as keyof Snapshot] = change.after!;
  return next;
}

/** An offline opening shows the user's drawing still queued for this project over the cached project. */
async function withQueuedDrawing(project: MapProject): Promise<MapProject & { queued?: true }> {
  const queued = login.userLogin ? await queuedDrawing(login.userLogin, project.id).catch(() => undefined) : undefined;
  // Its id and updated_at stay the server's: the base a later offline save is queued on.
  return queued ? { ...project, drawn_feature_collection: queued.drawn, queued: true } : project;
}

/**
 * The map screen's data, outside React (spec 02 §4, §7 "Map projects and drawing"): the projects,
 * the current project, the type catalogue, saves, algorithm runs as jobs, and undo/redo as diffs
 * (state/history.ts, as the markup screen). `loaded` is the project as last changed on the server's
 * side (opened, an algorithm, undo/redo, delete all): what the map must redraw. A save of the
 * drawing itself changes `project` only. The screen subscribes (`useSession`) and calls its methods.
 */
export class MapSession extends SessionStore {
  projects: MapProjectsListReply | null = null;
  project: MapProject | null = null;
  catalogue: Pick<HtmlMenuReply, 'styles' | 'types' | 'zone_min_radius'> | null = null;
  busy: Busy = 'loading';
  loaded: MapProject | null = null;

  /** False once the screen is gone: late answers change nothing. */
  private alive = true;
  /** The project as the server last acknowledged it (not a drawing queued offline): the base of an offline save. */
  private acknowledged: MapProject | null = null;
  private readonly history = new History<MapFeatureCollection>(HISTORY_CAPACITY - 1);
  /** The state the history stands at (null: no project). */
  private present: Snapshot | null = null;

  /** The busy state the screen shows: a project whose algorithm still runs is processing. */
  get shownBusy(): Busy {
    return this.busy ?? (this.project?.is_processing ? 'processing' : null);
  }

  get canUndo() {
    return this.history.canUndo;
  }

  get canRedo() {
    return this.history.canRedo;
  }

  /** Loads the projects, the type catalogue and the current project; the returned stop ends the session's work. */
  start() {
    this.alive = true;
    void this.withBusy('loading', async () => {
      const [list, menu] = await Promise.all([this.loadList(), api.post('/api/v1/html_menu', { body: { type: 'area' } })]);
      if (!this.alive) return;
      this.catalogue = { styles: menu.styles, types: menu.types, zone_min_radius: menu.zone_min_radius };
      this.emit();
      await this.open(list.current_id === null ? null : await withQueuedDrawing(await api.get('/api/v1/projects/last/get')));
    });
    return () => {
      this.alive = false;
    };
  }

  /** The history starts over from one state (a project opened or switched), or empty. */
  private restart(snapshot: Snapshot | null) {
    this.history.clear();
    this.present = snapshot;
  }

  /** A new state recorded as one undoable step (an empty history just starts from it). */
  private step(next: Snapshot) {
    if (this.present) this.history.record({ label: '', changes: snapshotDiff(this.present, next) });
    this.present = next;
  }

  /** Shows a project; `reload` redraws the map from it. */
  private show(next: MapProject, reload: boolean, remember = true) {
    this.acknowledged = next;
    // An offline opening starts from the server's latest state, not an older read of it (an offline save's base);
    // a drawing still queued on the device is not the server's and is not kept as such.
    if (remember) void rememberProject(next).catch(() => {});
    this.project = next;
    if (reload) this.loaded = next;
    this.emit();
  }

  /** A new state from the server that the history records (a save, an algorithm, delete all). */
  private record(next: MapProject, reload: boolean) {
    this.step(snapshotOf(next));
    this.show(next, reload);
  }

  /** Runs a call with the busy state; a failure is already shown by the API client and ends as null. */
  private withBusy = async <T>(kind: Busy, call: () => Promise<T>): Promise<T | null> => {
    this.busy = kind;
    this.emit();
    try {
      return await call();
    } catch {
      return null;
    } finally {
      if (this.alive) {
        this.busy = null;
        this.emit();
      }
    }
  };

  /** Waits for the project's algorithm job to end, then reloads the project; a failed job's reason is shown. */
  private async waitForJob(jobId: number | null) {
    const alive = () => this.alive;
    const meta = await pollUntil(
      () => api.get('/api/v1/projects/last/meta'),
      (m) => !m.is_processing,
      { intervalMs: POLL_MS, alive },
    );
    if (!meta) return null;
    let failed = false;
    if (jobId !== null) {
      const job = await jobEnded(jobId, { intervalMs: POLL_MS, alive });
      if (!job) return null;
      failed = job.status === 'failed';
      if (failed) notify('error', `Алгоритм не выполнен: ${job.error ?? 'причина не указана'}`);
    }
    return { project: await api.get('/api/v1/projects/last/get'), failed };
  }

  private async open(next: (MapProject & { queued?: true }) | null) {
    if (!next) {
      this.project = null;
      this.loaded = null;
      this.restart(null);
      this.emit();
      return;
    }
    this.restart(snapshotOf(next));
    this.show(next, true, !next.queued);
    if (next.is_processing) {
      const meta = await api.get('/api/v1/projects/last/meta');
      const done = await this.waitForJob(meta.job_id);
      if (done && this.alive) {
        this.restart(snapshotOf(done.project));
        this.show(done.project, true);
      }
    }
  }

  private async loadList() {
    const list = await api.get('/api/v1/projects/list');
    if (this.alive) {
      this.projects = list;
      this.emit();
    }
    return list;
  }

  /**
   * Saves the drawing. With no connection it is queued on the device (offline/mapOutbox.ts) and
   * sent once when the connection returns; the screen goes on with it (docs/map.md «Без сети»).
   */
  saveDrawn = (features: MapFeature[]) =>
    this.withBusy('saving', async () => {
      const base = this.acknowledged;
      let saved: MapProject;
      try {
        saved = await api.post('/api/v1/projects/last/save', { body: collection(features) as MapSaveBody, quiet: true });
      } catch (error) {
        const offline = error instanceof ApiCallError && error.status === 0;
        if (!offline || !base || !login.userLogin) {
          notify('error', error instanceof Error ? error.message : String(error));
          throw error;
        }
        await queueMapSave({ owner: login.userLogin, projectId: base.id, baseUpdatedAt: base.updated_at, drawn: collection(features) });
        const queued = { ...base, drawn_feature_collection: collection(features) };
        this.project = queued;
        this.step(snapshotOf(queued));
        this.emit();
        notify('info', 'Нет связи с сервером: рисунок сохранён на этом устройстве и уйдёт на сервер, когда связь вернётся');
        return queued;
      }
      // This save carries everything drawn offline in this project too.
      await dropQueuedDrawing(login.userLogin, saved.id).catch(() => {});
      this.record(saved, false);
      return saved;
    });

  /** A drawing queued offline reached the server (or was refused) while the screen is open; true when it was this project's. */
  replayed = (outcome: ReplayOutcome) => {
    if (!this.alive || outcome.projectId !== this.acknowledged?.id) return false;
    if (outcome.result === 'sent' && outcome.reply) {
      this.show(outcome.reply, false);
      notify('success', 'Рисунок, сохранённый без сети, отправлен на сервер');
    } else {
      notify('error', `Рисунок, сохранённый без сети, не принят: ${outcome.message ?? ''}. Показан проект с сервера.`);
      void api.get('/api/v1/projects/last/get').then((server) => {
        if (!this.alive) return;
        this.restart(snapshotOf(server));
        this.show(server, true);
      });
    }
    return true;
  };

  runAlgorithm = (tag: MapAlgoTag) =>
    this.withBusy('processing', async () => {
      const { job_id } = await api.post('/api/v1/projects/last/algo', { body: { algo_tag: tag } });
      if (this.project) {
        this.project = { ...this.project, is_processing: true };
        this.emit();
      }
      const done = await this.waitForJob(job_id);
      // A failed run changed nothing: no history step for it.
      if (done && this.alive) {
        if (done.failed) this.show(done.project, true);
        else this.record(done.project, true);
      }
    });

  clearAll = () => this.withBusy('saving', async () => this.record(await api.post('/api/v1/projects/last/clear'), true));

  /**
   * Undo/redo re-save the state the step leads to (drawn features with the network and labels) and
   * reload (spec 02 §4). A save that fails moves nothing: the step goes back where it was.
   */
  private restore(direction: 'undo' | 'redo') {
    return this.withBusy('saving', async () => {
      const present = this.present;
      if (!present) return;
      const step = direction === 'undo' ? this.history.undo() : this.history.redo();
      if (!step) return;
      const target = applied(present, step.changes);
      let saved: MapProject;
      try {
        saved = await api.post('/api/v1/projects/last/save', {
          body: { ...target.drawn, restore: { general_feature_collection: target.general, info_feature_collection: target.info } } as MapSaveBody,
        });
      } catch (error) {
        if (direction === 'undo') this.history.redo();
        else this.history.undo();
        throw error;
      }
      this.present = target;
      this.show(saved, true);
    });
  }

  undo = () => this.restore('undo');
  redo = () => this.restore('redo');

  createProject = (name: string) =>
    this.withBusy('loading', async () => {
      const created = await api.post('/api/v1/projects/create', { body: { name } });
      await this.loadList();
      await this.open(created);
      return created;
    });

  selectProject = (id: number) =>
    this.withBusy('loading', async () => {
      await this.open(await api.post('/api/v1/projects/last/set', { body: { project_id: id } }));
      await this.loadList();
    });

  deleteProject = () =>
    this.withBusy('loading', async () => {
      const current = this.projects?.current_id;
      const other = this.projects?.projects.find((p) => p.id !== current);
      if (current == null || !other) return;
      this.projects = await api.post('/api/v1/projects/delete', { body: { delete_id: current, new_id: other.id } });
      this.emit();
      await this.open(await api.get('/api/v1/projects/last/get'));
    });

  saveGolden = () =>
    this.withBusy('saving', async () => {
      this.show(await api.post('/api/v1/projects/last/golden'), false);
      notify('success', 'Текущая сеть сохранена как эталон');
    });

  /**
   * The analyst picks the drawing's coordinate reference (exports and the .prj use it). A refusal
   * is thrown to the caller, which shows the server's reason beside the control.
   */
  setCrs = async (kind: MapProjectCrsSetBody['kind']) => {
    this.busy = 'saving';
    this.emit();
    try {
      this.show(await api.post('/api/v1/projects/last/crs', { body: { kind } satisfies MapProjectCrsSetBody }), false);
    } finally {
      if (this.alive) {
        this.busy = null;
        this.emit();
      }
    }
  };
}
