import { useEffect, useState } from 'react';
import { api } from '../api/client';
import type { Structure } from '../api/types';
import { NamedSelect } from './NamedSelect';

/** A choice among the structures that have no children — the ones that own cameras and staff. */
export function LeafStructureSelect({ value, onChange }: { value: number | null; onChange(id: number | null): void }) {
  const [structures, setStructures] = useState<Structure[]>([]);
  useEffect(() => {
    api.get('/api/v2/get_all_structures').then(setStructures, () => {});
  }, []);
  const leaves = structures.filter((s) => !structures.some((child) => child.parent_id === s.id));
  return (
    <label>
      Структурная единица
      <NamedSelect items={leaves} value={value} onChange={onChange} />
    </label>
  );
}
