import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { formatSeconds } from '../../format/time';
import type { MarkupRow, StampRow } from '../../offline/markup-rows';
import type { Playhead } from './playhead';
import { drawLanesAndTicks, drawPlayhead, drawSelection, drawStamps, edgeBoxes, LANE, prepareCanvas, RULER, STAMPS, type Span } from './timeline-draw';
import { forRowsIn, SegmentBitmap, type ChangedSpan } from './timeline-segments';
import { type Grab, type TimelineView, usePlayheadDrawing, useTimelineGestures, useTimelineView } from './timeline-view';

export interface LaneInfo {
  key: string;
  label: string;
}

/** What changes with every edit: read when the segments are drawn, not passed as props (a change redraws the canvas, not React). */
export interface TimelineRows {
  rows: readonly MarkupRow[];
  revision: number;
  codingKey: string | null;
  /** No row is longer than this (seconds). */
  longestRow: number;
}

interface TimelineProps {
  /** The rows now (MarkupSession); `subscribe` tells when they change. */
  live(): TimelineRows;
  subscribe(listener: () => void): () => void;
  stamps: readonly StampRow[];
  /** The selected row when it is not the one being coded: drawn with its draggable edges. */
  selected: MarkupRow | null;
  duration: number;
  playhead: Playhead;
  colorOf: (row: MarkupRow) => string;
  laneOf: (row: MarkupRow) => string;
  /** Changes when colourOf's colours do (the operations were loaded). */
  colors: unknown;
  lanes: LaneInfo[];
  /** The row of a key, without a pass over the rows. */
  rowOf(key: string): MarkupRow | null;
  /** The time span rows changed in after a revision (MarkupSession.rowsChangedSince). */
  changedSince(revision: number): ChangedSpan;
  onSeek(seconds: number): void;
  onSelect(key: string): void;
  onEdge(key: string, edge: 'start' | 'end', seconds: number): void;
}

/** Zoom in and out, the whole video, the scroll bar over the video, and the span shown. */
function TimelineTools({ timeline }: { timeline: TimelineView }) {
  const { width, view, span, zoom, pan, duration } = timeline;
  return (
    <div className="timeline-tools">
      <button type="button" className="button secondary small" onClick={() => zoom(0.5, width / 2)} aria-label="Приблизить">
        +
      </button>
      <button type="button" className="button secondary small" onClick={() => zoom(2, width / 2)} aria-label="Отдалить">
        −
      </button>
      <button type="button" className="button secondary small" onClick={timeline.showAll}>
        Всё видео
      </button>
      <input
        type="range"
        aria-label="Прокрутка шкалы"
        min={0}
        max={Math.max(0, duration - span)}
        step={0.1}
        value={view.from}
        onChange={(e) => pan(Number(e.target.value) - view.from)}
        disabled={span >= duration}
      />
      <span className="muted">
        {formatSeconds(view.from)} – {formatSeconds(view.to)}
      </span>
    </div>
  );
}

/** The segment under a point of the timeline (the topmost, i.e. latest starting, one), if any: by binary search. */
function segmentAt(
  { rows, longestRow }: TimelineRows,
  { timeAt, width, span }: TimelineView,
  laneIndex: Map<string, number>,
  laneOf: (row: MarkupRow) => string,
  px: number,
  py: number,
): MarkupRow | undefined {
  const lane = Math.floor((py - RULER) / LANE);
  if (lane < 0 || lane >= laneIndex.size || py - RULER - lane * LANE < 8) return undefined;
  const time = timeAt(px);
  const slack = (3 / width) * span;
  let hit: MarkupRow | undefined;
  forRowsIn(rows, longestRow, time - slack, time + slack, (row) => {
    if (laneIndex.get(laneOf(row)) === lane) hit = row;
  });
  return hit;
}

/**
 * The markup timeline, drawn on three stacked canvases: lanes and ticks at the bottom (drawn when the
 * view or the lanes change), the segments with the selection and the stamps above them (also on each
 * edit, by subscription, and while an edge is dragged), the playhead with the segment being coded on
 * top (on every move of the playhead). One lane per workplace and employee, segments coloured by
 * operation type, note stamps, the playhead. Click seeks, a click on a segment selects it, the selected
 * segment's edges drag, the wheel (or a pinch) zooms from the whole video to a few seconds.
 * Only segments inside the visible span are drawn, so thousands of them stay smooth. Plain 2D canvas
 * rather than a scene-graph library: on a tablet's CPU creating konva's stage and its nodes was about a
 * tenth of the screen's cold open, and every edit reconciled its tree (docs/performance.md).
 */
export function Timeline(props: TimelineProps) {
  const { live, subscribe, stamps, selected, duration, playhead, colorOf, laneOf, lanes, rowOf } = props;
  const timeline = useTimelineView(duration);
  const { container, width, view, x, timeAt } = timeline;
  const laneIndex = useMemo(() => new Map(lanes.map((l, i) => [l.key, i])), [lanes]);
  const height = RULER + Math.max(1, lanes.length) * LANE + STAMPS;
  const span: Span = { width, height, from: view.from, to: view.to };
  const surface = useRef<HTMLDivElement>(null);
  const base = useRef<HTMLCanvasElement>(null);
  const marks = useRef<HTMLCanvasElement>(null);
  const top = useRef<HTMLCanvasElement>(null);
  const [bitmap] = useState(() => new SegmentBitmap());
  const layout = useMemo(() => ({ laneIndex, colors: props.colors }), [laneIndex, props.colors]);
  // An edge of the selected segment being dragged: where it is now (its centre, in pixels).
  const moved = useRef<{ edge: 'start' | 'end'; px: number } | null>(null);
  const selectedLane = selected ? (laneIndex.get(laneOf(selected)) ?? 0) : 0;

  const coded = () => {
    const { codingKey } = live();
    const row = codingKey ? rowOf(codingKey) : null;
    return row ? { row, lane: laneIndex.get(laneOf(row)) ?? 0, colour: colorOf(row) } : null;
  };
  const drawMarks = () => {
    const canvas = marks.current;
    const ctx = canvas && prepareCanvas(canvas, width, height);
    if (!ctx) return;
    const now = live();
    bitmap.paint(ctx, {
      rows: now.rows,
      revision: now.revision,
      codingKey: now.codingKey,
      longest: now.longestRow,
      changedSince: props.changedSince,
      row: rowOf,
      view,
      width,
      height,
      layout,
      x,
      timeAt,
      draw: (c, row) => {
        const lane = laneIndex.get(laneOf(row)) ?? 0;
        const left = x(row.start);
        c.fillStyle = colorOf(row);
        c.fillRect(left, RULER + lane * LANE + 12, Math.max(1, x(row.end) - left), LANE - 14);
      },
    });
    if (selected) drawSelection(ctx, span, selected, selectedLane, moved.current);
    drawStamps(ctx, span, stamps);
  };
  const drawTop = () => {
    const canvas = top.current;
    const ctx = canvas && prepareCanvas(canvas, width, height);
    if (ctx) drawPlayhead(ctx, span, playhead.time, coded());
  };
  // The drawings of this render, for the subscriptions and gestures that outlive it.
  const latest = useRef({ drawMarks, drawTop });
  latest.current = { drawMarks, drawTop };

  useLayoutEffect(() => {
    const canvas = base.current;
    const ctx = canvas && prepareCanvas(canvas, width, height);
    if (ctx) drawLanesAndTicks(ctx, span, lanes);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- span is made of these
  }, [width, height, view.from, view.to, lanes]);
  // Every render draws the segments' canvas before the browser paints (the bitmap redraws only what changed).
  useLayoutEffect(() => latest.current.drawMarks());
  usePlayheadDrawing(playhead, () => latest.current.drawTop());
  // An edit (a key press) redraws the segments and the coding mark in the next frame, without a React
  // render of the timeline; several edits before it are drawn once.
  useEffect(() => {
    let frame = 0;
    const unsubscribe = subscribe(() => {
      frame ||= requestAnimationFrame(() => {
        frame = 0;
        latest.current.drawMarks();
        latest.current.drawTop();
      });
    });
    return () => {
      unsubscribe();
      cancelAnimationFrame(frame);
    };
  }, [subscribe]);

  /** A press on an edge of the selected segment drags that edge; dropped, it reports the edge's new second. */
  const grab = (px: number, py: number): Grab | null => {
    if (!selected) return null;
    const box = edgeBoxes(span, selected, selectedLane).find((b) => px >= b.left - 2 && px <= b.left + b.width + 2 && py >= b.top && py <= b.top + b.height);
    if (!box) return null;
    const { key } = selected;
    const offset = px - (box.left + box.width / 2);
    return {
      move: (at) => {
        moved.current = { edge: box.edge, px: at - offset };
        latest.current.drawMarks();
      },
      drop: (at) => {
        moved.current = null;
        const seconds = Math.round(Math.max(0, Math.min(duration, timeAt(at - offset))) * 10) / 10;
        props.onEdge(key, box.edge, seconds);
        latest.current.drawMarks();
      },
    };
  };
  const gestures = useTimelineGestures(
    timeline,
    surface,
    (px, py) => {
      const hit = segmentAt(live(), timeline, laneIndex, laneOf, px, py);
      if (hit) props.onSelect(hit.key);
      else props.onSeek(Math.max(0, Math.min(duration, timeAt(px))));
    },
    grab,
  );

  const canvasStyle = { position: 'absolute', left: 0, top: 0, width, height } as const;
  return (
    <div className="timeline" ref={container} data-testid="timeline">
      <TimelineTools timeline={timeline} />
      {width > 0 && (
        <div ref={surface} className="timeline-surface" style={{ position: 'relative', width, height }} {...gestures}>
          <canvas ref={base} style={canvasStyle} />
          <canvas ref={marks} style={canvasStyle} />
          <canvas ref={top} style={canvasStyle} />
        </div>
      )}
    </div>
  );
}
