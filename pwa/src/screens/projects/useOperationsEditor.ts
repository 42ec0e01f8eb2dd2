import { useEffect, useState } from 'react';
import { api } from '../../api/client';
import type { OperationsReply, OperationsSave } from '../../api/types';
import { notify } from '../../status/notifications';
import { loadOperations, operations } from '../../state/operations';
import { SAVED } from './useStructureSettings';

const OPERATION_NAME_MISSING = 'Не хватает имени у одной из операций!';

function load(reply: OperationsReply) {
  loadOperations(
    reply.operations.map((o) => ({ id: o.id, name: o.name, referencePoint: o.reference_point, type: o.type })),
    reply.operation_types,
  );
}

/**
 * The operations editor's session around the `operations` store: loads a structure's operations,
 * marks local changes unsaved, and saves them all at once (every operation needs a name).
 */
export function useOperationsEditor(structureId: number) {
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

  /** A local edit of the store: the list now differs from the saved one. */
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

  return { busy, error, failed, dirty, change, save };
}
