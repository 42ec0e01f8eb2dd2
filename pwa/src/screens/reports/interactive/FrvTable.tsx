import { useVirtualizer } from '@tanstack/react-virtual';
import { useLayoutEffect, useRef, useState } from 'react';
import { formatSeconds } from '../../../format/time';
import { INTERACTIVE_TABLE_EXTRA_PX } from '../constants';
import { hms, num } from '../format';
import type { FrvItem, InteractiveFrv } from '../types';
import { segmentFor } from './useFrvPlayer';

/**
 * Estimated row heights, px, before a row is measured: a table row at a computer's width, a card
 * of «column: value» lines on a phone (reports.css, max-width 640px). Rows are measured only when
 * they are built, as they come into view; the estimate only has to be near for the scrollbar.
 */
const ROW_HEIGHT = 52;
const CARD_HEIGHT = 96;
/** Rows built beyond the visible ones on either side. */
const OVERSCAN = 4;

/**
 * Interactive table columns: header and width class (reports.css). «Длительность» may break only at
 * its soft hyphen («Длитель-ность»), never inside a syllable.
 */
const FRV_COLUMNS = [
  ['№', 'num'],
  ['Операция', 'op'],
  ['Тип', 'type'],
  ['Начало', 'time'],
  ['Конец', 'time'],
  ['Длитель\u00adность', 'time'],
  ['Начало в видео', 'time'],
  ['Конец в видео', 'time'],
] as const;

type OperationType = InteractiveFrv['operation_types'][number];

interface RowProps {
  item: FrvItem;
  index: number;
  measure: (element: HTMLTableRowElement | null) => void;
  type: OperationType | undefined;
  cameraKey: number | null;
  selected: boolean;
  /** Percent off the norm in force, when the cycle is far from it. */
  farPercent: number | undefined;
  when: (iso: string) => string;
  jump: (item: FrvItem) => void;
}

/** One operation of the work-day photography: the button that plays it, its type, times and place in the video. */
function FrvRow({ item, index, measure, type, cameraKey, selected, farPercent, when, jump }: RowProps) {
  const segment = segmentFor(item, cameraKey);
  const far = farPercent !== undefined;
  return (
    <tr
      ref={measure}
      data-index={index}
      className={[selected ? 'selected' : '', segment ? '' : 'frv-no-footage', far ? 'frv-far-from-norm' : ''].join(' ').trim() || undefined}
      data-testid="frv-row"
      data-item-id={item.id}
      data-footage={segment ? 'yes' : 'no'}
    >
      <td data-label="№">{item.number}</td>
      <td className="frv-op">
        <button
          type="button"
          className="link-button op-jump"
          onClick={() => jump(item)}
          title={segment ? `${segment.filename}, с ${formatSeconds(segment.video_segment.start)}` : 'нет записи'}
        >
          {item.operation_name}
        </button>
        {!segment && (
          <span className="no-footage-mark" data-testid="no-footage">
            нет видео
          </span>
        )}
        {far && (
          <span className="far-from-norm-mark" data-testid="far-from-norm">
            далеко от нормы ({farPercent > 0 ? '+' : ''}
            {num(farPercent, 0)} %)
          </span>
        )}
        {item.employee_name && <div className="muted small">{item.employee_name}</div>}
      </td>
      <td className="frv-type">
        <span className="swatch" style={{ background: type?.color }} /> {type?.label ?? item.operation_type}
      </td>
      <td data-label="с">{when(item.time_slot.fromm)}</td>
      <td data-label="по">{when(item.time_slot.to)}</td>
      <td className="num" data-label="длит.">
        {hms(item.duration)}
      </td>
      <td className="num" data-testid="video-start" data-label="видео с">
        {segment ? formatSeconds(segment.video_segment.start) : '—'}
      </td>
      <td className="num" data-label="по">
        {segment ? formatSeconds(segment.video_segment.end) : '—'}
      </td>
    </tr>
  );
}

interface Props {
  rows: FrvItem[];
  /** Index of the first row a camera recorded; -1 when none did. */
  firstWithFootage: number;
  videoHeight: number;
  types: Map<string, OperationType>;
  far: Map<number, number>;
  cameraKey: number | null;
  selected: number | null;
  when: (iso: string) => string;
  jump: (item: FrvItem) => void;
}

/**
 * The work-day photography table, as tall as the player beside it; only the rows in view are built.
 * It opens at the first row a camera recorded (a day's first rows often have no footage), and again
 * whenever the filter changes the rows. The first screen is built right there: the list starts at
 * that row's estimated offset (no rows above it are built or measured), and rows measured later
 * above the view move the scroll position by their difference, so that row stays at the top
 * without a scroll-and-measure loop.
 */
export function FrvTable({ rows, firstWithFootage, videoHeight, types, far, cameraKey, selected, when, jump }: Props) {
  const scroller = useRef<HTMLDivElement>(null);
  const [rowHeight] = useState(() => (typeof window.matchMedia === 'function' && window.matchMedia('(max-width: 640px)').matches ? CARD_HEIGHT : ROW_HEIGHT));
  const virtual = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => rowHeight,
    overscan: OVERSCAN,
    initialOffset: () => Math.max(0, firstWithFootage) * rowHeight,
    initialRect: { width: 0, height: videoHeight + INTERACTIVE_TABLE_EXTRA_PX },
  });
  // Before the first paint, and once per change of the rows: one scroll to an offset (an index
  // target would be chased frame after frame as the rows measure). The list reads the element's
  // position when it attaches, so the first render's offset alone does not hold.
  useLayoutEffect(() => {
    virtual.scrollToOffset(firstWithFootage > 0 ? (virtual.getOffsetForIndex(firstWithFootage, 'start')?.[0] ?? 0) : 0);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [rows, firstWithFootage]);
  const built = virtual.getVirtualItems();

  return (
    <div ref={scroller} className="frv-scroll" style={{ height: videoHeight + INTERACTIVE_TABLE_EXTRA_PX }} data-testid="frv-scroll">
      {/* Fixed layout (the rows come and go as the table scrolls, the columns must not move): the
          times have the width they need, the operation takes the rest and wraps between words. */}
      <table className="data-table compact frv-table" data-testid="frv-table">
        <colgroup>
          {FRV_COLUMNS.map(([, kind], i) => (
            <col key={i} className={`frv-col-${kind}`} />
          ))}
        </colgroup>
        <thead>
          <tr>
            {FRV_COLUMNS.map(([title]) => (
              <th key={title}>{title}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {built.length > 0 && <tr style={{ height: built[0]!.start }} aria-hidden />}
          {built.map((v) => {
            const item = rows[v.index]!;
            return (
              <FrvRow
                key={item.id}
                item={item}
                index={v.index}
                measure={virtual.measureElement}
                type={types.get(item.operation_type)}
                cameraKey={cameraKey}
                selected={item.id === selected}
                farPercent={far.get(item.id)}
                when={when}
                jump={jump}
              />
            );
          })}
          {built.length > 0 && <tr style={{ height: virtual.getTotalSize() - built[built.length - 1]!.end }} aria-hidden />}
        </tbody>
      </table>
      {rows.length === 0 && <p className="muted">В этом окне нет размеченных операций.</p>}
    </div>
  );
}
