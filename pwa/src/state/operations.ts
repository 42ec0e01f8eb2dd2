import { proxy } from 'valtio';

export interface EditableOperation {
  id?: number;
  name: string;
  referencePoint: string;
  type: string;
}

/** spec 02 §3 "operations": list, operationTypes map, toDelete ids. */
export const operations = proxy({
  list: [] as EditableOperation[],
  operationTypes: {} as Record<string, string>,
  toDelete: [] as number[],
});

/** Load replaces the list and clears the delete list (spec 02 §4). */
export function loadOperations(list: EditableOperation[], operationTypes: Record<string, string>) {
  operations.list = list;
  operations.operationTypes = operationTypes;
  operations.toDelete = [];
}

/** A new operation has no id, empty name and reference point, and the first available type. */
export function addOperation() {
  operations.list.push({ name: '', referencePoint: '', type: Object.keys(operations.operationTypes)[0] ?? '' });
}

export function removeOperation(index: number) {
  const [removed] = operations.list.splice(index, 1);
  if (removed?.id !== undefined) operations.toDelete.push(removed.id);
}

export function editOperation(index: number, change: Partial<Pick<EditableOperation, 'name' | 'referencePoint' | 'type'>>) {
  const item = operations.list[index];
  if (item) Object.assign(item, change);
}
