import { useCallback, useEffect, useRef, useState } from 'react';
import { api, ApiCallError, type ApiInit } from '../../api/client';
import { pollUntil, waitForJob as jobEnded } from '../../api/jobs';
import type { HtmlMenuReply, MapAlgoTag, MapFeature, MapFeatureCollection, MapProject, MapProjectCrsSetBody, MapProjectsListReply } from '../../api/types';
import { dropQueuedDrawing, queuedDrawing, queueMapSave, rememberProject } from '../../offline/mapOutbox';
import { onMapSaveReplayed } from '../../state/outboxSync';
import { login } from '../../state/login';
import { notify } from '../../status/notifications';
import { canRedo, canUndo, emptyHistory, pushSnapshot, redo, startHistory, undo, type SnapshotHistory } from './history';

/** The body of a save: the drawing as the editor holds it (the document renders a coordinate pair looser than the schema checks it). */
type MapSaveBody = ApiInit<'/api/v1/projects/last/save', 'post'>['body'];

/** What one history step restores: the drawn features, the generated network and the labels. */
export interface Snapshot {
  drawn: MapFeatureCollection;
  general: MapFeatureCollection;
  info: MapFeatureCollection;
}

/** How often a running algorithm is checked (the export's polling interval, spec 02 §4). */
export const POLL_MS = 1000;

const snapshotOf = (p: MapProject): Snapshot => ({ drawn: p.drawn_feature_collection, general: p.general_feature_collection, info: p.info_feature_collection });
const collection = (features: MapFeature[]): MapFeatureCollection => ({ type: 'FeatureCollection', features });
/** An offline opening shows the user's drawing still queued for this project over the cached project. */
async function withQueuedDrawing(project: MapProject): Promise<MapProject & { queued?: true }> {
  const queued = login.userLogin ? await queuedDrawing(login.userLogin, project.id).catch(() => undefined) : undefined;
  // Its id and updated_at stay the server's: the base a later offline save is queued on.
  return queued ? { ...project, drawn_feature_collection: queued.drawn, queued: true } : project;
}

/** What the screen is waiting for (shown as the busy state). */
export type Busy = null | 'loading' | 'saving' | 'processing';

type Core = ReturnType<typeof useMapCore>;

/**
 * The state under the commands: the projects, the current project, the type catalogue, the
 * history, the busy state; showing a project, opening one, waiting for its algorithm job.
 */
function useMapCore() {
  const [projects, setProjects] = useState<MapProjectsListReply | null>(null);
  const [project, setProject] = useState<MapProject | null>(null);
  const [catalogue, setCatalogue] = useState<Pick<HtmlMenuReply, 'styles' | 'types'> | null>(null);
  const [history, setHistory] = useState<SnapshotHistory<Snapshot>>(emptyHistory);
  const [busy, setBusy] = useState<Busy>('loading');
  const [loaded, setLoaded] = useState<MapProject | null>(null);
  const alive = useRef(true);
  /** The project as the server last acknowledged it (not a drawing queued offline): the base of an offline save. */
  const acknowledged = useRef<MapProject | null>(null);

  const show = useCallback((next: MapProject, reload: boolean, remember = true) => {
    acknowledged.current = next;
    // An offline opening starts from the server's latest state, not an older read of it (an offline save's base);
    // a drawing still queued on the device is not the server's and is not kept as such.
    if (remember) void rememberProject(next).catch(() => {});
    setProject(next);
    if (reload) setLoaded(next);
  }, []);

  /** Runs a call with the busy state; a failure is already shown by the API client and ends as null. */
  const withBusy = useCallback(async <T>(kind: Busy, call: () => Promise<T>): Promise<T | null> => {
    setBusy(kind);
    try {
      return await call();
    } catch {
      return null;
    } finally {
      if (alive.current) setBusy(null);
    }
  }, []);

  /** Waits for the project's algorithm job to end, then reloads the project; a failed job's reason is shown. */
  const waitForJob = useCallback(async (jobId: number | null) => {
    const meta = await pollUntil(
      () => api.get('/api/v1/projects/last/meta'),
      (m) => !m.is_processing,
      { intervalMs: POLL_MS, alive: () => alive.current },
    );
    if (!meta) return null;
    let failed = false;
    if (jobId !== null) {
      const job = await jobEnded(jobId, { intervalMs: POLL_MS, alive: () => alive.current });
      if (!job) return null;
      failed = job.status === 'failed';
      if (failed) notify('error', `Алгоритм не выполнен: ${job.error ?? 'причина не указана'}`);
    }
    return { project: await api.get('/api/v1/projects/last/get'), failed };
  }, []);

  const open = useCallback(
    async (next: (MapProject & { queued?: true }) | null) => {
      if (!next) {
        setProject(null);
        setLoaded(null);
        setHistory(emptyHistory());
        return;
      }
      show(next, true, !next.queued);
      setHistory(startHistory(snapshotOf(next)));
      if (next.is_processing) {
        const meta = await api.get('/api/v1/projects/last/meta');
        const done = await waitForJob(meta.job_id);
        if (done && alive.current) {
          show(done.project, true);
          setHistory(startHistory(snapshotOf(done.project)));
        }
      }
    },
    [show, waitForJob],
  );

  const loadList = useCallback(async () => {
    const list = await api.get('/api/v1/projects/list');
    if (alive.current) setProjects(list);
    return list;
  }, []);

  useEffect(() => {
    alive.current = true;
    void withBusy('loading', async () => {
      const [list, menu] = await Promise.all([loadList(), api.post('/api/v1/html_menu', { body: { type: 'area' } })]);
      if (!alive.current) return;
      setCatalogue({ styles: menu.styles, types: menu.types });
      await open(list.current_id === null ? null : await withQueuedDrawing(await api.get('/api/v1/projects/last/get')));
    });
    return () => {
      alive.current = false;
    };
  }, [loadList, open, withBusy]);

  /** A new state from the server that the history records (a save, an algorithm, delete all). */
  const record = useCallback(
    (next: MapProject, reload: boolean) => {
      show(next, reload);
      setHistory((h) => pushSnapshot(h, snapshotOf(next)));
    },
    [show],
  );

  return {
    projects,
    setProjects,
    project,
    setProject,
    catalogue,
    history,
    setHistory,
    busy,
    setBusy,
    loaded,
    alive,
    acknowledged,
    show,
    withBusy,
    waitForJob,
    open,
    loadList,
    record,
  };
}

/** Commands on the drawing: save (queued on the device without a connection), algorithms, delete all, undo/redo. */
function useDrawingCommands({ alive, acknowledged, history, setHistory, setProject, show, withBusy, waitForJob, record }: Core) {
  /**
   * Saves the drawing. With no connection it is queued on the device (offline/mapOutbox.ts) and
   * sent once when the connection returns; the screen goes on with it (docs/map.md «Без сети»).
   */
  const saveDrawn = useCallback(
    (features: MapFeature[]) =>
      withBusy('saving', async () => {
        const base = acknowledged.current;
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
          setProject(queued);
          setHistory((h) => pushSnapshot(h, snapshotOf(queued)));
          notify('info', 'Нет связи с сервером: рисунок сохранён на этом устройстве и уйдёт на сервер, когда связь вернётся');
          return queued;
        }
        // This save carries everything drawn offline in this project too.
        await dropQueuedDrawing(login.userLogin, saved.id).catch(() => {});
        record(saved, false);
        return saved;
      }),
    [setHistory, setProject, acknowledged, record, withBusy],
  );

  // A drawing queued offline reached the server (or was refused) while the screen is open.
  useEffect(
    () =>
      onMapSaveReplayed((outcome) => {
        if (!alive.current || outcome.projectId !== acknowledged.current?.id) return false;
        if (outcome.result === 'sent' && outcome.reply) {
          show(outcome.reply, false);
          notify('success', 'Рисунок, сохранённый без сети, отправлен на сервер');
        } else {
          notify('error', `Рисунок, сохранённый без сети, не принят: ${outcome.message ?? ''}. Показан проект с сервера.`);
          void api.get('/api/v1/projects/last/get').then((server) => {
            if (!alive.current) return;
            show(server, true);
            setHistory(startHistory(snapshotOf(server)));
          });
        }
        return true;
      }),
    [alive, acknowledged, setHistory, show],
  );

  const runAlgorithm = useCallback(
    (tag: MapAlgoTag) =>
      withBusy('processing', async () => {
        const { job_id } = await api.post('/api/v1/projects/last/algo', { body: { algo_tag: tag } });
        setProject((p) => (p ? { ...p, is_processing: true } : p));
        const done = await waitForJob(job_id);
        // A failed run changed nothing: no history step for it.
        if (done && alive.current) {
          if (done.failed) show(done.project, true);
          else record(done.project, true);
        }
      }),
    [alive, setProject, record, show, waitForJob, withBusy],
  );

  const clearAll = useCallback(() => withBusy('saving', async () => record(await api.post('/api/v1/projects/last/clear'), true)), [record, withBusy]);

  /** Undo/redo re-save the snapshot (drawn features with its network and labels) and reload (spec 02 §4). */
  const restore = useCallback(
    (step: typeof undo) =>
      withBusy('saving', async () => {
        const moved = step(history);
        if (!moved) return;
        const { drawn, general, info } = moved.snapshot;
        const saved = await api.post('/api/v1/projects/last/save', {
          body: {
            ...drawn,
            restore: { general_feature_collection: general, info_feature_collection: info },
          } as MapSaveBody,
        });
        setHistory(moved.history);
        show(saved, true);
      }),
    [setHistory, history, show, withBusy],
  );

  return { saveDrawn, runAlgorithm, clearAll, restore };
}

/** Commands on the projects: create, select, delete, keep the network as the golden one, set the CRS. */
function useProjectCommands({ alive, projects, setProjects, setBusy, show, withBusy, open, loadList }: Core) {
  const createProject = useCallback(
    (name: string) =>
      withBusy('loading', async () => {
        const created = await api.post('/api/v1/projects/create', { body: { name } });
        await loadList();
        await open(created);
        return created;
      }),
    [loadList, open, withBusy],
  );

  const selectProject = useCallback(
    (id: number) =>
      withBusy('loading', async () => {
        await open(await api.post('/api/v1/projects/last/set', { body: { project_id: id } }));
        await loadList();
      }),
    [loadList, open, withBusy],
  );

  const deleteProject = useCallback(
    () =>
      withBusy('loading', async () => {
        const current = projects?.current_id;
        const other = projects?.projects.find((p) => p.id !== current);
        if (current == null || !other) return;
        const list = await api.post('/api/v1/projects/delete', { body: { delete_id: current, new_id: other.id } });
        setProjects(list);
        await open(await api.get('/api/v1/projects/last/get'));
      }),
    [setProjects, open, projects, withBusy],
  );

  const saveGolden = useCallback(
    () =>
      withBusy('saving', async () => {
        show(await api.post('/api/v1/projects/last/golden'), false);
        notify('success', 'Текущая сеть сохранена как эталон');
      }),
    [show, withBusy],
  );

  /**
   * The analyst picks the drawing's coordinate reference (exports and the .prj use it). A refusal
   * is thrown to the caller, which shows the server's reason beside the control.
   */
  const setCrs = useCallback(
    async (kind: MapProjectCrsSetBody['kind']) => {
      setBusy('saving');
      try {
        show(await api.post('/api/v1/projects/last/crs', { body: { kind } satisfies MapProjectCrsSetBody }), false);
      } finally {
        if (alive.current) setBusy(null);
      }
    },
    [alive, setBusy, show],
  );

  return { createProject, selectProject, deleteProject, saveGolden, setCrs };
}

/**
 * The map screen's data (spec 02 §4, §7 "Map projects and drawing"): the projects, the current
 * project, the type catalogue, saves, algorithm runs as jobs, and undo/redo over 10 snapshots.
 * `loaded` is the project as last changed on the server's side (opened, an algorithm, undo/redo,
 * delete all): what the map must redraw. A save of the drawing itself changes `project` only.
 */
export function useMapProject() {
  const core = useMapCore();
  const { projects, project, catalogue, busy, loaded, history } = core;
  const { saveDrawn, runAlgorithm, clearAll, restore } = useDrawingCommands(core);
  return {
    projects,
    project,
    catalogue,
    busy: busy ?? (project?.is_processing ? 'processing' : null),
    loaded,
    canUndo: canUndo(history),
    canRedo: canRedo(history),
    saveDrawn,
    runAlgorithm,
    clearAll,
    undo: () => restore(undo),
    redo: () => restore(redo),
    ...useProjectCommands(core),
  };
}

export type MapProjectState = ReturnType<typeof useMapProject>;
