import { useEffect, useState } from 'react';
import { api } from '../api/client';
import type { Structure } from '../api/types';

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
      <select value={value ?? ''} onChange={(e) => onChange(e.target.value ? Number(e.target.value) : null)}>
        <option value="">— выберите —</option>
        {leaves.map((s) => (
          <option key={s.id} value={s.id}>
            {s.name}
          </option>
        ))}
      </select>
    </label>
  );
}
