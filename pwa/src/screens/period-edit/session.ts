import { api, ApiCallError } from '../../api/client';
import type { NamedItem, PeriodMarkupRow } from '../../api/types';
import { SessionStore } from '../../state/session-store';
import { notify } from '../../status/notifications';
import { INCORRECT, newRow, newRowInstant, rowProblem, rowsFromServer, SAVED, savePayload, sortedByName, type EditRow } from './rows';

export interface Lists {
  operations: NamedItem[];
  workplaces: NamedItem[];
  employees: NamedItem[];
}

/** The period being edited, as the address gives it (a valid one: `from` before `to`). */
export interface Period {
  id: number;
  from: number;
  to: number;
  timeZone: string;
  /** The window's query of GET and POST /api/v1/operation_markups. */
  query: { structure_id: number; from_time: string; to_time: string };
}

/** What the server answers for a period's rows (a read or a save). */
interface RowsReply {
  operation_markups: PeriodMarkupRow[];
  version: string;
}

/** What is wrong with each changed row (null: nothing), by row key. */
export const rowProblems = (rows: EditRow[], timeZone: string) => new Map(rows.filter((r) => r.dirty).map((r) => [r.key, rowProblem(r, timeZone)]));

/**
 * The state of the period editor, outside React: the lists for the selects, the rows with their
 * edits and removed ids, the version a save is based on, the banner and the busy state. The screen
 * subscribes (`useSession`) and calls its methods; nothing here needs a component.
 */
export class PeriodEditSession extends SessionStore {
  lists: Lists | null = null;
  structureName = '';
  rows: EditRow[] = [];
  /** Saved rows removed here: deleted by the next save. */
  toDelete: number[] = [];
  /** The window's version the rows were read at; a save names it (null: not loaded yet). */
  version: string | null = null;
  unsaved = false;
  banner: string | null = null;
  /** The last save was refused because someone changed the period meanwhile (409). */
  stale = false;
  busy = false;
  loadError: string | null = null;

  /** Loads the lists, the structure's name and the rows of the period. */
  load(period: Period) {
    const { id } = period;
    this.loadError = null;
    this.emit();
    Promise.all([
      api.get('/api/v1/operations', { query: { structure_id: id } }),
      api.get('/api/v1/workplaces', { query: { structure_id: id } }),
      api.get('/api/v1/employees', { query: { structure_id: id } }),
      api.get('/api/v2/get_all_structures'),
      this.loadRows(period),
    ]).then(
      ([operations, workplaces, employees, structures]) => {
        this.lists = { operations: sortedByName(operations.operations), workplaces, employees };
        this.structureName = structures.find((s) => s.id === id)?.name ?? `№ ${id}`;
        this.emit();
      },
      (err: Error) => {
        this.loadError = err.message;
        this.emit();
      },
    );
  }

  /** Reads the period's rows again: edits and removals are dropped. */
  loadRows = async (period: Period) => {
    const reply = await api.get('/api/v1/operation_markups', { query: period.query });
    this.rowsLoaded(reply, period.timeZone);
  };

  /** The server's rows replace everything edited here. */
  rowsLoaded(reply: RowsReply, timeZone: string) {
    this.rows = rowsFromServer(reply.operation_markups, timeZone);
    this.version = reply.version;
    this.toDelete = [];
    this.unsaved = false;
    this.stale = false;
    this.banner = null;
    this.emit();
  }

  update = (key: string, change: Partial<EditRow>) => {
    this.rows = this.rows.map((r) => (r.key === key ? { ...r, ...change, dirty: true } : r));
    this.unsaved = true;
    this.emit();
  };

  remove = (row: EditRow) => {
    this.rows = this.rows.filter((r) => r.key !== row.key);
    if (row.id !== undefined) this.toDelete = [...this.toDelete, row.id];
    this.unsaved = true;
    this.emit();
  };

  /** A new row on top, inside the period (issue 28); only once the lists are there. */
  add(period: Period, now = Date.now()) {
    if (!this.lists) return;
    const at = newRowInstant(now, period.from, period.to);
    this.rows = [newRow(at, this.lists.workplaces, this.lists.employees, period.timeZone), ...this.rows];
    this.unsaved = true;
    this.emit();
  }

  /** Why a save cannot be sent now (shown as the banner), or null. */
  private refusal(timeZone: string): string | null {
    // A save names the version it is based on; without a loaded one it could overwrite others' edits.
    if (this.version === null) return 'Разметка периода ещё не загружена — обновите страницу и повторите';
    const invalid = this.rows.filter((r) => r.dirty).find((r) => rowProblem(r, timeZone) !== null);
    if (invalid) return `${INCORRECT}: строка ${this.rows.indexOf(invalid) + 1} — ${rowProblem(invalid, timeZone)}`;
    return null;
  }

  /** Saves changed and new rows and the removed ids in one call. */
  async save(period: Period) {
    const refused = this.refusal(period.timeZone);
    if (refused) {
      this.banner = refused;
      this.emit();
      return;
    }
    this.busy = true;
    this.banner = null;
    this.emit();
    try {
      const reply = await api.post('/api/v1/operation_markups', {
        query: period.query,
        body: savePayload(this.rows, this.toDelete, period.timeZone, this.version!),
      });
      this.saved(reply, period.timeZone);
      notify('success', SAVED);
    } catch (err) {
      this.saveFailed(err);
    } finally {
      this.busy = false;
      this.emit();
    }
  }

  /** The server's rows after a save: rows on screen keep their keys; nothing is left unsaved. */
  saved(reply: RowsReply, timeZone: string) {
    this.rows = rowsFromServer(reply.operation_markups, timeZone, this.rows);
    this.version = reply.version;
    this.toDelete = [];
    this.unsaved = false;
    this.emit();
  }

  /** The reason is shown by the API client; the form says what the spec says. */
  saveFailed(err: unknown) {
    this.banner = INCORRECT;
    this.stale = err instanceof ApiCallError && err.status === 409;
    this.emit();
  }
}
