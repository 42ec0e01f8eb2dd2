import { useCallback, useEffect, useMemo, useState } from 'react';
import { useSnapshot } from 'valtio';
import { api, ApiCallError } from '../../api/client';
import type { NamedItem } from '../../api/types';
import { login } from '../../state/login';
import { notify } from '../../status/notifications';
import { instantParam } from '../projects/period';
import { INCORRECT, newRow, newRowInstant, rowProblem, rowsFromServer, SAVED, savePayload, sortedByName, type EditRow } from './rows';

export interface Lists {
  operations: NamedItem[];
  workplaces: NamedItem[];
  employees: NamedItem[];
}

/** The browser warns before closing with unsaved changes (spec 01 §4). */
function useWarnBeforeLeaving(unsaved: boolean) {
  useEffect(() => {
    if (!unsaved) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [unsaved]);
}

/**
 * The state of the period editor, outside the screen: the period from the address, the lists for the
 * selects, the rows with their edits and removed ids, the version a save is based on, the banner.
 */
export function usePeriodEdit(structureId: string, timeFrom: string, timeTo: string) {
  const id = Number(structureId);
  const from = instantParam(timeFrom);
  const to = instantParam(timeTo);
  const { timeZone } = useSnapshot(login);
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

  useWarnBeforeLeaving(unsaved);

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
  return {
    id,
    from,
    to,
    timeZone,
    validPeriod,
    lists,
    structureName,
    rows,
    unsaved,
    banner,
    stale,
    busy,
    loadError,
    problems,
    loadRows,
    update,
    remove,
    add,
    save,
  };
}

export type PeriodEdit = ReturnType<typeof usePeriodEdit>;
