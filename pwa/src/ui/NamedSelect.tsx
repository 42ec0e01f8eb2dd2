import type { SelectHTMLAttributes } from 'react';

interface NamedSelectProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'value' | 'onChange'> {
  /** The choices: id and name (operations, workplaces, employees, structures). */
  items: readonly { id: number; name: string }[];
  value: number | null;
  onChange(id: number | null): void;
  /** The first option, standing for «none chosen», e.g. «— сотрудник —». */
  placeholder?: string;
}

/** A choice of one named item by its id, or none: the one select of ids and names of the PWA. */
export function NamedSelect({ items, value, onChange, placeholder = '— выберите —', ...select }: NamedSelectProps) {
  return (
    <select {...select} value={value ?? ''} onChange={(e) => onChange(e.target.value ? Number(e.target.value) : null)}>
      <option value="">{placeholder}</option>
      {items.map((item) => (
        <option key={item.id} value={item.id}>
          {item.name}
        </option>
      ))}
    </select>
  );
}
