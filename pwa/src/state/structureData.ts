import { proxy } from 'valtio';
import type { NamedItem } from '../api/types';

/** spec 02 §3 "structureData": employees, period, dates with reports, chosen employee. */
export const structureData = proxy({
  employees: [] as NamedItem[],
  fromTime: null as string | null,
  toTime: null as string | null,
  reportDates: [] as string[],
  selectedEmployee: 0,
});

/** After an update the selected employee becomes the first employee's id, or 0 if none. */
export function setEmployees(employees: NamedItem[]) {
  structureData.employees = employees;
  structureData.selectedEmployee = employees[0]?.id ?? 0;
}

/** Time selection sets either the from or the to time (spec 02 §4). */
export function selectTime(which: 'from' | 'to', value: string) {
  if (which === 'from') structureData.fromTime = value;
  else structureData.toTime = value;
}
