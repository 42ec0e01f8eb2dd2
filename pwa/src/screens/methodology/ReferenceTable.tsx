import { useEffect, useState, type FormEvent } from 'react';
import { api, ApiCallError } from '../../api/client';
import type { ReferenceStability, ReferenceStabilityBody } from '../../api/types';
import { notify } from '../../status/notifications';
import { Banner } from '../../ui/Banner';

type Row = ReferenceStability['rows'][number];
const PRODUCTION_TYPES: Row['production_type'][] = ['mass', 'large_series', 'series', 'small_series'];
const format = (value: number) => value.toLocaleString('ru-RU', { maximumFractionDigits: 3 });

function rowOf(table: ReferenceStability, type: Row['production_type'], kind: Row['work_kind']) {
  return table.rows.find((r) => r.production_type === type && r.work_kind === kind);
}

/** The reference values the organisation's reports use, with their source; admins edit them here. */
export function ReferenceTable({ canEdit }: { canEdit: boolean }) {
  const [table, setTable] = useState<ReferenceStability | null>(null);
  const [failed, setFailed] = useState(false);
  const [editing, setEditing] = useState(false);

  useEffect(() => {
    // A failure is already shown as a message by the API client; here the card says so too.
    api.get('/api/v1/reference/stability').then(setTable, () => setFailed(true));
  }, []);

  if (failed) return <Banner text="Не удалось загрузить справочные значения организации." />;
  if (!table) return <p className="muted">Загружаем справочные значения организации…</p>;
  const limit = format(table.short_element_max_seconds);
  return (
    <section className="card reference-card" aria-labelledby="reference-title">
      <h2 id="reference-title">Справочные значения вашей организации</h2>
      <p className="muted">
        {table.is_default
          ? 'Используются значения по умолчанию (раздел 4 этой страницы).'
          : `Редакция организации «${table.edition}»${table.updated_by ? `, сохранил(а) ${table.updated_by}` : ''}${table.updated_at ? `, ${new Date(table.updated_at).toLocaleString('ru-RU')}` : ''}.`}{' '}
        Источник: {table.source}.
      </p>
      <div className="table-scroll">
        <table className="reference-table">
          <thead>
            <tr>
              <th rowSpan={2}>Тип производства</th>
              <th colSpan={2}>Ручная работа, Ку</th>
              <th colSpan={2}>Машинная работа, Ку</th>
              <th rowSpan={2}>Точность ε, %</th>
            </tr>
            <tr>
              <th>элемент ≤ {limit} с</th>
              <th>&gt; {limit} с</th>
              <th>≤ {limit} с</th>
              <th>&gt; {limit} с</th>
            </tr>
          </thead>
          <tbody>
            {PRODUCTION_TYPES.map((type) => {
              const manual = rowOf(table, type, 'manual');
              const machine = rowOf(table, type, 'machine');
              return (
                <tr key={type}>
                  <th scope="row">{manual?.production_type_label ?? type}</th>
                  <td>{manual ? format(manual.coef_short) : '—'}</td>
                  <td>{manual ? format(manual.coef_long) : '—'}</td>
                  <td>{machine ? format(machine.coef_short) : '—'}</td>
                  <td>{machine ? format(machine.coef_long) : '—'}</td>
                  <td>{manual ? format(manual.accuracy_percent) : '—'}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {canEdit && !editing && (
        <div className="actions">
          <button type="button" className="button secondary" onClick={() => setEditing(true)}>
            Изменить справочник
          </button>
        </div>
      )}
      {canEdit && editing && (
        <ReferenceEditor
          table={table}
          onDone={(next) => {
            if (next) setTable(next);
            setEditing(false);
          }}
        />
      )}
    </section>
  );
}

interface Draft {
  source: string;
  edition: string;
  short_element_max_seconds: string;
  rows: Record<string, { coef_short: string; coef_long: string; accuracy_percent: string }>;
}

const key = (type: string, kind: string) => `${type}/${kind}`;

function draftOf(table: ReferenceStability): Draft {
  const rows: Draft['rows'] = {};
  for (const row of table.rows) {
    rows[key(row.production_type, row.work_kind)] = {
      coef_short: String(row.coef_short),
      coef_long: String(row.coef_long),
      accuracy_percent: String(row.accuracy_percent),
    };
  }
  return {
    source: table.is_default ? '' : table.source,
    edition: table.is_default ? '' : table.edition,
    short_element_max_seconds: String(table.short_element_max_seconds),
    rows,
  };
}

const toNumber = (text: string) => Number(text.replace(',', '.').trim());

/** Admin form: the whole table with its source and edition, saved at once; or back to defaults. */
function ReferenceEditor({ table, onDone }: { table: ReferenceStability; onDone: (next: ReferenceStability | null) => void }) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(table));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const setCell = (type: string, kind: string, field: keyof Draft['rows'][string], value: string) =>
    setDraft((d) => ({ ...d, rows: { ...d.rows, [key(type, kind)]: { ...d.rows[key(type, kind)]!, [field]: value } } }));

  const run = async (action: () => Promise<ReferenceStability>, message: string) => {
    setError(null);
    setBusy(true);
    try {
      const next = await action();
      notify('success', message);
      onDone(next);
    } catch (err) {
      setError(err instanceof ApiCallError ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };

  const save = (event: FormEvent) => {
    event.preventDefault();
    const body: ReferenceStabilityBody = {
      source: draft.source,
      edition: draft.edition,
      short_element_max_seconds: toNumber(draft.short_element_max_seconds),
      rows: PRODUCTION_TYPES.flatMap((type) =>
        (['manual', 'machine'] as const).map((kind) => {
          const cell = draft.rows[key(type, kind)] ?? { coef_short: '', coef_long: '', accuracy_percent: '' };
          return {
            production_type: type,
            work_kind: kind,
            coef_short: toNumber(cell.coef_short),
            coef_long: toNumber(cell.coef_long),
            accuracy_percent: toNumber(cell.accuracy_percent),
          };
        }),
      ),
    };
    void run(() => api.put('/api/v1/reference/stability', { body, quiet: true }), 'Справочник сохранён');
  };

  const reset = () => void run(() => api.delete('/api/v1/reference/stability', { quiet: true }), 'Возвращены значения по умолчанию');

  return (
    <form className="reference-editor" onSubmit={save}>
      <div className="reference-meta">
        <label>
          Источник (методика, приказ, издание)
          <input value={draft.source} onChange={(e) => setDraft({ ...draft, source: e.target.value })} required />
        </label>
        <label>
          Редакция
          <input value={draft.edition} onChange={(e) => setDraft({ ...draft, edition: e.target.value })} required />
        </label>
        <label>
          Короткий элемент — до, с
          <input
            inputMode="decimal"
            value={draft.short_element_max_seconds}
            onChange={(e) => setDraft({ ...draft, short_element_max_seconds: e.target.value })}
          />
        </label>
      </div>
      <div className="table-scroll">
        <table className="reference-table">
          <thead>
            <tr>
              <th>Тип производства</th>
              <th>Работа</th>
              <th>Ку, короткий элемент</th>
              <th>Ку, длинный элемент</th>
              <th>Точность ε, %</th>
            </tr>
          </thead>
          <tbody>
            {PRODUCTION_TYPES.flatMap((type) =>
              (['manual', 'machine'] as const).map((kind) => {
                const cell = draft.rows[key(type, kind)];
                const label = rowOf(table, type, kind);
                return (
                  <tr key={key(type, kind)}>
                    <th scope="row">{label?.production_type_label ?? type}</th>
                    <td>{label?.work_kind_label ?? kind}</td>
                    {(['coef_short', 'coef_long', 'accuracy_percent'] as const).map((field) => (
                      <td key={field}>
                        <input
                          aria-label={`${label?.production_type_label ?? type}, ${label?.work_kind_label ?? kind}: ${field}`}
                          inputMode="decimal"
                          value={cell?.[field] ?? ''}
                          onChange={(e) => setCell(type, kind, field, e.target.value)}
                        />
                      </td>
                    ))}
                  </tr>
                );
              }),
            )}
          </tbody>
        </table>
      </div>
      <Banner text={error} />
      <div className="actions">
        <button type="submit" className="button" disabled={busy}>
          Сохранить
        </button>
        <button type="button" className="button secondary" disabled={busy} onClick={() => onDone(null)}>
          Отмена
        </button>
        {!table.is_default && (
          <button type="button" className="button secondary" disabled={busy} onClick={reset}>
            Вернуть значения по умолчанию
          </button>
        )}
      </div>
    </form>
  );
}
