import { useEffect, useState } from 'react';
import { useSnapshot } from 'valtio';
import { api } from '../../api/client';
import type { OperationsReply, OperationsSave } from '../../api/types';
import { notify } from '../../status/notifications';
import { addOperation, editOperation, loadOperations, operations, removeOperation } from '../../state/operations';
import { Banner } from '../../ui/Banner';
import { SAVED } from './StructureSettingsCard';

export const OPERATION_NAME_MISSING = 'Не хватает имени у одной из операций!';

function load(reply: OperationsReply) {
  loadOperations(
    reply.operations.map((o) => ({ id: o.id, name: o.name, referencePoint: o.reference_point, type: o.type })),
    reply.operation_types,
  );
}

/**
 * spec 02 "Operations editor": name, type (from the operation types map) and reference point;
 * add, edit and remove locally (a removed saved operation is remembered by id); all is committed
 * on save. An operation that markups use cannot be deleted: the server refuses the whole save.
 */
export function OperationsEditor({ structureId, canWrite }: { structureId: number; canWrite: boolean }) {
  const state = useSnapshot(operations);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  const [dirty, setDirty] = useState(false);

  useEffect(() => {
    setFailed(false);
    setDirty(false);
    setError(null);
    loadOperations([], {});
    api.get('/api/v1/operations', { query: { structure_id: structureId } }).then(load, () => setFailed(true));
  }, [structureId]);

  const change = (fn: () => void) => {
    fn();
    setDirty(true);
  };

  const save = async () => {
    setError(null);
    if (operations.list.some((o) => !o.name.trim())) {
      setError(OPERATION_NAME_MISSING);
      return;
    }
    setBusy(true);
    try {
      const reply = await api.post('/api/v1/operations', {
        body: {
          structure_id: structureId,
          changed_operations: operations.list.map((o) => ({
            ...(o.id === undefined ? {} : { id: o.id }),
            name: o.name,
            type: o.type,
            reference_point: o.referencePoint,
          })),
          operations_to_delete: [...operations.toDelete],
        } satisfies OperationsSave,
      });
      load(reply);
      setDirty(false);
      notify('success', SAVED);
    } catch {
      // Shown by the API client (a 409 names the operations that markups use).
    } finally {
      setBusy(false);
    }
  };

  if (failed)
    return (
      <section className="card">
        <h2>Операции</h2>
        <Banner text="Не удалось загрузить операции." />
      </section>
    );
  const types = Object.entries(state.operationTypes);

  return (
    <section className="card operations-editor" aria-labelledby="operations-title" data-testid="operations-editor">
      <h2 id="operations-title">Операции</h2>
      {state.list.length === 0 && <p className="muted">Операций пока нет.</p>}
      <fieldset disabled={!canWrite || busy} className="plain-fieldset">
        {state.list.length > 0 && (
          <div className="table-scroll">
            <table className="data-table compact">
              <thead>
                <tr>
                  <th>Название</th>
                  <th>Тип</th>
                  <th>Точка отсчёта</th>
                  <th>
                    <span className="visually-hidden">Действия</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {state.list.map((op, index) => (
                  <tr key={op.id ?? `new-${index}`} data-testid="operation-row">
                    <td>
                      <input
                        aria-label={`Операция ${index + 1}: название`}
                        value={op.name}
                        className={op.name.trim() ? undefined : 'invalid'}
                        onChange={(e) => change(() => editOperation(index, { name: e.target.value }))}
                      />
                    </td>
                    <td>
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
                    <td>
                      <input
                        aria-label={`Операция ${index + 1}: точка отсчёта`}
                        value={op.referencePoint}
                        onChange={(e) => change(() => editOperation(index, { referencePoint: e.target.value }))}
                      />
                    </td>
                    <td>
                      <button type="button" className="button danger secondary small" onClick={() => change(() => removeOperation(index))}>
                        Удалить
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
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
