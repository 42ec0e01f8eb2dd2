import { type FormEvent, useRef, useState } from 'react';
import { Link } from 'wouter';
import type { HumansReply } from '../../api/types';
import { formatSeconds } from '../../format/time';
import { useAllows } from '../../state/login';
import { Banner } from '../../ui/Banner';
import { coordinateColumns, LocationTable } from '../../ui/LocationTable';
import { FrameCanvas, type FrameMark } from '../models/FrameCanvas';
import { FramePlayer } from '../models/FramePlayer';
import '../models/vision.css';
import { useStandLocations, type StandLocationsState } from './useStandLocations';

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

const momentColumn = {
  title: 'Момент',
  value: (l: { checkpoint_time: number | null }) => (l.checkpoint_time === null ? '—' : formatSeconds(l.checkpoint_time)),
};

/** Whether a location stands on the frame at `second` (always, or within the window of its moment). */
const shownAt = (second: number | null) => (l: { checkpoint_time: number | null }) =>
  l.checkpoint_time === null || (second !== null && Math.abs(l.checkpoint_time - second) <= CHECKPOINT_WINDOW_SECONDS);

/** The points drawn on the frame: stands, the clicked point, people found by the server and in the browser. */
function frameMarks({ standLocations, rect, humans, browserPeople, frame }: StandLocationsState): FrameMark[] {
  return [
    ...standLocations
      .filter(shownAt(frame?.second ?? null))
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
}

/** The line under the title: links, and how many people were found on the frame (server, browser). */
function LocationsInfo({ videoId, state }: { videoId: number; state: StandLocationsState }) {
  const { meta, humans, frame, browserPeople } = state;
  return (
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
  );
}

/** Stand points: their table and, for writers, the form that adds the point clicked on the frame. */
function StandLocationsCard({ state, canWrite }: { state: StandLocationsState; canWrite: boolean }) {
  const [standId, setStandId] = useState('');
  const [onlyNow, setOnlyNow] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void state.addStandLocation(standId, onlyNow);
  };
  return (
    <section className="card" aria-labelledby="stand-locations-title">
      <h2 id="stand-locations-title">Расположения стендов</h2>
      <LocationTable
        rows={state.standLocations}
        columns={[...coordinateColumns('x', 'y'), momentColumn]}
        empty="Точек стендов на этой камере пока нет."
        canWrite={canWrite}
        noun="точку стенда"
        onDelete={(l) => void state.remove('/api/v1/stand_location/remove/{id}', l.id)}
        testId="stand-locations-table"
        rowTestId="stand-location-row"
      />
      {canWrite && (
        <form className="vision-form" onSubmit={submit} aria-label="Новое расположение стенда" data-testid="stand-location-form">
          <div className="row">
            <NamedSelect label="Стенд или базис" value={standId} options={state.stands} onChange={setStandId} />
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
  );
}

/** Movable objects' rectangles: their table and, for writers, the forms for a rectangle and a new object. */
function MovableLocationsCard({ state, canWrite }: { state: StandLocationsState; canWrite: boolean }) {
  const [movableId, setMovableId] = useState('');
  const [newMovable, setNewMovable] = useState('');
  const addLocation = (event: FormEvent) => {
    event.preventDefault();
    void state.addMovableLocation(movableId);
  };
  const addMovable = async (event: FormEvent) => {
    event.preventDefault();
    if (await state.addMovable(newMovable)) setNewMovable('');
  };
  return (
    <section className="card" aria-labelledby="movable-locations-title">
      <h2 id="movable-locations-title">Расположения подвижных объектов</h2>
      <LocationTable
        rows={state.movableLocations}
        columns={[...coordinateColumns('x1', 'y1', 'x2', 'y2'), momentColumn]}
        empty="Прямоугольников объектов на этой камере пока нет."
        canWrite={canWrite}
        noun="прямоугольник объекта"
        onDelete={(l) => void state.remove('/api/v1/movable_location/remove/{id}', l.id)}
        testId="movable-locations-table"
        rowTestId="movable-location-row"
      />
      {canWrite && (
        <>
          <form className="vision-form" onSubmit={addLocation} aria-label="Новое расположение объекта" data-testid="movable-location-form">
            <div className="row">
              <NamedSelect label="Объект" value={movableId} options={state.movables} onChange={setMovableId} />
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
  );
}

/**
 * /models-stand-locations/{videoId} (spec 02 «Location marking screen»): stand points and movable
 * rectangles on the camera's frame, with the people the server finds on that frame.
 */
export function StandLocationsScreen({ videoId: videoIdParam }: { videoId: string }) {
  const videoId = Number(videoIdParam);
  const canWrite = useAllows('workspace.write');
  const videoRef = useRef<HTMLVideoElement>(null);
  const state = useStandLocations(videoId);
  const { meta, frame, rect } = state;

  if (state.loadError) {
    return (
      <section className="screen">
        <h1>Разметка расположений</h1>
        <Banner text={state.loadError} />
      </section>
    );
  }
  const boxes = state.movableLocations
    .filter(shownAt(frame?.second ?? null))
    .map((l) => ({ key: `m${l.id}`, x1: l.x1, y1: l.y1, x2: l.x2, y2: l.y2, color: '#b36b00' }));

  return (
    <section className="screen vision-screen">
      <h1>Разметка расположений по видео «{meta?.filename ?? videoId}»</h1>
      <LocationsInfo videoId={videoId} state={state} />
      <Banner text={state.browserPeople.error} />
      <div className="vision-media">
        <FramePlayer videoRef={videoRef} videoId={videoId} onFrame={state.onFrame} speeds />
        <FrameCanvas frame={frame} rect={rect} onRect={state.setRect} marks={frameMarks(state)} boxes={boxes} />
      </div>
      <StandLocationsCard state={state} canWrite={canWrite} />
      <MovableLocationsCard state={state} canWrite={canWrite} />
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
