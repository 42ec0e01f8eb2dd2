import { memo, useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import type { AvailableOperations, NamedItem } from '../../api/types';
import type { MarkupRow } from '../../offline/markup-rows';
import { confidenceText } from './review';
import type { MarkupSession } from './session';
import { TimeInput } from './TimeInput';
import { NamedSelect } from '../../ui/NamedSelect';

/** An operation the video may be marked with (GET /api/v1/available_operations). */
export type OperationOption = AvailableOperations['operations'][number];

interface RowsProps {
  session: MarkupSession;
  rows: readonly MarkupRow[];
  selectedKey: string | null;
  operations: OperationOption[];
  workplaces: NamedItem[];
  employees: NamedItem[];
  onSeek(seconds: number): void;
  /** Look only (no markup.write): the fields are disabled and rows cannot be removed. */
  readOnly?: boolean;
}

function CommentInput({ value, onCommit, disabled }: { value: string; onCommit(value: string): void; disabled?: boolean }) {
  const [draft, setDraft] = useState(value);
  useEffect(() => setDraft(value), [value]);
  return (
    <input
      className="comment"
      aria-label="Комментарий"
      placeholder="Комментарий"
      value={draft}
      disabled={disabled}
      onChange={(e) => setDraft(e.target.value)}
      onBlur={() => draft !== value && onCommit(draft)}
    />
  );
}

const ROW_HEIGHT = 58;
/** A tablet's width: two lines per row (see .op-row.two). */
const TWO_LINE_ROW_HEIGHT = 112;
/** Portrait: four lines per row (see .op-row.narrow). */
const NARROW_ROW_HEIGHT = 216;
/** A phone: six, operation (two lines of text high), workplace and employee each on a line of their own (.op-row.narrow.phone). */
const PHONE_ROW_HEIGHT = 330;

type RowLayout = 'wide' | 'two' | 'narrow' | 'phone';
/**
 * A row's layout from the width the list has (not the window's: beside the side panels or under
 * them): one line where every field keeps a readable width, else two, four or five (issue 28).
 */
function layoutFor(width: number): RowLayout {
  if (width >= 1050) return 'wide';
  if (width >= 800) return 'two';
  return width >= 520 ? 'narrow' : 'phone';
}

function useRowLayout(scroller: RefObject<HTMLDivElement | null>, hasRows: boolean): RowLayout {
  const [layout, setLayout] = useState<RowLayout>(() => layoutFor(typeof window === 'undefined' ? 1440 : window.innerWidth - 32));
  useEffect(() => {
    const element = scroller.current;
    if (!element || typeof ResizeObserver !== 'function') return;
    const observer = new ResizeObserver(() => setLayout(layoutFor(element.clientWidth)));
    observer.observe(element);
    return () => observer.disconnect();
  }, [scroller, hasRows]);
  return layout;
}

/** Rows drawn beyond each edge of the view, so a quick scroll does not show blank space. */
const OVERSCAN = 6;

/**
 * The rows in view of a scroller of fixed-height rows: which to draw comes from the scroll offset
 * alone, O(1) per render. (A general virtualiser measures every one of 10,000 rows again when one
 * is added and reads the scroller's size, forcing a layout — on each key press.)
 */
function useRowWindow(scroller: RefObject<HTMLDivElement | null>, count: number, rowHeight: number, viewHeight: number) {
  const [scrollTop, setScrollTop] = useState(0);
  // The offset as last seen or set: reading the scroller's own would force a layout after each change.
  const offset = useRef(0);
  const hasRows = count > 0;
  useEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const onScroll = () => {
      offset.current = element.scrollTop;
      setScrollTop(offset.current);
    };
    element.addEventListener('scroll', onScroll, { passive: true });
    return () => element.removeEventListener('scroll', onScroll);
  }, [scroller, hasRows]);
  /** Scrolls just enough to show row `index` (nothing when it is in view). */
  const scrollTo = useCallback(
    (index: number) => {
      const element = scroller.current;
      if (!element) return;
      const top = index * rowHeight;
      let next = offset.current;
      if (top < next) next = top;
      else if (top + rowHeight > next + viewHeight) next = top + rowHeight - viewHeight;
      if (next === offset.current) return;
      offset.current = next;
      element.scrollTop = next;
      setScrollTop(next);
    },
    [scroller, rowHeight, viewHeight],
  );
  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - OVERSCAN);
  const last = Math.min(count, Math.ceil((scrollTop + viewHeight) / rowHeight) + OVERSCAN);
  return { first, last, scrollTo };
}

interface RowProps {
  row: MarkupRow;
  index: number;
  /** Pixels from the list's top (the virtualiser's). */
  top: number;
  selected: boolean;
  layout: RowLayout;
  rowHeight: number;
  session: MarkupSession;
  operations: OperationOption[];
  workplaces: NamedItem[];
  employees: NamedItem[];
  onSeek(seconds: number): void;
  readOnly: boolean;
}

/**
 * One row of the list. Memoised: rows are frozen objects replaced only when they change, so a key
 * press redraws the rows it changed (and those whose number moved), not every row in view.
 */
const OperationRow = memo(function OperationRow(props: RowProps) {
  const { row, index, top, selected, layout, rowHeight, session, operations, workplaces, employees, onSeek, readOnly } = props;
  const bad = !(row.start < row.end);
  const operation = operations.find((o) => o.id === row.operation_id);
  return (
    <div
      className={`op-row${selected ? ' selected' : ''}${{ wide: '', two: ' two', narrow: ' narrow', phone: ' narrow phone' }[layout]}`}
      data-testid="op-row"
      style={{ position: 'absolute', top: 0, left: 0, right: 0, height: rowHeight, transform: `translateY(${top}px)` }}
      onFocus={() => session.selectedKey !== row.key && session.select(row.key)}
    >
      <button
        type="button"
        className={`row-number${row.source === 'model' ? ' from-model' : ''}`}
        style={{ borderLeftColor: operation?.color ?? '#d9dee5' }}
        onClick={() => {
          session.select(row.key);
          onSeek(row.start);
        }}
        title={
          row.source === 'model'
            ? `Разметила модель, уверенность ${confidenceText(row.confidence)} — проверьте: V — принять, X — отклонить. Перейти к началу`
            : 'Перейти к началу'
        }
        data-confidence={row.source === 'model' ? confidenceText(row.confidence) : undefined}
      >
        {index + 1}
      </button>
      <NamedSelect
        disabled={readOnly}
        aria-label="Операция"
        placeholder="— операция —"
        items={operations}
        value={row.operation_id}
        className={row.operation_id === null ? 'invalid' : ''}
        onChange={(operation_id) => session.updateRow(row.key, { operation_id })}
      />
      <NamedSelect
        disabled={readOnly}
        aria-label="Рабочее место"
        placeholder="— рабочее место —"
        items={workplaces}
        value={row.workplace_id}
        className={row.workplace_id === null ? 'invalid' : ''}
        onChange={(workplace_id) => session.updateRow(row.key, { workplace_id })}
      />
      <NamedSelect
        disabled={readOnly}
        aria-label="Сотрудник"
        placeholder="— сотрудник —"
        items={employees}
        value={row.employee_id}
        onChange={(employee_id) => session.updateRow(row.key, { employee_id })}
      />
      <TimeInput label="Начало" value={row.start} invalid={bad} disabled={readOnly} onCommit={(start) => session.updateRow(row.key, { start })} />
      <TimeInput label="Конец" value={row.end} invalid={bad} disabled={readOnly} onCommit={(end) => session.updateRow(row.key, { end })} />
      <span className="time-warning" role={bad ? 'alert' : undefined}>
        {bad ? 'Начало не раньше конца' : ''}
      </span>
      <CommentInput value={row.comment} disabled={readOnly} onCommit={(comment) => session.updateRow(row.key, { comment })} />
      {readOnly ? (
        <span />
      ) : (
        <button type="button" className="button secondary small danger" aria-label={`Удалить операцию ${index + 1}`} onClick={() => session.removeRow(row.key)}>
          ✕
        </button>
      )}
    </div>
  );
});

/**
 * The current operations list (spec 01 "Video markup"): number, operation, workplace, employee,
 * start and end as h:m:s, comment, remove; a warning beside the times when start is not before
 * end. Virtualised: only the rows in view are in the DOM, so 10,000 rows stay fast.
 */
export function OperationRows({ session, rows, selectedKey, operations, workplaces, employees, onSeek, readOnly = false }: RowsProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const layout = useRowLayout(scroller, rows.length > 0);
  const rowHeight = { wide: ROW_HEIGHT, two: TWO_LINE_ROW_HEIGHT, narrow: NARROW_ROW_HEIGHT, phone: PHONE_ROW_HEIGHT }[layout];
  const viewHeight = Math.min(layout === 'wide' ? 420 : 520, rows.length * rowHeight + 2);
  const view = useRowWindow(scroller, rows.length, rowHeight, viewHeight);
  // By binary search: a key press selects the row it made, and 10,000 rows are not walked for it.
  const selectedIndex = selectedKey ? session.indexOf(selectedKey) : -1;
  const { scrollTo } = view;
  useEffect(() => {
    if (selectedIndex >= 0) scrollTo(selectedIndex);
  }, [selectedIndex, scrollTo]);

  // One callback for every render: an unchanged row (memo) is not drawn again when a key press adds another.
  const onSeekNow = useRef(onSeek);
  onSeekNow.current = onSeek;
  const seek = useCallback((seconds: number) => onSeekNow.current(seconds), []);

  if (rows.length === 0)
    return <p className="muted rows-empty">{readOnly ? 'Операций пока нет.' : 'Операций пока нет. Нажмите «+» или клавишу операции во время просмотра.'}</p>;

  return (
    <div className="rows-scroll" ref={scroller} data-testid="operation-rows" style={{ height: viewHeight }}>
      <div style={{ height: rows.length * rowHeight, position: 'relative' }}>
        {rows.slice(view.first, view.last).map((row, i) => {
          const index = view.first + i;
          return (
            <OperationRow
              key={row.key}
              row={row}
              index={index}
              top={index * rowHeight}
              selected={row.key === selectedKey}
              layout={layout}
              rowHeight={rowHeight}
              session={session}
              operations={operations}
              workplaces={workplaces}
              employees={employees}
              onSeek={seek}
              readOnly={readOnly}
            />
          );
        })}
      </div>
    </div>
  );
}
