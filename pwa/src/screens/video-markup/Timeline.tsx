import type Konva from 'konva';
import { memo, useEffect, useMemo, useRef, useState } from 'react';
import { Group, Layer, Line, Rect, Shape, Stage, Text } from 'react-konva';
import { formatSeconds } from '../../format/time';
import type { MarkupRow, StampRow } from '../../offline/markup-rows';
import type { Playhead } from './playhead';
import { forRowsIn, SegmentBitmap, type ChangedSpan } from './timeline-segments';
import { type TimelineView, usePlayheadDrawing, useTimelineGestures, useTimelineView } from './timeline-view';

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

const RULER = 22;
const LANE = 30;
const STAMPS = 16;

/** A tick step that gives about one label per 90 px. */
function tickStep(span: number, width: number): number {
  const target = (span / Math.max(1, width)) * 90;
  const steps = [0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200];
  return steps.find((s) => s >= target) ?? 7200;
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

/** The part of the video shown: primitives, so the memoised layers below are left alone by a key press. */
type Span = { width: number; from: number; to: number; height: number };
const xOf =
  ({ width, from, to }: Span) =>
  (t: number) =>
    ((t - from) / (to - from)) * width;

/** The lanes' stripes and labels, and the ruler's ticks with their times. */
const LanesAndTicks = memo(function LanesAndTicks({ lanes, ...shown }: Span & { lanes: LaneInfo[] }) {
  const { width, height } = shown;
  const view = shown;
  const span = shown.to - shown.from;
  const x = xOf(shown);
  const step = tickStep(span, width);
  const ticks: number[] = [];
  for (let t = Math.ceil(view.from / step) * step; t <= view.to; t += step) ticks.push(t);
  return (
    <>
      {lanes.map((lane, i) => (
        <Group key={lane.key}>
          <Rect x={0} y={RULER + i * LANE} width={width} height={LANE} fill={i % 2 ? '#f5f7fa' : '#ffffff'} listening={false} />
          <Text x={4} y={RULER + i * LANE + 2} text={lane.label} fontSize={10} fill="#5f6b7a" listening={false} />
        </Group>
      ))}
      {ticks.map((t) => (
        <Group key={t} listening={false}>
          <Line points={[x(t), 0, x(t), height]} stroke="#d9dee5" strokeWidth={1} />
          <Text x={x(t) + 3} y={5} text={formatSeconds(t)} fontSize={10} fill="#5f6b7a" />
        </Group>
      ))}
    </>
  );
});

/** Note and product stamps in the visible span: a dashed line and a square under the lanes. */
const StampMarks = memo(function StampMarks({ stamps, ...shown }: Span & { stamps: readonly StampRow[] }) {
  const { height } = shown;
  const view = shown;
  const x = xOf(shown);
  return (
    <>
      {stamps
        .filter((s) => s.time >= view.from && s.time <= view.to)
        .map((stamp) => (
          <Group key={stamp.key} listening={false}>
            <Line
              points={[x(stamp.time), RULER, x(stamp.time), height]}
              stroke={stamp.type === 'product' ? '#2e7d32' : '#f9a825'}
              strokeWidth={1}
              dash={[3, 3]}
            />
            <Rect x={x(stamp.time)} y={height - STAMPS + 2} width={8} height={8} fill={stamp.type === 'product' ? '#2e7d32' : '#f9a825'} />
          </Group>
        ))}
    </>
  );
});

/** A draggable edge of the selected segment; dropped, it reports the edge's new second. */
function EdgeHandle({
  timeline,
  selected,
  lane,
  edge,
  onEdge,
}: {
  timeline: TimelineView;
  selected: MarkupRow;
  lane: number;
  edge: 'start' | 'end';
  onEdge: TimelineProps['onEdge'];
}) {
  const { x, timeAt, duration } = timeline;
  const at = x(edge === 'start' ? selected.start : selected.end);
  return (
    <Rect
      x={at - 5}
      y={RULER + lane * LANE + 2}
      width={10}
      height={LANE - 4}
      fill="#1d2430"
      cornerRadius={3}
      draggable
      dragBoundFunc={(pos) => ({ x: pos.x, y: RULER + lane * LANE + 2 })}
      onMouseDown={(e) => (e.cancelBubble = true)}
      onTouchStart={(e) => (e.cancelBubble = true)}
      onDragEnd={(e) => {
        const seconds = Math.round(Math.max(0, Math.min(duration, timeAt(e.target.x() + 5))) * 10) / 10;
        onEdge(selected.key, edge, seconds);
      }}
    />
  );
}

/** The segment under a point of the stage (the topmost, i.e. latest starting, one), if any: by binary search. */
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
 * The markup timeline (konva): one lane per workplace and employee, segments coloured by operation
 * type, note stamps, the playhead. Click seeks, a click on a segment selects it, the selected
 * segment's edges drag, the wheel (or pinch) zooms from the whole video to a few seconds.
 * Only segments inside the visible span are drawn, so thousands of them stay smooth.
 */
export function Timeline(props: TimelineProps) {
  const { live, stamps, selected, duration, playhead, colorOf, laneOf, lanes, rowOf } = props;
  const playheadLine = useRef<Konva.Line>(null);
  const codingRect = useRef<Konva.Rect>(null);
  const segments = useRef<Konva.Shape>(null);
  const timeline = useTimelineView(duration);
  const { container, width, view, x, timeAt } = timeline;
  const laneIndex = useMemo(() => new Map(lanes.map((l, i) => [l.key, i])), [lanes]);
  const height = RULER + Math.max(1, lanes.length) * LANE + STAMPS;
  const coded = () => {
    const { codingKey } = live();
    return codingKey ? rowOf(codingKey) : null;
  };
  const codingY = (row: MarkupRow) => RULER + (laneIndex.get(laneOf(row)) ?? 0) * LANE + 12;
  const drawPlayhead = usePlayheadDrawing(timeline, playhead, coded, playheadLine, codingRect);
  // An edit (a key press) redraws the segments' canvas and moves the coding mark, without a React
  // render of the timeline and its konva tree (the stage reconciles all its layers on each render).
  useEffect(() =>
    props.subscribe(() => {
      const row = coded();
      codingRect.current?.visible(!!row);
      if (row) codingRect.current?.setAttrs({ x: x(row.start), y: codingY(row), fill: colorOf(row) });
      drawPlayhead();
      segments.current?.getLayer()?.batchDraw();
    }),
  );
  const [bitmap] = useState(() => new SegmentBitmap());
  const layout = useMemo(() => ({ laneIndex, colors: props.colors }), [laneIndex, props.colors]);

  const gestures = useTimelineGestures(timeline, (px, py) => {
    const hit = segmentAt(live(), timeline, laneIndex, laneOf, px, py);
    if (hit) props.onSelect(hit.key);
    else props.onSeek(Math.max(0, Math.min(duration, timeAt(px))));
  });

  const coding = coded();
  const selectedLane = selected ? (laneIndex.get(laneOf(selected)) ?? 0) : 0;
  const handles = !!selected;

  return (
    <div className="timeline" ref={container} data-testid="timeline">
      <TimelineTools timeline={timeline} />
      {width > 0 && (
        <Stage width={width} height={height} {...gestures}>
          {/* Lanes and ticks on a canvas of their own: a key press redraws the layer of segments
            above them, not every lane label and tick time again. */}
          <Layer>
            <Rect x={0} y={0} width={width} height={height} fill="#ffffff" />
            <LanesAndTicks lanes={lanes} width={width} from={view.from} to={view.to} height={height} />
          </Layer>
          <Layer>
            {/* All visible segments in one shape: a bitmap kept between draws, in which a key press
              redraws only the time it changed (timeline-segments.ts), so zoomed out over 10,000
              segments a press costs what its own segments do. */}
            <Shape
              ref={segments}
              listening={false}
              perfectDrawEnabled={false}
              sceneFunc={(context) => {
                const now = live();
                bitmap.paint(context._context, {
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
                  draw: (ctx, row) => {
                    const lane = laneIndex.get(laneOf(row)) ?? 0;
                    const left = x(row.start);
                    ctx.fillStyle = colorOf(row);
                    ctx.fillRect(left, RULER + lane * LANE + 12, Math.max(1, x(row.end) - left), LANE - 14);
                  },
                });
              }}
            />
            {handles && (
              <Rect
                x={x(selected.start)}
                y={RULER + selectedLane * LANE + 11}
                width={Math.max(1, x(selected.end) - x(selected.start))}
                height={LANE - 12}
                stroke="#1d2430"
                strokeWidth={2}
                listening={false}
              />
            )}
            {/* Always there, shown while a row is coded: an edit moves it without a render (above). */}
            <Rect
              ref={codingRect}
              visible={!!coding}
              x={coding ? x(coding.start) : 0}
              y={coding ? codingY(coding) : 0}
              width={2}
              height={LANE - 14}
              fill={coding ? colorOf(coding) : undefined}
              opacity={0.6}
              listening={false}
            />
            <StampMarks stamps={stamps} width={width} from={view.from} to={view.to} height={height} />
            {handles && <EdgeHandle timeline={timeline} selected={selected} lane={selectedLane} edge="start" onEdge={props.onEdge} />}
            {handles && <EdgeHandle timeline={timeline} selected={selected} lane={selectedLane} edge="end" onEdge={props.onEdge} />}
          </Layer>
          <Layer listening={false}>
            <Line ref={playheadLine} points={[0, 0, 0, height]} stroke="#c62828" strokeWidth={2} />
          </Layer>
        </Stage>
      )}
    </div>
  );
}
