import { type FormEvent, useEffect, useMemo } from 'react';
import { Link } from 'wouter';
import { useSnapshot } from 'valtio';
import type { EventFigures, EventZone } from '../../api/types';
import { createEventAnalytics, type EventAnalytics, type HallCamera, type HallVideo } from '../../state/eventAnalytics';
import { useAllows } from '../../state/login';
import { Banner } from '../../ui/Banner';
import { CalibrationCard } from './CalibrationCard';
import { FiguresActions } from './FiguresActions';
import { FiguresStoreNote } from './FiguresStoreNote';
import { FiguresView } from './FiguresView';
import { planBounds } from './PlanView';
import { ZonesCard } from './ZonesCard';
import './event-analytics.css';

const STATUS_NAMES = { queued: 'в очереди', running: 'идёт', done: 'готов', failed: 'ошибка', cancelled: 'отменён' } as const;

/** One video's tracking: state, progress while it runs, start, cancel, the MOT download. */
function VideoTracking({ store, video, canWrite }: { store: EventAnalytics; video: HallVideo; canWrite: boolean }) {
  const snap = useSnapshot(store.state);
  const run = video.tracking?.run ?? null;
  const finished = video.tracking?.finished ?? null;
  const active = run !== null && (run.status === 'queued' || run.status === 'running');
  const error = snap.errors[`tracking:${video.id}`] ?? snap.errors[`cancel:${video.id}`] ?? snap.errors[`mot:${video.id}`] ?? null;
  return (
    <tr data-testid="tracking-row">
      <td>{video.filename}</td>
      <td>{new Date(video.start_time).toLocaleString('ru-RU')}</td>
      <td data-testid="tracking-state">
        {run ? STATUS_NAMES[run.status] : 'не запускали'}
        {active && <progress max={1} value={run.progress} aria-label={`Ход трекинга ${video.filename}`} />}
        {run?.status === 'failed' && run.error && <span className="field-error">{run.error}</span>}
        {finished && <span className="muted small"> треков: {finished.stats?.tracks ?? '—'}</span>}
        {error && <span className="field-error">{error}</span>}
      </td>
      <td className="row-actions">
        {canWrite && !active && (
          <button type="button" className="button small" onClick={() => void store.startTracking(video.id)}>
            Найти людей
          </button>
        )}
        {canWrite && active && (
          <button type="button" className="button secondary small" onClick={() => void store.cancelTracking(video.id)}>
            Отменить
          </button>
        )}
        {finished && (
          <button type="button" className="button secondary small" onClick={() => void store.downloadMot(video)}>
            Скачать треки (MOT)
          </button>
        )}
      </td>
    </tr>
  );
}

function TrackingCard({ store, cameras, canWrite }: { store: EventAnalytics; cameras: readonly HallCamera[]; canWrite: boolean }) {
  return (
    <section className="card" aria-labelledby="tracking-title">
      <h2 id="tracking-title">Видео камер и поиск людей</h2>
      {cameras.length === 0 && <p className="muted">У этой структуры нет камер.</p>}
      {cameras.map((camera) => (
        <div key={camera.id}>
          <h3>{camera.name}</h3>
          <div className="table-scroll">
            <table data-testid="tracking-table" className="event-tracking-table">
              <thead>
                <tr>
                  <th>Видео</th>
                  <th>Начало</th>
                  <th>Трекинг</th>
                  <th>
                    <span className="visually-hidden">Действия</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {camera.videos.map((v) => (
                  <VideoTracking key={v.id} store={store} video={v} canWrite={canWrite} />
                ))}
              </tbody>
            </table>
          </div>
        </div>
      ))}
    </section>
  );
}

function WindowForm({ store }: { store: EventAnalytics }) {
  const snap = useSnapshot(store.state);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void store.showFigures();
  };
  return (
    <form className="card event-window" onSubmit={submit} aria-label="Окно времени">
      <label>
        С
        <input type="datetime-local" value={snap.window.from} onChange={(e) => (store.state.window.from = e.target.value)} />
      </label>
      <label>
        По
        <input type="datetime-local" value={snap.window.to} onChange={(e) => (store.state.window.to = e.target.value)} />
      </label>
      <button type="submit" className="button" disabled={snap.figures.state === 'loading'}>
        Показать
      </button>
      <Banner text={snap.errors.window ?? null} />
    </form>
  );
}

/**
 * /event-analytics/{structureId} (issue 44, docs/event-analytics.md «Экран»): a hall's figures over a
 * window, its cameras' videos with the tracking job, the cameras' floor calibration and the zones.
 */
export function EventAnalyticsScreen({ structureId: param }: { structureId: string }) {
  const structureId = Number(param);
  const store = useMemo(() => createEventAnalytics(structureId), [structureId]);
  const snap = useSnapshot(store.state);
  const canWrite = useAllows('workspace.write');
  const canRead = useAllows('reports.read');
  useEffect(() => {
    void store.load();
    return () => store.close();
  }, [store]);

  if (snap.hall.state === 'error')
    return (
      <section className="screen">
        <h1>Аналитика мероприятия</h1>
        <Banner text={snap.hall.message} />
      </section>
    );
  if (snap.hall.state !== 'ready')
    return (
      <section className="screen">
        <h1>Аналитика мероприятия</h1>
        <p className="muted" role="status">
          Загрузка зала…
        </p>
      </section>
    );
  // Snapshots go to the cards (they only read them, and re-render on what they read).
  const cameras = snap.hall.data as HallCamera[];
  const zones = snap.zones as EventZone[];
  const calibrationPoints = cameras.flatMap((c) => (c.calibration?.plan_points ?? []) as [number, number][]);
  const figures = snap.figures;
  return (
    <section className="screen event-analytics">
      <h1>Аналитика мероприятия</h1>
      <p className="muted">
        <Link href={`/projects/${structureId}`}>к структуре</Link>
      </p>
      {canRead && <WindowForm store={store} />}
      {figures.state === 'loading' && (
        <p className="muted" role="status">
          Считаем цифры…
        </p>
      )}
      {figures.state === 'error' && <Banner text={figures.message} />}
      <FiguresStoreNote store={store} canAct={canRead} />
      {figures.state === 'ready' && (
        // Stored figures of a long window computed from older inputs stay readable, marked stale, until the job's new ones come.
        <div className={snap.figuresStore && !snap.figuresStore.fresh ? 'figures-stale' : undefined} data-testid="figures">
          <FiguresView figures={figures.data as EventFigures} cameras={cameras} zones={zones} />
        </div>
      )}
      {figures.state === 'ready' && <FiguresActions structureId={structureId} figures={figures.data as EventFigures} zones={zones} canShare={canRead} />}
      <TrackingCard store={store} cameras={cameras} canWrite={canWrite} />
      <h2>Калибровка камер</h2>
      {cameras.map((c) => (
        <CalibrationCard key={c.id} store={store} camera={c} canWrite={canWrite} />
      ))}
      <ZonesCard store={store} canWrite={canWrite} bounds={planBounds(null, zones, calibrationPoints)} />
    </section>
  );
}
