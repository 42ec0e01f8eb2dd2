import { useCallback, useEffect, useMemo, useState } from 'react';
import { useSnapshot } from 'valtio';
import { login } from '../../state/login';
import { useSession } from '../../state/session-store';
import { instantParam } from '../projects/period';
import { PeriodEditSession, rowProblems, type Period } from './session';

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
 * The period editor's state for the screen: the period from the address, and the session
 * (session.ts) that holds the lists, the rows, their edits and the banner. The hook only reads the
 * address, subscribes to the session and loads the period when it changes.
 */
export function usePeriodEdit(structureId: string, timeFrom: string, timeTo: string) {
  const id = Number(structureId);
  const from = instantParam(timeFrom);
  const to = instantParam(timeTo);
  const { timeZone } = useSnapshot(login);
  const [session] = useState(() => new PeriodEditSession());
  const { lists, structureName, rows, unsaved, banner, stale, busy, loadError } = useSession(session);
  const validPeriod = Number.isInteger(id) && id > 0 && from !== null && to !== null && to > from;

  const period = useMemo<Period | null>(
    () =>
      validPeriod
        ? { id, from: from!, to: to!, timeZone, query: { structure_id: id, from_time: new Date(from!).toISOString(), to_time: new Date(to!).toISOString() } }
        : null,
    [id, from, to, timeZone, validPeriod],
  );

  useEffect(() => {
    if (period) session.load(period);
  }, [session, period]);

  useWarnBeforeLeaving(unsaved);

  const loadRows = useCallback(async () => {
    if (period) await session.loadRows(period);
  }, [session, period]);
  const add = () => {
    if (period) session.add(period);
  };
  const save = async () => {
    if (period) await session.save(period);
  };

  const problems = useMemo(() => rowProblems(rows, timeZone), [rows, timeZone]);
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
    update: session.update,
    remove: session.remove,
    add,
    save,
  };
}

export type PeriodEdit = ReturnType<typeof usePeriodEdit>;
