import { memo, useCallback, useEffect, useMemo, useState } from 'react';
import { useSnapshot } from 'valtio';
import { Link } from 'wouter';
import { api, ApiCallError } from '../../api/client';
import type { NamedItem } from '../../api/types';
import { login, useAllows } from '../../state/login';
import { notify } from '../../status/notifications';
import { Banner } from '../../ui/Banner';
import { formatPicker, instantParam } from '../projects/period';
import { INCORRECT, newRow, newRowInstant, rowProblem, rowsFromServer, SAVED, savePayload, sortedByName, type EditRow } from './rows';

interface Lists {
  operations: NamedItem[];
  workplaces: NamedItem[];
  employees: NamedItem[];
}

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

/**
 * spec 01 "Operation markup editing" for a period (/edit/{structureId}/{timeFrom}/{timeTo}): the
 * structure's markups of the period as date-times, newest first — the same rows the video screen
 * shows in seconds. Changed and new rows and removed ids are saved in one call; a save over a
 * period someone changed meanwhile is refused (409) and nothing is lost here.
 */
export function PeriodEditScreen({ structureId, timeFrom, timeTo }: { structureId: string; timeFrom: string; timeTo: string }) {
  const id = Number(structureId);
  const from = instantParam(timeFrom);
  const to = instantParam(timeTo);
  const { timeZone } = useSnapshot(login);
  const canWrite = useAllows('markup.write');
  const [lists, setLists] = useState<Lists | null>(null);
  const [structureName, setStructureName] = useState('');
  const [rows, setRows] = useState<EditRow[]>([]);
  const [toDelete, setToDelete] = useState<number[]>([]);
  const [version, setVersion] = useState<string | null>(null);
  const [unsaved, setUnsaved] = useState(false);
  const [banner, setBanner] = useState<string | null>(null);
  const [stale, setStale] = useState(false);
  const [busy, setBusy] = useState(false);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [shown, setShown] = useState(PAGE);
  const validPeriod = Number.isInteger(id) && id > 0 && from !== null && to !== null && to > from;

  const query = useMemo(
    () => (validPeriod ? { structure_id: id, from_time: new Date(from!).toISOString(), to_time: new Date(to!).toISOString() } : null),
    [id, from, to, validPeriod],
  );

  const loadRows = useCallback(async () => {
    if (!query) return;
    const reply = await api.get('/api/v1/operation_markups', { query });
    setRows(rowsFromServer(reply.operation_markups, timeZone));
    setVersion(reply.version);
    setToDelete([]);
    setUnsaved(false);
    setStale(false);
    setBanner(null);
  }, [query, timeZone]);

  useEffect(() => {
    if (!query) return;
    setLoadError(null);
    Promise.all([
      api.get('/api/v1/operations', { query: { structure_id: id } }),
      api.get('/api/v1/workplaces', { query: { structure_id: id } }),
      api.get('/api/v1/employees', { query: { structure_id: id } }),
      api.get('/api/v2/get_all_structures'),
      loadRows(),
    ]).then(
      ([operations, workplaces, employees, structures]) => {
        setLists({ operations: sortedByName(operations.operations), workplaces, employees });
        setStructureName(structures.find((s) => s.id === id)?.name ?? `№ ${id}`);
      },
      (err: Error) => setLoadError(err.message),
    );
  }, [id, query, loadRows]);

  // The browser warns before closing with unsaved changes (spec 01 §4).
  useEffect(() => {
    if (!unsaved) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [unsaved]);

  const update = useCallback((key: string, change: Partial<EditRow>) => {
    setRows((list) => list.map((r) => (r.key === key ? { ...r, ...change, dirty: true } : r)));
    setUnsaved(true);
  }, []);
  const remove = useCallback((row: EditRow) => {
    setRows((list) => list.filter((r) => r.key !== row.key));
    if (row.id !== undefined) setToDelete((ids) => [...ids, row.id!]);
    setUnsaved(true);
  }, []);
  const add = () => {
    if (!lists || !validPeriod) return;
    const at = newRowInstant(Date.now(), from!, to!);
    setRows((list) => [newRow(at, lists.workplaces, lists.employees, timeZone), ...list]);
    setUnsaved(true);
  };

  const save = async () => {
    if (!query) return;
    // A save names the version it is based on; without a loaded one it could overwrite others' edits.
    if (version === null) {
      setBanner('Разметка периода ещё не загружена — обновите страницу и повторите');
      return;
    }
    const invalid = rows.filter((r) => r.dirty).find((r) => rowProblem(r, timeZone) !== null);
    if (invalid) {
      setBanner(`${INCORRECT}: строка ${rows.indexOf(invalid) + 1} — ${rowProblem(invalid, timeZone)}`);
      return;
    }
    setBusy(true);
    setBanner(null);
    try {
      const reply = await api.post('/api/v1/operation_markups', { query, body: savePayload(rows, toDelete, timeZone, version) });
      setRows((current) => rowsFromServer(reply.operation_markups, timeZone, current));
      setVersion(reply.version);
      setToDelete([]);
      setUnsaved(false);
      notify('success', SAVED);
    } catch (err) {
      // The reason is shown by the API client; the form says what the spec says.
      setBanner(INCORRECT);
      setStale(err instanceof ApiCallError && err.status === 409);
    } finally {
      setBusy(false);
    }
  };

  const problems = useMemo(() => new Map(rows.filter((r) => r.dirty).map((r) => [r.key, rowProblem(r, timeZone)])), [rows, timeZone]);
  const title = 'Редактирование разметки за период';
  if (!validPeriod) {
    return (
      <section className="screen">
        <h1>{title}</h1>
        <Banner text="Неверный адрес: нужны структурная единица и период «с» раньше «по» в виде даты-времени ISO." />
      </section>
    );
  }
  if (loadError) {
    return (
      <section className="screen">
        <h1>{title}</h1>
        <Banner text={`Не удалось загрузить разметку: ${loadError}`} />
      </section>
    );
  }

  return (
    <section className="screen period-edit">
      <div className="markup-head">
        <h1>{title}</h1>
        {unsaved && (
          <span className="badge unsaved" data-testid="unsaved">
            есть несохранённые изменения
          </span>
        )}
      </div>
      <p>
        <Link href={`/projects/${id}`}>{structureName || `Структурная единица № ${id}`}</Link>
        {' · '}
        {formatPicker(from!, timeZone)} — {formatPicker(to!, timeZone)}
        {' · '}строк: {rows.length}
      </p>
      {canWrite && (
        <div className="command-bar">
          <button type="button" className="button secondary" onClick={add} disabled={!lists} aria-label="Добавить строку">
            + Добавить
          </button>
          <button type="button" className="button" onClick={save} disabled={busy || !lists}>
            {busy ? 'Сохранение…' : 'Сохранить'}
          </button>
        </div>
      )}
      {!canWrite && <p className="muted">Просмотр: менять разметку могут администратор, аналитик и разметчик.</p>}
      <Banner text={banner} />
      {stale && (
        <p>
          <button type="button" className="button secondary" onClick={() => void loadRows()}>
            Загрузить разметку заново (ваши правки будут отброшены)
          </button>
        </p>
      )}
      {!lists && <p className="muted">Загрузка…</p>}
      {lists && rows.length === 0 && <p className="rows-empty muted">За этот период разметки нет. Нажмите «+ Добавить», чтобы добавить строку.</p>}
      {lists && rows.length > 0 && (
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
    </section>
  );
}
