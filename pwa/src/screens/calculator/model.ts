/** The calculator form's state and rules (spec 02 §3–§5), kept apart from React so they are tested alone. */
import type { CalculatorDefaultsUpdate, ProductionType as ApiProductionType } from '../../api/types';

export const PRODUCTION_TYPES = [
  { value: 'mass', label: 'Массовое' },
  { value: 'large_series', label: 'Крупносерийное' },
  { value: 'series', label: 'Серийное' },
  { value: 'small_series', label: 'Мелкосерийное' },
] as const satisfies readonly { value: ApiProductionType; label: string }[];

/** The API's production types (ProductionTypeParam); the list above names each of them. */
export type ProductionType = ApiProductionType;

export interface CalculatorForm {
  productionType: ProductionType | null;
  less10Sec: boolean;
  employeesNum: string;
  shiftsPerDay: string;
  businessDayNum: string;
  hoursPerShift: string;
  averageSalary: string;
  insuranceAndPension: boolean;
  visible: boolean;
  unseen: string;
}

/** spec 02 §9: insurance on, visible on, unseen 0; the company figures start empty. */
export const initialForm: CalculatorForm = {
  productionType: null,
  less10Sec: false,
  employeesNum: '',
  shiftsPerDay: '',
  businessDayNum: '',
  hoursPerShift: '',
  averageSalary: '',
  insuranceAndPension: true,
  visible: true,
  unseen: '0',
};

const filled = (value: string) => value.trim() !== '';

/** §5: outputs only when employees, shifts, days, hours and salary are filled and visible is on or unseen ≠ 0. */
export function outputsReady(form: CalculatorForm): boolean {
  const company = [form.employeesNum, form.shiftsPerDay, form.businessDayNum, form.hoursPerShift, form.averageSalary].every(filled);
  const unseen = Number(form.unseen.trim().replace(',', '.'));
  return company && (form.visible || (filled(form.unseen) && unseen !== 0));
}

/** The company figures' bounds, as the API checks them (api/src/calculator/schema.ts, CalculatorQuery). */
const FIELD_RULES: { key: keyof CalculatorForm; what: string; min: number; max: number; integer: boolean; must?: string }[] = [
  { key: 'employeesNum', what: 'Число сотрудников', min: 1, max: 100_000, integer: true },
  { key: 'shiftsPerDay', what: 'Число смен в сутки', min: 1, max: 4, integer: true },
  { key: 'businessDayNum', what: 'Число рабочих дней в месяце', min: 1, max: 31, integer: true },
  { key: 'hoursPerShift', what: 'Число часов в смене', min: 0.5, max: 24, integer: false },
  { key: 'averageSalary', what: 'Средняя зарплата в месяц, ₽,', min: 1, max: 100_000_000, integer: false, must: 'должна' },
  { key: 'unseen', what: 'Число рабочих мест вне обзора камер', min: 0, max: 100_000, integer: true },
];

const bound = new Intl.NumberFormat('ru-RU', { maximumFractionDigits: 1 });

/**
 * What is wrong with a typed company figure, in words a person can act on («Число сотрудников
 * должно быть целым числом от 1 до 100 000»), or null when every filled one is within its bounds.
 * Empty fields are not problems here (outputsReady waits for them).
 */
export function inputProblem(form: CalculatorForm): string | null {
  for (const rule of FIELD_RULES) {
    const text = String(form[rule.key]).trim().replace(',', '.');
    if (text === '') continue;
    const value = /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : NaN;
    if (Number.isFinite(value) && value >= rule.min && value <= rule.max && (!rule.integer || Number.isInteger(value))) continue;
    const kind = rule.integer ? 'целым числом' : 'числом';
    return `${rule.what} ${rule.must ?? 'должно'} быть ${kind} от ${bound.format(rule.min)} до ${bound.format(rule.max)}`;
  }
  return null;
}

/** §5: required measurements only when a production type is chosen. */
export const measurementsReady = (form: CalculatorForm) => form.productionType !== null;

/** The calculator input params of spec 02 §7, as the API names them; the server checks them. */
export function calculatorQuery(form: CalculatorForm): Record<string, string | boolean | undefined> {
  return {
    production_type: form.productionType ?? undefined,
    less_10_sec: form.less10Sec,
    employees_num: form.employeesNum.trim(),
    shifts_per_day: form.shiftsPerDay.trim(),
    business_day_num: form.businessDayNum.trim(),
    hours_per_shift: form.hoursPerShift.trim(),
    average_salary: form.averageSalary.trim(),
    insurance_and_pension: form.insuranceAndPension,
    visible: form.visible,
    unseen: form.unseen.trim() || '0',
  };
}

export interface SettingEdit {
  name: string;
  /** The value the server gave. */
  value: number;
  /** What is typed in the panel now. */
  text: string;
}

/**
 * The changed values to send to update_calculator_defaults (spec 02 §4: only changed ones), or
 * the Russian problems with what is typed. A field typed back to the server's value is unchanged.
 */
export function changedValues(edits: SettingEdit[]): { changes: CalculatorDefaultsUpdate; problems: string[] } {
  const changes: CalculatorDefaultsUpdate = [];
  const problems: string[] = [];
  for (const edit of edits) {
    const text = edit.text.trim().replace(',', '.');
    if (text === '') {
      problems.push(`${edit.name}: введите число`);
      continue;
    }
    const value = Number(text);
    if (!Number.isFinite(value)) {
      problems.push(`${edit.name}: «${edit.text}» — не число`);
      continue;
    }
    if (value !== edit.value) changes.push({ name: edit.name, new_value: value });
  }
  return { changes, problems };
}

const rub = new Intl.NumberFormat('ru-RU', { maximumFractionDigits: 0 });
const plain = new Intl.NumberFormat('ru-RU', { maximumFractionDigits: 2 });

export const formatRub = (value: number) => `${rub.format(value)} ₽`;
export const formatNumber = (value: number) => plain.format(value);
