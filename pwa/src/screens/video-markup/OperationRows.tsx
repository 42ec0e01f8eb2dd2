import { memo, useCallback, useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import type { AvailableOperations, NamedItem } from '../../api/types';
import type { MarkupRow } from '../../offline/markup-rows';
import { afterPaint } from './after-paint';
import { confidenceText } from './review';
import type { MarkupSession } from './session';
import { TimeInput } from './TimeInput';
import { NamedSelect } from '../../ui/NamedSelect';

/** An operation the video may be marked with (GET /api/v1/available_operations). */
export type OperationOption = AvailableOperations['operations'][number];

interface RowsProps {
  session: MarkupSession;
  operations: OperationOption[];
  workplaces: NamedItem[];
  employees: NamedItem[];
  onSeek(seconds: number): void;
  /** Look only (no markup.write): the fields are disabled and rows cannot be removed. */
  readOnly?: boolean;
  /** The markup is still on its way. */
  loading?: boolean;
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

/**
 * The rows' layout from the width of the list's box: the «loading» or «no rows» line while there
 * are no rows (it spans the same width), the scroller once there are. Measured before the first
 * paint (a layout effect), so the rows are drawn once in their layout when they come, not first in
 * a guess from the window's width and again (issue 47: 14 rows of a wide layout drawn and dropped
 * on every cold open of a 1,400 px window, where the list beside the side column has two lines).
 */
function useRowLayout(box: RefObject<HTMLElement | null>, shown: 'loading' | 'empty' | 'rows'): RowLayout {
  const [layout, setLayout] = useState<RowLayout>(() => layoutFor(typeof window === 'undefined' ? 1440 : window.innerWidth - 32));
  useLayoutEffect(() => {
    const element = box.current;
    if (!element) return;
    setLayout(layoutFor(element.clientWidth));
    if (typeof ResizeObserver !== 'function') return;
    const observer = new ResizeObserver(() => setLayout(layoutFor(element.clientWidth)));
    observer.observe(element);
    return () => observer.disconnect();
  }, [box, shown]);
  return layout;
}

/** Rows drawn beyond each edge of the view, so a quick scroll does not show blank space. */
const OVERSCAN = 6;

/**
 * The rows in view of a scroller of fixed-height rows: which to draw comes from the scroll offset
 * alone, O(1) per render. (A general virtualiser measures every one of 10,000 rows again when one
 * is added and reads the scroller's size, forcing a layout — on each key press.) `follow` (the
 * selected row) is scrolled into view once the frame of the change is painted: a key press paints
 * its segment on the timeline and its row where the list stands, and the list moves to the row in
 * the next frame, instead of writing the scroll offset (which lays the page out at once) and
 * drawing the rows that come into view before the press is painted at all.
 */
function useRowWindow(scroller: RefObject<HTMLDivElement | null>, count: number, rowHeight: number, viewHeight: number, follow: number) {
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
  useEffect(() => {
    if (follow < 0) return;
    return afterPaint(() => {
      const element = scroller.current;
      if (!element) return;
      const top = follow * rowHeight;
      let next = offset.current;
      if (top < next) next = top;
      else if (top + rowHeight > next + viewHeight) next = top + rowHeight - viewHeight;
      if (next === offset.current) return;
      offset.current = next;
      element.scrollTop = next;
      setScrollTop(next);
    });
  }, [scroller, follow, rowHeight, viewHeight, hasRows]);
  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - OVERSCAN);
  const last = Math.min(count, Math.ceil((scrollTop + viewHeight) / rowHeight) + OVERSCAN);
  return { first, last };
}

type Shown = { rows: readonly MarkupRow[]; selectedKey: string | null };

/**
 * The session's rows and selection as the list shows them. A change made while the list has the
 * focus (a row's field, its number) is taken at once; any other — an operation key, a button, the
 * timeline — once the frame of the change is painted: a key press paints its segment on the
 * timeline and its button without the list, whose rows (a re-render, the rows under a new one
 * moving down, the DOM they change) follow in the next frame. Rows coming into an empty list (the
 * markup loaded) are taken at once too: no press waits to be painted, and the screen's first frame
 * with the markup has its rows (issue 47: a frame later cost the cold open a layout and a paint).
 */
function useRowsAfterPaint(session: MarkupSession, list: RefObject<HTMLElement | null>): Shown {
  const [shown, setShown] = useState<Shown>(() => ({ rows: session.rows, selectedKey: session.selectedKey }));
  useEffect(() => {
    let showsRows = false;
    const take = () => {
      showsRows = session.rows.length > 0;
      setShown((current) =>
        current.rows === session.rows && current.selectedKey === session.selectedKey ? current : { rows: session.rows, selectedKey: session.selectedKey },
      );
    };
    let pending: (() => void) | null = null;
    const onChange = () => {
      if (!showsRows || list.current?.contains(document.activeElement)) {
        pending?.();
        pending = null;
        take();
      } else
        pending ??= afterPaint(() => {
          pending = null;
          take();
        });
    };
    // Whatever changed between the first render and this subscription.
    take();
    const unsubscribe = session.subscribe(onChange);
    return () => {
      unsubscribe();
      pending?.();
    };
  }, [session, list]);
  return shown;
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

type FieldsProps = Pick<RowProps, 'row' | 'session' | 'operations' | 'workplaces' | 'employees' | 'readOnly'>;

/** A row's three choices: which field each sets, its label, its «none» line, and whether a row needs it. */
const ROW_CHOICES = [
  { field: 'operation_id', label: 'Операция', placeholder: '— операция —', required: true, items: (p: FieldsProps) => p.operations },
  { field: 'workplace_id', label: 'Рабочее место', placeholder: '— рабочее место —', required: true, items: (p: FieldsProps) => p.workplaces },
  { field: 'employee_id', label: 'Сотрудник', placeholder: '— сотрудник —', required: false, items: (p: FieldsProps) => p.employees },
] as const;

/** One choice of a row (operation, workplace or employee); a required one left empty is marked invalid. */
function RowChoice({
  choice,
  row,
  items,
  session,
  readOnly,
}: {
  choice: (typeof ROW_CHOICES)[number];
  row: MarkupRow;
  items: readonly NamedItem[];
  session: MarkupSession;
  readOnly: boolean;
}) {
  const value = row[choice.field];
  return (
    <NamedSelect
      disabled={readOnly}
      aria-label={choice.label}
      placeholder={choice.placeholder}
      items={items}
      value={value}
      className={choice.required && value === null ? 'invalid' : undefined}
      onChange={(id) => session.updateRow(row.key, { [choice.field]: id })}
    />
  );
}

/**
 * A row's fields: its choices, times, the warning beside them and the comment. Memoised on the row
 * alone: a key press that inserts a row above moves the rows under it (their numbers and places
 * change), and their selects with every operation, workplace and employee are not drawn again.
 */
const RowFields = memo(function RowFields(props: FieldsProps) {
  const { row, session, readOnly } = props;
  const bad = !(row.start < row.end);
  return (
    <>
      {ROW_CHOICES.map((choice) => (
        <RowChoice key={choice.field} choice={choice} row={row} items={choice.items(props)} session={session} readOnly={readOnly} />
      ))}
      <TimeInput label="Начало" value={row.start} invalid={bad} disabled={readOnly} onCommit={(start) => session.updateRow(row.key, { start })} />
      <TimeInput label="Конец" value={row.end} invalid={bad} disabled={readOnly} onCommit={(end) => session.updateRow(row.key, { end })} />
      <span className="time-warning" role={bad ? 'alert' : undefined}>
        {bad ? 'Начало не раньше конца' : ''}
      </span>
      <CommentInput value={row.comment} disabled={readOnly} onCommit={(comment) => session.updateRow(row.key, { comment })} />
    </>
  );
});

/**
 * One row of the list. Memoised: rows are frozen objects replaced only when they change, so a key
 * press redraws the rows it changed (and those whose number moved), not every row in view.
 */
const OperationRow = memo(function OperationRow(props: RowProps) {
  const { row, index, top, selected, layout, rowHeight, session, operations, onSeek, readOnly } = props;
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
      <RowFields row={row} session={session} operations={operations} workplaces={props.workplaces} employees={props.employees} readOnly={readOnly} />
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
export function OperationRows({ session, operations, workplaces, employees, onSeek, readOnly = false, loading = false }: RowsProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const { rows, selectedKey } = useRowsAfterPaint(session, scroller);
  // The line shown instead of the rows: measured as the scroller would be, so the layout is known when the rows come.
  const line = useRef<HTMLParagraphElement>(null);
  const shown = loading ? 'loading' : rows.length === 0 ? 'empty' : 'rows';
  const layout = useRowLayout(shown === 'rows' ? scroller : line, shown);
  const rowHeight = { wide: ROW_HEIGHT, two: TWO_LINE_ROW_HEIGHT, narrow: NARROW_ROW_HEIGHT, phone: PHONE_ROW_HEIGHT }[layout];
  const viewHeight = Math.min(layout === 'wide' ? 420 : 520, rows.length * rowHeight + 2);
  // By binary search: a key press selects the row it made, and 10,000 rows are not walked for it.
  const selectedIndex = selectedKey ? session.indexOf(selectedKey) : -1;
  const view = useRowWindow(scroller, rows.length, rowHeight, viewHeight, selectedIndex);

  // One callback for every render: an unchanged row (memo) is not drawn again when a key press adds another.
  const onSeekNow = useRef(onSeek);
  onSeekNow.current = onSeek;
  const seek = useCallback((seconds: number) => onSeekNow.current(seconds), []);

  if (shown === 'loading')
    return (
      <p className="muted rows-empty" ref={line}>
        Загрузка разметки…
      </p>
    );
  if (shown === 'empty')
    return (
      <p className="muted rows-empty" ref={line}>
        {readOnly ? 'Операций пока нет.' : 'Операций пока нет. Нажмите «+» или клавишу операции во время просмотра.'}
      </p>
    );

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
