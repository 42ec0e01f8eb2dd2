import { proxy } from 'valtio';
import { api, downloadFile } from '../api/client';
import { waitForJob } from '../api/jobs';
import type { Calibration, CalibrationBody, EventFigures, EventFiguresStore, EventZone, EventZoneBody, Tracking } from '../api/types';
import type { ExportTable } from '../export/table';

/*
 * State of the «Аналитика мероприятия» screen (issue 44, docs/event-analytics.md «Экран»): the hall's
 * cameras, their videos with the tracking state, calibrations, zones and the figures of a window.
 * One store per opened hall, outside components; the screen only draws it and calls its actions.
 */

export interface HallVideo {
  id: number;
  filename: string;
  start_time: string;
  duration: number | null;
  tracking: Tracking | null;
}
export interface HallCamera {
  id: number;
  name: string;
  videos: HallVideo[];
  calibration: Calibration | null;
}
export type Loading<T> = { state: 'idle' } | { state: 'loading' } | { state: 'error'; message: string } | { state: 'ready'; data: T };

/** How often a running tracking's state is read again, milliseconds. */
export const TRACKING_POLL_MS = 1000;
const ACTIVE = new Set(['queued', 'running']);

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));
const pad = (n: number) => String(n).padStart(2, '0');

/** A moment as the value of an `<input type="datetime-local">` in the browser's time zone. */
export function toLocalInput(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** A datetime-local value as ISO 8601 with the zone (UTC), or null when it is not a date. */
export function fromLocalInput(value: string): string | null {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** The default window: the local day of the newest video with a finished tracking (else the newest video, else today). */
export function defaultWindow(cameras: readonly HallCamera[], now = new Date()): { from: string; to: string } {
  const videos = cameras.flatMap((c) => c.videos);
  const newest = (list: HallVideo[]) => list.reduce<HallVideo | null>((best, v) => (!best || v.start_time > best.start_time ? v : best), null);
  const chosen = newest(videos.filter((v) => v.tracking?.finished)) ?? newest(videos);
  const day = chosen ? new Date(chosen.start_time) : now;
  const start = new Date(day.getFullYear(), day.getMonth(), day.getDate());
  const end = new Date(day.getFullYear(), day.getMonth(), day.getDate() + 1);
  return { from: toLocalInput(start), to: toLocalInput(end) };
}

/** The video of a camera playing at wall-clock second `t` (seconds since 1970) and the second in it, for a link to the video screen. */
export function videoAt(cameras: readonly HallCamera[], cameraId: number, t: number): { videoId: number; second: number } | null {
  const camera = cameras.find((c) => c.id === cameraId);
  for (const video of camera?.videos ?? []) {
    const start = Date.parse(video.start_time) / 1000;
    const end = start + (video.duration ?? 24 * 3600);
    if (t >= start && t <= end) return { videoId: video.id, second: Math.floor(t - start) };
  }
  return null;
}

/** A heat-map cell's colour: transparent for nothing, then from pale yellow to red by the share of the busiest cell. */
export function heatColour(seconds: number, max: number): string | null {
  if (!(seconds > 0) || !(max > 0)) return null;
  const share = Math.min(1, seconds / max);
  const green = Math.round(220 * (1 - share));
  return `rgba(230, ${green}, 0, ${(0.25 + 0.6 * share).toFixed(2)})`;
}

/** A moment (seconds since 1970) as local date and time. */
export function momentText(t: number): string {
  return new Date(t * 1000).toLocaleString('ru-RU', { day: '2-digit', month: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

/** Seconds as «1 мин 05 с» / «12,5 с»; null as a dash. */
export function secondsText(seconds: number | null): string {
  if (seconds === null) return '—';
  if (seconds < 60) return `${seconds.toLocaleString('ru-RU', { maximumFractionDigits: 1 })} с`;
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 60)} мин ${pad(whole % 60)} с`;
}

const ROLE_NAMES = { zone: 'Зона', stand: 'Стенд', safe: 'Безопасная зона' } as const;
export const zoneRoleName = (role: keyof typeof ROLE_NAMES) => ROLE_NAMES[role];

/** The figures' tables as data for the CSV downloads: dwell per zone, popular routes, safe-zone entries. */
export function figuresTables(figures: EventFigures): ExportTable[] {
  return [
    {
      title: 'Время в зонах',
      columns: [
        'Зона',
        'Роль',
        'Визитов',
        'Посетителей',
        'Всего, с',
        'Всё время внутри, с',
        'Медиана, с',
        '90-й процентиль, с',
        ...(figures.dwell[0]?.histogram.map((h) => h.label) ?? []),
      ],
      rows: figures.dwell.map((d) => [
        d.name,
        zoneRoleName(d.role),
        d.visits,
        d.visitors,
        d.total_seconds,
        d.inside_seconds,
        d.median_seconds,
        d.p90_seconds,
        ...d.histogram.map((h) => h.count),
      ]),
    },
    { title: 'Маршруты', columns: ['Маршрут', 'Посетителей'], rows: figures.routes.popular.map((r) => [r.names.join(' → '), r.count]) },
    {
      title: 'Входы в безопасные зоны',
      columns: ['Зона', 'Трек', 'Вход', 'Выход', 'Секунд внутри', 'Глубина, м'],
      rows: figures.safe_zone_entries.flatMap((z) =>
        z.entries.map((e) => [z.name, e.track_id, momentText(e.entry), momentText(e.exit), e.seconds_inside, e.deepest.depth_metres]),
      ),
    },
  ];
}

/** Where a visit or an entry can be watched: its video and second when the API named them, else the camera's video playing then. */
export function visitVideo(
  cameras: readonly HallCamera[],
  at: { camera_id: number; video_id?: number | null; video_second?: number | null },
  t: number,
): { videoId: number; second: number } | null {
  if (at.video_id != null && at.video_second != null) return { videoId: at.video_id, second: Math.floor(at.video_second) };
  return videoAt(cameras, at.camera_id, t);
}

/**
 * The hall's cameras with their videos and calibrations, and its zones; the tracking state of every
 * video in one call (GET /api/v1/event/trackings), not one per video.
 */
async function readHall(structureId: number): Promise<{ hall: HallCamera[]; zones: { zones: EventZone[] } }> {
  const [list, zones, trackings] = await Promise.all([
    api.get('/api/v1/cameras', { query: { structure_id: structureId } }),
    api.get('/api/v1/event/zones', { query: { structure_id: structureId } }),
    api.get('/api/v1/event/trackings', { query: { structure_id: structureId } }),
  ]);
  const tracking = new Map(trackings.videos.map((v): [number, Tracking] => [v.video_id, { video_id: v.video_id, run: v.run, finished: v.finished }]));
  const hall = await Promise.all(
    list.map(async (camera): Promise<HallCamera> => {
      const [videos, calibration] = await Promise.all([
        api.get('/api/v1/videos', { query: { camera_id: camera.id } }),
        api.get('/api/v1/event/calibration', { query: { camera_id: camera.id } }),
      ]);
      // A video uploaded between the two reads has no state yet: «не запускали» until the next load.
      const withTracking = videos.map((v) => ({
        id: v.id,
        filename: v.filename,
        start_time: v.start_time,
        duration: v.duration,
        tracking: tracking.get(v.id) ?? null,
      }));
      return { id: camera.id, name: camera.name, videos: withTracking, calibration: calibration.calibration };
    }),
  );
  return { hall, zones };
}

/** The state of one hall's screen as it starts. */
function initialState(structureId: number) {
  return {
    structureId,
    hall: { state: 'loading' } as Loading<HallCamera[]>,
    zones: [] as EventZone[],
    window: { from: '', to: '' },
    figures: { state: 'idle' } as Loading<EventFigures>,
    /**
     * A long window's stored figures and their computation (docs/event-analytics.md «Цифры длинных окон»):
     * null — the window is computed on each request; else whether the figures shown are fresh and the job's state.
     */
    figuresStore: null as EventFiguresStore | null,
    /** The window (ISO) of the figures shown or being computed: the recompute and cancel actions work on it. */
    figuresWindow: null as { from: string; to: string } | null,
    /** The API's message of the last failed action, by what it was about (`tracking:7`, `calibration:3`, `zone`, `window`). */
    errors: {} as Record<string, string | null>,
    busy: {} as Record<string, boolean>,
  };
}

export type EventAnalytics = ReturnType<typeof createEventAnalytics>;

/** The store of one hall; `load()` reads the hall, the actions write through the API and read back. */
export function createEventAnalytics(structureId: number) {
  const state = proxy(initialState(structureId));
  /** False once the screen is left: polls stop. */
  let open = true;
  const cameras = () => (state.hall.state === 'ready' ? state.hall.data : []);
  const findVideo = (videoId: number) =>
    cameras()
      .flatMap((c) => c.videos)
      .find((v) => v.id === videoId);

  /** Runs an action, keeping its API message under `key` (shown next to its control) and rethrowing nothing. */
  async function act<T>(key: string, run: () => Promise<T>): Promise<T | null> {
    state.errors[key] = null;
    state.busy[key] = true;
    try {
      return await run();
    } catch (err) {
      state.errors[key] = errorText(err);
      return null;
    } finally {
      state.busy[key] = false;
    }
  }

  async function readTracking(videoId: number) {
    const tracking = await api.get('/api/v1/event/tracking', { query: { video_id: videoId } });
    const video = findVideo(videoId);
    if (video) video.tracking = tracking;
    return tracking;
  }

  /** Reads the tracking state until the run ends (the progress bar follows it). */
  async function follow(videoId: number) {
    while (open) {
      const tracking = await readTracking(videoId);
      if (!tracking.run || !ACTIVE.has(tracking.run.status)) return;
      await new Promise((resolve) => setTimeout(resolve, TRACKING_POLL_MS));
    }
  }

  const figures = figuresActions(state, structureId, () => open, act);

  const actions = {
    state,
    /** The screen was left: running polls end after their current read. */
    close() {
      open = false;
    },
    async load() {
      open = true;
      try {
        const { hall, zones } = await readHall(structureId);
        state.zones = zones.zones;
        state.hall = { state: 'ready', data: hall };
        if (!state.window.from) state.window = defaultWindow(hall);
        for (const video of hall.flatMap((c) => c.videos))
          if (video.tracking?.run && ACTIVE.has(video.tracking.run.status)) void act(`tracking:${video.id}`, () => follow(video.id));
      } catch (err) {
        state.hall = { state: 'error', message: errorText(err) };
      }
    },

    ...figures,

    startTracking: (videoId: number) =>
      act(`tracking:${videoId}`, async () => {
        await api.post('/api/v1/event/tracking', { body: { video_id: videoId } });
        await follow(videoId);
      }),

    cancelTracking: (videoId: number) =>
      act(`cancel:${videoId}`, async () => {
        await api.post('/api/v1/event/tracking/cancel', { body: { video_id: videoId } });
        await readTracking(videoId);
      }),

    /** The finished tracking's tracks as a MOTChallenge text file. */
    downloadMot: (video: Pick<HallVideo, 'id' | 'filename'>) =>
      act(`mot:${video.id}`, () => downloadFile('/api/v1/event/tracks.mot', { query: { video_id: video.id } }, `${video.filename}.mot.txt`)),

    saveCalibration: (cameraId: number, body: CalibrationBody) =>
      act(`calibration:${cameraId}`, async () => {
        const saved = await api.put('/api/v1/event/calibration', { query: { camera_id: cameraId }, body });
        const camera = cameras().find((c) => c.id === cameraId);
        if (camera) camera.calibration = saved.calibration;
        return true;
      }),

    async reloadZones() {
      state.zones = (await api.get('/api/v1/event/zones', { query: { structure_id: structureId } })).zones;
    },

    addZone: (body: Omit<EventZoneBody, 'structure_id'>) =>
      act('zone', async () => {
        await api.post('/api/v1/event/zone', { body: { ...body, structure_id: structureId } });
        await actions.reloadZones();
        return true;
      }),

    renameZone: (zone: EventZone, name: string) =>
      act(`zone:${zone.id}`, async () => {
        await api.put('/api/v1/event/zone/{id}', { path: { id: zone.id }, body: { name, role: zone.role, stand_id: zone.stand_id, shape: zone.shape } });
        await actions.reloadZones();
        return true;
      }),

    deleteZone: (zoneId: number) =>
      act(`zone:${zoneId}`, async () => {
        await api.delete('/api/v1/event/zone/{id}', { path: { id: zoneId } });
        await actions.reloadZones();
      }),
  };
  return actions;
}

type HallState = ReturnType<typeof initialState>;
type Act = <T>(key: string, run: () => Promise<T>) => Promise<T | null>;

/**
 * The figures of the window (docs/event-analytics.md «Экран», «Цифры длинных окон»): computed on the
 * request, or a long window's stored ones — fresh, or stale while the job computes them again (its
 * progress followed, the new ones read at its end) — or only the job's state; its cancel and recompute.
 */
function figuresActions(state: HallState, structureId: number, isOpen: () => boolean, act: Act) {
  /** The current window still the one shown (a new «Показать» started another). */
  const stillShown = (from: string, to: string) => isOpen() && state.figuresWindow?.from === from && state.figuresWindow.to === to;

  /** The figures of the window: computed now, or stored (fresh, or stale while the job computes them again), or only the job's state. */
  async function readFigures(from: string, to: string) {
    try {
      const data = await api.get('/api/v1/event/figures', { query: { structure_id: structureId, from, to } });
      if (!stillShown(from, to)) return;
      if ('visitors' in data) state.figures = { state: 'ready', data };
      else if (state.figures.state !== 'ready') state.figures = { state: 'idle' };
      state.figuresStore = data.stored;
      if (data.stored) await followFigures(from, to, data.stored);
    } catch (err) {
      if (stillShown(from, to)) state.figures = { state: 'error', message: errorText(err) };
    }
  }

  /** While the window's job is queued or running: its progress, then the figures it stored read again. */
  async function followFigures(from: string, to: string, stored: EventFiguresStore) {
    const job = stored.job;
    if (stored.fresh || !job || !ACTIVE.has(job.status)) return;
    const ended = await waitForJob(job.id, {
      alive: () => stillShown(from, to),
      onRead: (read) => {
        if (state.figuresStore?.job?.id === read.id) state.figuresStore.job = { ...state.figuresStore.job, status: read.status, progress: read.progress };
      },
    });
    if (!ended || !stillShown(from, to)) return;
    if (ended.status === 'success') await readFigures(from, to);
    else if (state.figuresStore?.job?.id === ended.id) state.figuresStore.job = { ...state.figuresStore.job, status: ended.status, error: ended.error ?? null };
  }

  return {
    async showFigures() {
      const from = fromLocalInput(state.window.from);
      const to = fromLocalInput(state.window.to);
      if (!from || !to) {
        state.errors.window = 'Укажите начало и конец окна';
        return;
      }
      state.errors.window = null;
      state.figures = { state: 'loading' };
      state.figuresStore = null;
      state.figuresWindow = { from, to };
      await readFigures(from, to);
    },

    /** A long window's computation again (after it was cancelled or failed), followed to its end. */
    recomputeFigures: () =>
      act('figures-job', async () => {
        const window = state.figuresWindow;
        if (!window) return;
        const reply = await api.post('/api/v1/event/figures/compute', { body: { structure_id: structureId, ...window } });
        state.figuresStore = reply.stored;
        if (reply.stored) await followFigures(window.from, window.to, reply.stored);
      }),

    /** Cancels a long window's computation: the stored figures stay as they are. */
    cancelFiguresJob: () =>
      act('figures-job', async () => {
        const window = state.figuresWindow;
        if (!window) return;
        const reply = await api.post('/api/v1/event/figures/cancel', { body: { structure_id: structureId, ...window } });
        state.figuresStore = reply.stored;
      }),
  };
}
