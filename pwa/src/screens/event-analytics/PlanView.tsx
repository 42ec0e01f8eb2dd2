import { useEffect, useRef } from 'react';
import type { EventFigures, EventZone } from '../../api/types';
import { heatColour } from '../../state/eventAnalytics';

type Grid = EventFigures['heat_map'];
type Point = [number, number];
export interface PlanBounds {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

/** Largest drawn width of the plan, screen pixels (narrower on a phone: the view follows its box). */
const PLAN_WIDTH = 720;

/** The plan area to show: the heat map's grid, else the zones and the calibrations' plan points, else 20 × 20 m. */
export function planBounds(grid: Grid | null, zones: readonly EventZone[], extra: readonly Point[] = []): PlanBounds {
  const points: Point[] = [...extra];
  if (grid && grid.columns > 0 && grid.rows > 0) {
    points.push(grid.origin, [grid.origin[0] + grid.columns * grid.cell, grid.origin[1] + grid.rows * grid.cell]);
  }
  for (const z of zones) {
    if (z.shape.type === 'polygon') points.push(...(z.shape.points as Point[]));
    else {
      const [x, y] = z.shape.center;
      points.push([x - z.shape.radius, y - z.shape.radius], [x + z.shape.radius, y + z.shape.radius]);
    }
  }
  if (points.length === 0) return { minX: 0, minY: 0, maxX: 20, maxY: 20 };
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  const b = { minX: Math.min(...xs), minY: Math.min(...ys), maxX: Math.max(...xs), maxY: Math.max(...ys) };
  // A margin of a metre, and never a flat area.
  return { minX: b.minX - 1, minY: b.minY - 1, maxX: Math.max(b.maxX + 1, b.minX + 2), maxY: Math.max(b.maxY + 1, b.minY + 2) };
}

/** Paints a heat grid onto a canvas whose pixels map to `area` (grid units: metres on the plan, pixels on a frame). */
export function paintGrid(canvas: HTMLCanvasElement, grid: Grid, area: { x: number; y: number; width: number; height: number }) {
  const ctx = canvas.getContext('2d');
  if (!ctx) return;
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  const max = Math.max(0, ...grid.seconds);
  const sx = canvas.width / area.width;
  const sy = canvas.height / area.height;
  grid.seconds.forEach((seconds, i) => {
    const colour = heatColour(seconds, max);
    if (!colour) return;
    const column = i % grid.columns;
    const row = Math.floor(i / grid.columns);
    ctx.fillStyle = colour;
    ctx.fillRect(
      (grid.origin[0] + column * grid.cell - area.x) * sx,
      (grid.origin[1] + row * grid.cell - area.y) * sy,
      Math.ceil(grid.cell * sx),
      Math.ceil(grid.cell * sy),
    );
  });
}

const ZONE_COLOURS = { zone: '#1f5fa8', stand: '#2e7d32', safe: '#c62828' } as const;

interface PlanViewProps {
  bounds: PlanBounds;
  heat: Grid | null;
  zones: readonly EventZone[];
  paths?: EventFigures['paths'];
  /** Points being placed (a new polygon), drawn as a dashed line. */
  draft?: readonly Point[];
  /** A click on the plan, in metres (placing a polygon's points or a circle's centre). */
  onPick?(point: Point): void;
}

/** The hall's plan in metres: the heat map (canvas), zones outlined, paths if asked, clicks in metres. */
export function PlanView({ bounds, heat, zones, paths = [], draft = [], onPick }: PlanViewProps) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const width = bounds.maxX - bounds.minX;
  const height = bounds.maxY - bounds.minY;
  const pixelHeight = Math.max(120, Math.round((PLAN_WIDTH * height) / width));
  useEffect(() => {
    if (canvas.current && heat) paintGrid(canvas.current, heat, { x: bounds.minX, y: bounds.minY, width, height });
  }, [heat, bounds.minX, bounds.minY, width, height]);
  const pick = (event: React.MouseEvent<SVGSVGElement>) => {
    if (!onPick) return;
    const box = event.currentTarget.getBoundingClientRect();
    const x = bounds.minX + ((event.clientX - box.left) / box.width) * width;
    const y = bounds.minY + ((event.clientY - box.top) / box.height) * height;
    onPick([Math.round(x * 100) / 100, Math.round(y * 100) / 100]);
  };
  const line = (points: readonly Point[]) => points.map((p) => p.join(',')).join(' ');
  const stroke = width / 300;
  return (
    <div className="event-plan" style={{ aspectRatio: `${PLAN_WIDTH} / ${pixelHeight}` }}>
      <canvas ref={canvas} width={PLAN_WIDTH} height={pixelHeight} data-testid="plan-heat" />
      <svg
        viewBox={`${bounds.minX} ${bounds.minY} ${width} ${height}`}
        preserveAspectRatio="none"
        onClick={pick}
        className={onPick ? 'picking' : undefined}
        data-testid="plan-view"
        aria-label="План зала"
      >
        {paths.map((p) => (
          <polyline key={p.track_id} points={p.points.map((q) => `${q.x},${q.y}`).join(' ')} fill="none" stroke="#555" strokeWidth={stroke} opacity={0.6} />
        ))}
        {zones.map((z) =>
          z.shape.type === 'polygon' ? (
            <polygon key={z.id} points={line(z.shape.points as Point[])} fill="none" stroke={ZONE_COLOURS[z.role]} strokeWidth={stroke * 2} />
          ) : (
            <circle
              key={z.id}
              cx={z.shape.center[0]}
              cy={z.shape.center[1]}
              r={z.shape.radius}
              fill="none"
              stroke={ZONE_COLOURS[z.role]}
              strokeWidth={stroke * 2}
            />
          ),
        )}
        {draft.length > 0 && <polyline points={line(draft)} fill="none" stroke="#ff9800" strokeWidth={stroke * 2} strokeDasharray={`${stroke * 4}`} />}
        {draft.map((p, i) => (
          <circle key={i} cx={p[0]} cy={p[1]} r={stroke * 4} fill="#ff9800" />
        ))}
      </svg>
    </div>
  );
}
