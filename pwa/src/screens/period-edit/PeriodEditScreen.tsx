import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Link } from 'wouter';
import { useAllows } from '../../state/login';
import { Banner } from '../../ui/Banner';
import { formatPicker } from '../projects/period';
import type { EditRow } from './rows';
import type { Lists } from './session';
import { usePeriodEdit, type PeriodEdit } from './usePeriodEdit';
import './period-edit.css';

/** One row of the editor; drawn again only when its own data changes. */
const PeriodRow = memo(function PeriodRow({
  measure,
  index,
  row,
  n,
  lists,
  canWrite,
  problem,
  onUpdate,
  onRemove,
}: {
  /** A virtualised table measures the row as it is built (its height varies: a card, a warning). */
  measure?: (element: HTMLTableRowElement | null) => void;
  index: number;
  row: EditRow;
  n: number;
  lists: Lists;
  canWrite: boolean;
  problem: string | null;
  onUpdate: (key: string, change: Partial<EditRow>) => void;
  onRemove: (row: EditRow) => void;
}) {
  return (
    <tr ref={measure} data-index={index} data-testid="period-row" className={problem ? 'invalid-row' : undefined}>
      <td className="pe-n">{n}</td>
      <td className="pe-op" data-label="Операция">
        <span className="pe-chosen select-chosen-name" aria-hidden="true">
          {lists.operations.find((o) => o.id === row.operationId)?.name}
        </span>
        <select
          aria-label={`Строка ${n}: операция`}
          value={row.operationId}
          disabled={!canWrite}
          className={row.dirty && !row.operationId ? 'invalid' : undefined}
          onChange={(e) => onUpdate(row.key, { operationId: Number(e.target.value) })}
        >
          <option value={0}>—</option>
          {lists.operations.map((o) => (
            <option key={o.id} value={o.id}>
              {o.name}
            </option>
          ))}
        </select>
      </td>
      <td className="pe-wp" data-label="Рабочее место">
        <select
          aria-label={`Строка ${n}: рабочее место`}
          value={row.workplaceId}
          disabled={!canWrite}
          className={row.dirty && !row.workplaceId ? 'invalid' : undefined}
          onChange={(e) => onUpdate(row.key, { workplaceId: Number(e.target.value) })}
        >
          <option value={0}>—</option>
          {lists.workplaces.map((w) => (
            <option key={w.id} value={w.id}>
              {w.name}
            </option>
          ))}
        </select>
      </td>
      <td className="pe-emp" data-label="Сотрудник">
        <select
          aria-label={`Строка ${n}: сотрудник`}
          value={row.employeeId}
          disabled={!canWrite}
          onChange={(e) => onUpdate(row.key, { employeeId: Number(e.target.value) })}
        >
          <option value={0}>—</option>
          {lists.employees.map((w) => (
            <option key={w.id} value={w.id}>
              {w.name}
            </option>
          ))}
        </select>
      </td>
      <td className="pe-start" data-label="Начало">
        <input
          aria-label={`Строка ${n}: начало`}
          value={row.startText}
          disabled={!canWrite}
          size={19}
          placeholder="дд-мм-гггг чч:мм:сс"
          onChange={(e) => onUpdate(row.key, { startText: e.target.value })}
        />
      </td>
      <td className="pe-end" data-label="Конец">
        <input
          aria-label={`Строка ${n}: конец`}
          value={row.endText}
          disabled={!canWrite}
          size={19}
          placeholder="дд-мм-гггг чч:мм:сс"
          onChange={(e) => onUpdate(row.key, { endText: e.target.value })}
        />
        {problem && (
          <div className="time-warning" role="note">
            {problem}
          </div>
        )}
      </td>
      <td className="pe-comment" data-label="Комментарий">
        <input
          aria-label={`Строка ${n}: комментарий`}
          value={row.comment}
          disabled={!canWrite}
          onChange={(e) => onUpdate(row.key, { comment: e.target.value })}
        />
      </td>
      <td className="pe-video" data-label="Видео">
        {row.videoId !== null ? <a href={`#/video/${row.videoId}`}>№ {row.videoId}</a> : <span className="muted">—</span>}
      </td>
      <td className="pe-remove">
        {canWrite && (
          <button type="button" className="button danger secondary small" aria-label={`Удалить строку ${n}`} onClick={() => onRemove(row)}>
            ×
          </button>
        )}
      </td>
    </tr>
  );
});

/** A period longer than this scrolls in a box of its own that builds only the rows in view (issue 47). */
const PERIOD_VIRTUAL_FROM = 60;
/** Estimated row heights, px, before a row is measured: a table row (≥ 1400 px), a card of two lines, a card of a field a line (styles.css). */
const ROW_HEIGHT = 46;
const CARD_HEIGHT = 110;
const PHONE_CARD_HEIGHT = 470;
/** Rows built beyond the visible ones on either side: Tab from the last built row reaches the next one. */
const OVERSCAN = 6;
/** The box's height before it is measured, px (period-edit.css). */
const BOX_HEIGHT = 640;

const estimatedRowHeight = () => {
  if (typeof window === 'undefined' || typeof window.matchMedia !== 'function') return ROW_HEIGHT;
  if (window.matchMedia('(max-width: 700px)').matches) return PHONE_CARD_HEIGHT;
  return window.matchMedia('(max-width: 1399px)').matches ? CARD_HEIGHT : ROW_HEIGHT;
};

/**
 * The table of rows. A long period (more than PERIOD_VIRTUAL_FROM rows) scrolls in its own box under
 * a header that stays, and only the rows in view and OVERSCAN on either side are in the page — the
 * virtualiser of the report tables (@tanstack/react-virtual, reports/ColumnTable.tsx). The box takes
 * the keyboard's focus (Tab, then the arrows and Page Up/Down); a row added at the top is scrolled to.
 */
function PeriodTable({ edit, lists, canWrite }: { edit: PeriodEdit; lists: Lists; canWrite: boolean }) {
  const { rows, problems, update, remove } = edit;
  const windowed = rows.length > PERIOD_VIRTUAL_FROM;
  const scroller = useRef<HTMLDivElement>(null);
  const [rowHeight] = useState(estimatedRowHeight);
  const virtualizer = useVirtualizer({
    count: windowed ? rows.length : 0,
    getScrollElement: () => scroller.current,
    estimateSize: () => rowHeight,
    overscan: OVERSCAN,
    getItemKey: (index) => rows[index]!.key,
    initialRect: { width: 0, height: BOX_HEIGHT },
  });
  // A new row goes first (session.add): show it.
  const first = rows[0]?.key;
  const firstBefore = useRef(first);
  useEffect(() => {
    if (first !== firstBefore.current && windowed) virtualizer.scrollToIndex(0);
    firstBefore.current = first;
  }, [first, windowed, virtualizer]);
  if (rows.length === 0) return null;
  // On the box itself (not in a field, where they move the caret): Home and End go to the first and
  // the last row at once, however the measured rows change the box's length on the way.
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (!windowed || event.target !== event.currentTarget || (event.key !== 'Home' && event.key !== 'End')) return;
    event.preventDefault();
    virtualizer.scrollToIndex(event.key === 'Home' ? 0 : rows.length - 1, { align: event.key === 'Home' ? 'start' : 'end' });
  };
  const row = (index: number, measure?: (element: HTMLTableRowElement | null) => void) => (
    <PeriodRow
      key={rows[index]!.key}
      measure={measure}
      index={index}
      row={rows[index]!}
      n={index + 1}
      lists={lists}
      canWrite={canWrite}
      problem={problems.get(rows[index]!.key) ?? null}
      onUpdate={update}
      onRemove={remove}
    />
  );
  const built = virtualizer.getVirtualItems();
  return (
    <div
      ref={scroller}
      className={windowed ? 'table-scroll period-scroll' : 'table-scroll'}
      onKeyDown={onKeyDown}
      {...(windowed && { tabIndex: 0, role: 'region', 'aria-label': `Строки разметки: ${rows.length}`, 'data-testid': 'period-scroll' })}
    >
      <table className={`data-table compact period-table ${windowed ? 'period-virtual' : ''}`}>
        <thead>
          <tr>
            <th>№</th>
            <th>Операция</th>
            <th>Рабочее место</th>
            <th>Сотрудник</th>
            <th>Начало</th>
            <th>Конец</th>
            <th>Комментарий</th>
            <th>Видео</th>
            <th>
              <span className="visually-hidden">Удалить</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {windowed ? (
            <>
              {built.length > 0 && <tr className="virtual-spacer" style={{ height: built[0]!.start }} aria-hidden />}
              {built.map((v) => row(v.index, virtualizer.measureElement))}
              {built.length > 0 && <tr className="virtual-spacer" style={{ height: virtualizer.getTotalSize() - built[built.length - 1]!.end }} aria-hidden />}
            </>
          ) : (
            rows.map((_, index) => row(index))
          )}
        </tbody>
      </table>
    </div>
  );
}

/** «+ Добавить» and «Сохранить» for those who may write; a note for those who may not. */
function PeriodCommands({ edit, canWrite }: { edit: PeriodEdit; canWrite: boolean }) {
  if (!canWrite) return <p className="muted">Просмотр: менять разметку могут администратор, аналитик и разметчик.</p>;
  return (
    <div className="command-bar">
      <button type="button" className="button secondary" onClick={edit.add} disabled={!edit.lists} aria-label="Добавить строку">
        + Добавить
      </button>
      <button type="button" className="button" onClick={edit.save} disabled={edit.busy || !edit.lists}>
        {edit.busy ? 'Сохранение…' : 'Сохранить'}
      </button>
    </div>
  );
}

const TITLE = 'Редактирование разметки за период';

/** The screen with only a title and a banner: a wrong address or a failed load. */
function PeriodProblem({ text }: { text: string }) {
  return (
    <section className="screen">
      <h1>{TITLE}</h1>
      <Banner text={text} />
    </section>
  );
}

/**
 * spec 01 "Operation markup editing" for a period (/edit/{structureId}/{timeFrom}/{timeTo}): the
 * structure's markups of the period as date-times, newest first — the same rows the video screen
 * shows in seconds. Changed and new rows and removed ids are saved in one call; a save over a
 * period someone changed meanwhile is refused (409) and nothing is lost here.
 */
export function PeriodEditScreen({ structureId, timeFrom, timeTo }: { structureId: string; timeFrom: string; timeTo: string }) {
  const canWrite = useAllows('markup.write');
  const edit = usePeriodEdit(structureId, timeFrom, timeTo);
  const { id, from, to, timeZone, lists, rows } = edit;
  if (!edit.validPeriod) {
    return <PeriodProblem text="Неверный адрес: нужны структурная единица и период «с» раньше «по» в виде даты-времени ISO." />;
  }
  if (edit.loadError) return <PeriodProblem text={`Не удалось загрузить разметку: ${edit.loadError}`} />;

  return (
    <section className="screen period-edit">
      <div className="markup-head">
        <h1>{TITLE}</h1>
        {edit.unsaved && (
          <span className="badge unsaved" data-testid="unsaved">
            есть несохранённые изменения
          </span>
        )}
      </div>
      <p>
        <Link href={`/projects/${id}`}>{edit.structureName || `Структурная единица № ${id}`}</Link>
        {' · '}
        {formatPicker(from!, timeZone)} — {formatPicker(to!, timeZone)}
        {' · '}строк: {rows.length}
      </p>
      <PeriodCommands edit={edit} canWrite={canWrite} />
      <Banner text={edit.banner} />
      {edit.stale && (
        <p>
          <button type="button" className="button secondary" onClick={() => void edit.loadRows()}>
            Загрузить разметку заново (ваши правки будут отброшены)
          </button>
        </p>
      )}
      {!lists && <p className="muted">Загрузка…</p>}
      {lists && rows.length === 0 && <p className="rows-empty muted">За этот период разметки нет. Нажмите «+ Добавить», чтобы добавить строку.</p>}
      {lists && <PeriodTable edit={edit} lists={lists} canWrite={canWrite} />}
    </section>
  );
}
