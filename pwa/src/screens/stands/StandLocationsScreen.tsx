import { type FormEvent, useCallback, useEffect, useRef, useState } from 'react';
import { Link } from 'wouter';
import { api } from '../../api/client';
import type { HumansReply, MovableLocation, MovableLocationBody, MovablesReply, Stand, StandLocation, StandLocationBody, VideoMeta } from '../../api/types';
import { formatSeconds } from '../../format/time';
import { useBrowserPeople } from '../../ml/useBrowserPeople';
import { useAllows } from '../../state/login';
import { notify } from '../../status/notifications';
import { Banner } from '../../ui/Banner';
import { coordinateColumns, LocationTable } from '../../ui/LocationTable';
import { FrameCanvas, type FrameMark, type FrameRect } from '../models/FrameCanvas';
import { FramePlayer, type CapturedFrame } from '../models/FramePlayer';
import { VISION_TEXT } from '../models/messages';
import '../models/vision.css';

/** Spec 02 §9: a stand located only at a moment is drawn within this many seconds of it. */
export const CHECKPOINT_WINDOW_SECONDS = 2;
/** Spec 02 §9 marker sizes (screen pixels). */
const STAND_MARK = 8;
const HUMAN_MARK = 6;
const CHOSEN_POINT_COLOR = '#ff9800';

const DETECTOR_NAMES: Record<HumansReply['detector'], string> = {
  'movenet-multipose': 'MoveNet: люди и позы',
  'onnx-person-detector': 'детектор людей',
  'background-subtraction-blobs': 'вычитание фона: всё, что движется',
};

const complete = (r: FrameRect | null): r is FrameRect => r !== null && r.x2 > r.x1 && r.y2 > r.y1;

/**
 * /models-stand-locations/{videoId} (spec 02 «Location marking screen»): stand points and movable
 * rectangles on the camera's frame, with the people the server finds on that frame.
 */
export function StandLocationsScreen({ videoId: videoIdParam }: { videoId: string }) {
  const videoId = Number(videoIdParam);
  const canWrite = useAllows('workspace.write');
  const videoRef = useRef<HTMLVideoElement>(null);
  const [meta, setMeta] = useState<VideoMeta | null>(null);
  const [stands, setStands] = useState<Stand[]>([]);
  const [standLocations, setStandLocations] = useState<StandLocation[]>([]);
  const [movables, setMovables] = useState<MovablesReply['movables']>([]);
  const [movableLocations, setMovableLocations] = useState<MovableLocation[]>([]);
  const [humans, setHumans] = useState<HumansReply | null>(null);
  const browserPeople = useBrowserPeople();
  const [loadError, setLoadError] = useState<string | null>(null);
  const [frame, setFrame] = useState<CapturedFrame | null>(null);
  const [rect, setRect] = useState<FrameRect | null>(null);
  const [standId, setStandId] = useState('');
  const [onlyNow, setOnlyNow] = useState(false);
  const [movableId, setMovableId] = useState('');
  const [newMovable, setNewMovable] = useState('');

  const reload = useCallback(async () => {
    try {
      const [standReply, points, objects, boxes] = await Promise.all([
        api.get('/api/v1/all_stands', { query: { video_id: videoId } }),
        api.get('/api/v1/stand_locations', { query: { video_id: videoId } }),
        api.get('/api/v1/movables', { query: { video_id: videoId } }),
        api.get('/api/v1/movable_locations', { query: { video_id: videoId } }),
      ]);
      setStands(standReply.stands);
      setStandLocations(points.stand_locations);
      setMovables(objects.movables);
      setMovableLocations(boxes.movable_locations);
    } catch (err) {
      setLoadError(err instanceof Error ? err.message : String(err));
    }
  }, [videoId]);

  useEffect(() => {
    api
      .get('/api/v1/video_meta/{videoId}', { path: { videoId }, quiet: true })
      .then(setMeta, (err: unknown) => setLoadError(err instanceof Error ? err.message : String(err)));
    void reload();
  }, [videoId, reload]);

  const onFrame = (captured: CapturedFrame) => {
    setFrame(captured);
    setHumans(null);
    browserPeople.reset();
    api.get('/api/v1/humans', { query: { video_id: videoId, second: Number(captured.second.toFixed(2)) } }).then(setHumans, () => {});
  };

  const addStandLocation = async (event: FormEvent) => {
    event.preventDefault();
    if (!standId) return notify('error', VISION_TEXT.chooseStand);
    // A click on the frame is a rectangle of no size: its centre is the point (spec 02: «click a point on the frame»).
    if (!frame || !rect) return notify('error', VISION_TEXT.needPoint);
    // Spec 02 §5: the point is the centre of the drawn rectangle, rounded up.
    const body: StandLocationBody = {
      stand_id: Number(standId),
      camera_id: meta!.camera_id,
      x: Math.ceil((rect.x1 + rect.x2) / 2),
      y: Math.ceil((rect.y1 + rect.y2) / 2),
      checkpoint_time: onlyNow ? Number(frame.second.toFixed(2)) : null,
    };
    try {
      await api.post('/api/v1/stand_location', { body });
      setRect(null);
    } catch {
      // Shown by the API client.
    }
    await reload();
  };

  const addMovableLocation = async (event: FormEvent) => {
    event.preventDefault();
    if (!movableId) return notify('error', VISION_TEXT.chooseObject);
    if (!frame || !complete(rect)) return notify('error', VISION_TEXT.needRectangle);
    const body: MovableLocationBody = { movable_id: Number(movableId), camera_id: meta!.camera_id, ...rect, checkpoint_time: Number(frame.second.toFixed(2)) };
    try {
      await api.post('/api/v1/movable_location', { body });
      setRect(null);
    } catch {
      // Shown by the API client.
    }
    await reload();
  };

  const addMovable = async (event: FormEvent) => {
    event.preventDefault();
    if (!newMovable.trim()) return notify('error', VISION_TEXT.needName);
    try {
      const reply = await api.post('/api/v1/movables', { body: { changed_movables: [{ name: newMovable.trim() }] } });
      setMovables(reply.movables);
      setNewMovable('');
    } catch {
      // Shown by the API client.
    }
  };

  const remove = async (path: `/api/v1/${'stand' | 'movable'}_location/remove/{id}`, id: number) => {
    try {
      await api.delete(path, { path: { id } });
    } catch {
      // Shown by the API client (404: «Этой локации нет в списке!»).
    }
    await reload();
  };

  if (loadError) {
    return (
      <section className="screen">
        <h1>Разметка расположений</h1>
        <Banner text={loadError} />
      </section>
    );
  }
  const second = frame?.second ?? null;
  const marks: FrameMark[] = [
    ...standLocations
      .filter((l) => l.checkpoint_time === null || (second !== null && Math.abs(l.checkpoint_time - second) <= CHECKPOINT_WINDOW_SECONDS))
      .map((l) => ({ key: `s${l.id}`, x: l.x, y: l.y, size: STAND_MARK, color: 'red', label: `stand-mark ${l.name}` })),
    // A clicked point (a rectangle of no size) is too small to see as the outline: marked until saved.
    ...(rect && rect.x1 === rect.x2 && rect.y1 === rect.y2
      ? [{ key: 'chosen', x: rect.x1, y: rect.y1, size: STAND_MARK, color: CHOSEN_POINT_COLOR, label: 'chosen-point' }]
      : []),
    ...(humans?.humans ?? []).map((h, i) => ({ key: `h${i}`, x: h.location.x, y: h.location.y, size: HUMAN_MARK, color: 'blue', label: 'human-mark' })),
    ...(browserPeople.result?.people ?? []).map((h, i) => ({
      key: `b${i}`,
      x: h.location.x,
      y: h.location.y,
      size: HUMAN_MARK,
      color: 'green',
      label: 'browser-human-mark',
    })),
  ];
  const boxes = movableLocations
    .filter((l) => l.checkpoint_time === null || (second !== null && Math.abs(l.checkpoint_time - second) <= CHECKPOINT_WINDOW_SECONDS))
    .map((l) => ({ key: `m${l.id}`, x1: l.x1, y1: l.y1, x2: l.x2, y2: l.y2, color: '#b36b00' }));
  const momentColumn = {
    title: 'Момент',
    value: (l: { checkpoint_time: number | null }) => (l.checkpoint_time === null ? '—' : formatSeconds(l.checkpoint_time)),
  };

  return (
    <section className="screen vision-screen">
      <h1>Разметка расположений по видео «{meta?.filename ?? videoId}»</h1>
      <p className="muted">
        <Link href={`/models/${videoId}`}>к моделям</Link>
        {meta && (
          <>
            {' '}
            · <Link href={`/models-stands/${meta.structure_id}`}>стенды и базисы</Link>
          </>
        )}
        {humans && (
          <span data-testid="humans-found">
            {' '}
            · на кадре найдено: {humans.humans.length} ({DETECTOR_NAMES[humans.detector]})
          </span>
        )}
        {frame && (
          <>
            {' '}
            ·{' '}
            <button
              type="button"
              className="link-button"
              disabled={browserPeople.busy}
              onClick={() => void browserPeople.find(frame.canvas)}
              data-testid="browser-humans"
            >
              {browserPeople.busy ? 'Ищем людей в браузере…' : 'Найти людей в браузере'}
            </button>
          </>
        )}
        {browserPeople.result && (
          <span data-testid="browser-humans-found">
            {' '}
            · в браузере (MoveNet, {browserPeople.result.backend}, {Math.round(browserPeople.result.milliseconds)} мс) найдено:{' '}
            {browserPeople.result.people.length}
          </span>
        )}
      </p>
      <Banner text={browserPeople.error} />
      <div className="vision-media">
        <FramePlayer videoRef={videoRef} videoId={videoId} onFrame={onFrame} speeds />
        <FrameCanvas frame={frame} rect={rect} onRect={setRect} marks={marks} boxes={boxes} />
      </div>

      <section className="card" aria-labelledby="stand-locations-title">
        <h2 id="stand-locations-title">Расположения стендов</h2>
        <LocationTable
          rows={standLocations}
          columns={[...coordinateColumns('x', 'y'), momentColumn]}
          empty="Точек стендов на этой камере пока нет."
          canWrite={canWrite}
          noun="точку стенда"
          onDelete={(l) => void remove('/api/v1/stand_location/remove/{id}', l.id)}
          testId="stand-locations-table"
          rowTestId="stand-location-row"
        />
        {canWrite && (
          <form className="vision-form" onSubmit={addStandLocation} aria-label="Новое расположение стенда" data-testid="stand-location-form">
            <div className="row">
              <NamedSelect label="Стенд или базис" value={standId} options={stands} onChange={setStandId} />
              <label className="inline">
                <input type="checkbox" checked={onlyNow} onChange={(e) => setOnlyNow(e.target.checked)} />
                Стенд здесь только в этот момент
              </label>
            </div>
            <p className="muted small">Нажмите на кадр в месте стенда (или обведите его: точкой станет центр прямоугольника).</p>
            <button type="submit" className="button">
              Добавить точку стенда
            </button>
          </form>
        )}
      </section>

      <section className="card" aria-labelledby="movable-locations-title">
        <h2 id="movable-locations-title">Расположения подвижных объектов</h2>
        <LocationTable
          rows={movableLocations}
          columns={[...coordinateColumns('x1', 'y1', 'x2', 'y2'), momentColumn]}
          empty="Прямоугольников объектов на этой камере пока нет."
          canWrite={canWrite}
          noun="прямоугольник объекта"
          onDelete={(l) => void remove('/api/v1/movable_location/remove/{id}', l.id)}
          testId="movable-locations-table"
          rowTestId="movable-location-row"
        />
        {canWrite && (
          <>
            <form className="vision-form" onSubmit={addMovableLocation} aria-label="Новое расположение объекта" data-testid="movable-location-form">
              <div className="row">
                <NamedSelect label="Объект" value={movableId} options={movables} onChange={setMovableId} />
              </div>
              <button type="submit" className="button">
                Добавить прямоугольник объекта
              </button>
            </form>
            <form className="vision-form" onSubmit={addMovable} aria-label="Новый подвижный объект">
              <div className="row">
                <label className="grow">
                  Новый подвижный объект
                  <input value={newMovable} maxLength={200} onChange={(e) => setNewMovable(e.target.value)} />
                </label>
              </div>
              <button type="submit" className="button secondary">
                Добавить объект
              </button>
            </form>
          </>
        )}
      </section>
    </section>
  );
}

/** A choice among named things (stands, objects); '' until one is chosen. */
function NamedSelect({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: string;
  options: readonly { id: number; name: string }[];
  onChange(id: string): void;
}) {
  return (
    <label>
      {label}
      <select value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">— выберите —</option>
        {options.map((o) => (
          <option key={o.id} value={o.id}>
            {o.name}
          </option>
        ))}
      </select>
    </label>
  );
}
