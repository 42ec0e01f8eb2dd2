import { proxy } from 'valtio';

export interface ProjectParameters {
  employeeSalary: number | undefined;
  regularBreakDuration: number | undefined;
  restInIdle: boolean;
  timeSeriesStabilityThreshold: number | undefined;
  employeeCount: number | undefined;
  fluctReduction: number | undefined;
}

/** spec 02 §3 "projectParameters". */
export const projectParameters = proxy<ProjectParameters>({
  employeeSalary: undefined,
  regularBreakDuration: undefined,
  restInIdle: false,
  timeSeriesStabilityThreshold: undefined,
  employeeCount: undefined,
  fluctReduction: undefined,
});

type NumericParameter = Exclude<keyof ProjectParameters, 'restInIdle'>;

/**
 * Editing a numeric parameter keeps the old value if none is given and becomes undefined if the
 * new value is not a number (spec 02 §4); numbers are parsed as integers (spec 02 §5).
 */
export function editParameter(name: NumericParameter, raw: string | undefined) {
  if (raw === undefined || raw === '') return;
  const value = Number.parseInt(raw, 10);
  projectParameters[name] = Number.isNaN(value) ? undefined : value;
}

/** restInIdle is replaced as given. */
export function setRestInIdle(value: boolean) {
  projectParameters.restInIdle = value;
}
