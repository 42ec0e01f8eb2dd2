import { TableHead } from '../../ui/TableHead';
import { useSnapshot } from 'valtio';
import { addOperation, editOperation, operations, removeOperation } from '../../state/operations';
import { Banner } from '../../ui/Banner';
import { useOperationsEditor } from './useOperationsEditor';

type Change = (fn: () => void) => void;

/** The operations as a table of name, type and reference point, each with its removal. */
function OperationsTable({ change }: { change: Change }) {
  const state = useSnapshot(operations);
  const types = Object.entries(state.operationTypes);
  return (
    <div className="table-scroll fit-scope">
      <table className="data-table compact fit-table operations-table">
        <TableHead titles={['Название', 'Тип', 'Точка отсчёта']} />
        <tbody>
          {state.list.map((op, index) => (
            <tr key={op.id ?? `new-${index}`} data-testid="operation-row">
              <td className="fit-wide" data-label="Название">
                <input
                  aria-label={`Операция ${index + 1}: название`}
                  value={op.name}
                  className={op.name.trim() ? undefined : 'invalid'}
                  onChange={(e) => change(() => editOperation(index, { name: e.target.value }))}
                />
              </td>
              <td data-label="Тип">
                <select
                  aria-label={`Операция ${index + 1}: тип`}
                  value={op.type}
                  onChange={(e) => change(() => editOperation(index, { type: e.target.value }))}
                >
                  {types.map(([code, label]) => (
                    <option key={code} value={code}>
                      {label}
                    </option>
                  ))}
                </select>
              </td>
              <td data-label="Точка отсчёта">
                <input
                  aria-label={`Операция ${index + 1}: точка отсчёта`}
                  value={op.referencePoint}
                  onChange={(e) => change(() => editOperation(index, { referencePoint: e.target.value }))}
                />
              </td>
              <td className="fit-actions">
                <button type="button" className="button danger secondary small" onClick={() => change(() => removeOperation(index))}>
                  Удалить
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * spec 02 "Operations editor": name, type (from the operation types map) and reference point;
 * add, edit and remove locally (a removed saved operation is remembered by id); all is committed
 * on save. An operation that markups use cannot be deleted: the server refuses the whole save.
 */
export function OperationsEditor({ structureId, canWrite }: { structureId: number; canWrite: boolean }) {
  const state = useSnapshot(operations);
  const { busy, error, failed, dirty, change, save } = useOperationsEditor(structureId);

  if (failed)
    return (
      <section className="card">
        <h2>Операции</h2>
        <Banner text="Не удалось загрузить операции." />
      </section>
    );

  return (
    <section className="card operations-editor" aria-labelledby="operations-title" data-testid="operations-editor">
      <h2 id="operations-title">Операции</h2>
      {state.list.length === 0 && <p className="muted">Операций пока нет.</p>}
      <fieldset disabled={!canWrite || busy} className="plain-fieldset">
        {state.list.length > 0 && <OperationsTable change={change} />}
        <Banner text={error} />
        {state.toDelete.length > 0 && <p className="muted small">Будут удалены при сохранении: {state.toDelete.length}</p>}
        {canWrite && (
          <div className="actions">
            <button type="button" className="button secondary" onClick={() => change(addOperation)}>
              Добавить операцию
            </button>
            <button type="button" className="button" onClick={save} disabled={busy}>
              {busy ? 'Сохранение…' : 'Сохранить операции'}
            </button>
            {dirty && <span className="badge unsaved">есть несохранённые изменения</span>}
          </div>
        )}
      </fieldset>
    </section>
  );
}
