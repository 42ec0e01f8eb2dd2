import { memo, useState } from 'react';
import { Link } from 'wouter';
import { useAllows } from '../../state/login';
import { Banner } from '../../ui/Banner';
import { formatPicker } from '../projects/period';
import type { EditRow } from './rows';
import type { Lists } from './session';
import { usePeriodEdit, type PeriodEdit } from './usePeriodEdit';

/** One row of the editor; drawn again only when its own data changes. */
const PeriodRow = memo(function PeriodRow({
  row,
  n,
  lists,
  canWrite,
  problem,
  onUpdate,
  onRemove,
}: {
  row: EditRow;
  n: number;
  lists: Lists;
  canWrite: boolean;
  problem: string | null;
  onUpdate: (key: string, change: Partial<EditRow>) => void;
  onRemove: (row: EditRow) => void;
}) {
  return (
    <tr data-testid="period-row" className={problem ? 'invalid-row' : undefined}>
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

/** How many rows are drawn at first; a long period shows more on request. */
const PAGE = 200;

/** The table of rows, the first `PAGE` of them, with «Показать ещё» for the rest. */
function PeriodTable({ edit, lists, canWrite }: { edit: PeriodEdit; lists: Lists; canWrite: boolean }) {
  const [shown, setShown] = useState(PAGE);
  const { rows, problems, update, remove } = edit;
  return (
    <>
      {rows.length > 0 && (
        <div className="table-scroll">
          <table className="data-table compact period-table">
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
              {rows.slice(0, shown).map((row, index) => (
                <PeriodRow
                  key={row.key}
                  row={row}
                  n={index + 1}
                  lists={lists}
                  canWrite={canWrite}
                  problem={problems.get(row.key) ?? null}
                  onUpdate={update}
                  onRemove={remove}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {rows.length > shown && (
        <p>
          <button type="button" className="button secondary" onClick={() => setShown((n) => n + PAGE)}>
            Показать ещё ({rows.length - shown})
          </button>
        </p>
      )}
    </>
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
