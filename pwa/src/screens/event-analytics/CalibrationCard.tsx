import { useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import type { EventAnalytics, HallCamera } from '../../state/eventAnalytics';
import { Banner } from '../../ui/Banner';
import { CameraFrame, type FrameSize } from './CameraFrame';

type Point = [number, number];
const COUNT = 4;

/** The four frame points over the frame: a click places the next missing one, a drag moves one. */
function FramePoints({
  size,
  points,
  onChange,
  editable,
}: {
  size: FrameSize;
  points: (Point | null)[];
  onChange(points: (Point | null)[]): void;
  editable: boolean;
}) {
  const dragging = useRef<number | null>(null);
  const toFrame = (event: React.PointerEvent<SVGSVGElement>): Point => {
    const box = event.currentTarget.getBoundingClientRect();
    const x = ((event.clientX - box.left) / box.width) * size.width;
    const y = ((event.clientY - box.top) / box.height) * size.height;
    return [Math.round(Math.min(size.width, Math.max(0, x))), Math.round(Math.min(size.height, Math.max(0, y)))];
  };
  const set = (i: number, p: Point) => onChange(points.map((q, j) => (j === i ? p : q)));
  const r = size.width / 80;
  return (
    <svg
      className="event-frame-overlay picking"
      viewBox={`0 0 ${size.width} ${size.height}`}
      preserveAspectRatio="none"
      data-testid="calibration-frame"
      aria-label="Кадр камеры: точки калибровки"
      onPointerDown={(e) => {
        if (!editable) return;
        const p = toFrame(e);
        const near = points.findIndex((q) => q !== null && Math.hypot(q[0] - p[0], q[1] - p[1]) < r * 2);
        if (near >= 0) dragging.current = near;
        else {
          const free = points.findIndex((q) => q === null);
          if (free >= 0) set(free, p);
        }
      }}
      onPointerMove={(e) => dragging.current !== null && set(dragging.current, toFrame(e))}
      onPointerUp={() => (dragging.current = null)}
    >
      {points.map(
        (p, i) =>
          p && (
            <g key={i}>
              <circle cx={p[0]} cy={p[1]} r={r} fill="#ff9800" stroke="#fff" strokeWidth={r / 4} />
              <text x={p[0] + r * 1.2} y={p[1] - r * 1.2} fontSize={r * 2.4} fill="#fff" stroke="#000" strokeWidth={r / 8}>
                {i + 1}
              </text>
            </g>
          ),
      )}
    </svg>
  );
}

/** One camera's calibration: four points on its frame ↔ four plan points in metres (PUT /api/v1/event/calibration). */
export function CalibrationCard({ store, camera, canWrite }: { store: EventAnalytics; camera: HallCamera; canWrite: boolean }) {
  const snap = useSnapshot(store.state);
  const saved = camera.calibration;
  const [framePoints, setFramePoints] = useState<(Point | null)[]>(() =>
    saved ? saved.image_points.map((p) => [p[0], p[1]] as Point) : Array(COUNT).fill(null),
  );
  const [plan, setPlan] = useState<string[][]>(() => (saved ? saved.plan_points.map((p) => p.map(String)) : Array.from({ length: COUNT }, () => ['', ''])));
  const [frameSize, setFrameSize] = useState<FrameSize | null>(null);
  const [local, setLocal] = useState<string | null>(null);
  const key = `calibration:${camera.id}`;
  const video = camera.videos[0];
  if (!video) return null;

  const save = async () => {
    const planPoints = plan.map((p) => p.map((v) => Number(v.replace(',', '.'))));
    if (framePoints.some((p) => p === null)) return setLocal('Отметьте на кадре все четыре точки');
    if (!frameSize) return setLocal('Кадр ещё не загрузился');
    if (plan.some((p) => p.some((v) => v.trim() === '')) || planPoints.some((p) => p.some((v) => !Number.isFinite(v))))
      return setLocal('Введите координаты всех четырёх точек на плане, в метрах');
    setLocal(null);
    const ok = await store.saveCalibration(camera.id, {
      frame_width: frameSize.width,
      frame_height: frameSize.height,
      image_points: framePoints as Point[],
      plan_points: planPoints as Point[],
    });
    if (ok) setLocal(null);
  };
  const message = local ?? snap.errors[key] ?? null;
  return (
    <section className="card" aria-label={`Калибровка камеры ${camera.name}`} data-testid="calibration-card">
      <h3>
        Калибровка: {camera.name} {saved ? <span className="muted small">сохранена</span> : <span className="muted small">нет калибровки</span>}
      </h3>
      <p className="muted small">Нажмите на кадре четыре точки пола (1–4, перетаскиваются) и введите те же точки на плане зала в метрах.</p>
      <CameraFrame videoId={video.id} onSize={setFrameSize}>
        {(size) => <FramePoints size={size} points={framePoints} onChange={setFramePoints} editable={canWrite} />}
      </CameraFrame>
      <div className="event-calibration-points">
        {plan.map((p, i) => (
          <fieldset key={i} className="event-point">
            <legend>
              Точка {i + 1}: {framePoints[i] ? `кадр ${framePoints[i]![0]}, ${framePoints[i]![1]}` : 'не отмечена'}
            </legend>
            {(['x', 'y'] as const).map((axis, j) => (
              <label key={axis}>
                {axis}, м
                <input
                  inputMode="decimal"
                  maxLength={12}
                  value={p[j]}
                  disabled={!canWrite}
                  aria-label={`Точка ${i + 1}, ${axis} на плане, м`}
                  onChange={(e) => setPlan(plan.map((q, k) => (k === i ? q.map((v, l) => (l === j ? e.target.value : v)) : q)))}
                />
              </label>
            ))}
          </fieldset>
        ))}
      </div>
      {canWrite && (
        <div className="row-actions">
          <button type="button" className="button" disabled={snap.busy[key]} onClick={() => void save()}>
            Сохранить калибровку
          </button>
          <button type="button" className="button secondary small" onClick={() => setFramePoints(Array(COUNT).fill(null))}>
            Сбросить точки кадра
          </button>
        </div>
      )}
      <Banner text={message} />
    </section>
  );
}
