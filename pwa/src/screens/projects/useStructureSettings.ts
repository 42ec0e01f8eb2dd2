import { useEffect, useState, type FormEvent } from 'react';
import { api } from '../../api/client';
import type { StructureSettings, StructureSettingsSave } from '../../api/types';
import { notify } from '../../status/notifications';
import { projectParameters, type ProjectParameters } from '../../state/projectParameters';
import { loadShifts, projectShifts, removeShift } from '../../state/projectShifts';
import { reportGenerator } from '../../state/reportGenerator';

export const SAVED = 'Успешно сохранено';

export type ProductionType = StructureSettings['production_type'];
export type CleaningRule = StructureSettings['cleaning_rule'];
type BreakInterval = StructureSettings['shifts'][number]['breaks'][number];

/** "10:00–10:15, 12:00–12:40" from a shift's break intervals. */
export function breakIntervalsText(breaks: readonly BreakInterval[] | undefined): string {
  return (breaks ?? []).map((b) => `${b.start_time.slice(0, 5)}–${b.end_time.slice(0, 5)}`).join(', ');
}

/** Break intervals from "10:00–10:15, 12:00–12:40" (dash or hyphen); null when the text is not such a list. */
export function parseBreakIntervalsText(text: string): BreakInterval[] | null {
  const parts = text
    .split(/[,;]/)
    .map((p) => p.trim())
    .filter(Boolean);
  const intervals: BreakInterval[] = [];
  for (const part of parts) {
    const match = /^(\d{1,2}:\d{2})\s*[-–—]\s*(\d{1,2}:\d{2})$/.exec(part);
    if (!match) return null;
    const pad = (t: string) => (t.length === 4 ? `0${t}` : t);
    intervals.push({ start_time: pad(match[1]!), end_time: pad(match[2]!) });
  }
  return intervals;
}

/** Server reply → the stores of spec 02 §3 (break: seconds → minutes as entered). */
function load(settings: StructureSettings) {
  Object.assign(projectParameters, {
    employeeCount: settings.employee_count ?? undefined,
    employeeSalary: settings.employee_salary ?? undefined,
    fluctReduction: settings.flucts_reduction ?? undefined,
    regularBreakDuration: Math.round(settings.regular_break_duration / 60),
    timeSeriesStabilityThreshold: settings.time_series_stability_threshold ?? undefined,
    restInIdle: settings.rest_in_idle,
  } satisfies ProjectParameters);
  loadShifts(settings.shifts.map((s) => ({ index: s.id, gaps: s.regular_break_duration_min, name: s.name, timeStart: s.start_time, timeFinish: s.end_time })));
  reportGenerator.shifts = settings.shifts.map(({ name, start_time, end_time, regular_break_duration_min }) => ({
    name,
    start_time,
    end_time,
    regular_break_duration_min,
  }));
}

/**
 * The structure settings card's session around the `projectParameters` and `projectShifts` stores:
 * loads a structure's settings, keeps what the stores do not (partial flag, production type, cleaning
 * rule, break intervals as typed) and saves them all at once. `loaded` counts the loads, so that the
 * card's uncontrolled fields start again from the stores after each one.
 */
export function useStructureSettings(structureId: number) {
  const [loaded, setLoaded] = useState(0);
  const [partial, setPartial] = useState(false);
  const [productionType, setProductionType] = useState<ProductionType>('series');
  const [cleaningRule, setCleaningRule] = useState<CleaningRule>('one_extreme');
  // Break intervals as typed, one per shift row (the shift store keeps the other shift fields).
  const [breakTexts, setBreakTexts] = useState<string[]>([]);
  // The unpaid meal break of each shift row as typed, minutes (METHODOLOGY §7: Тсм = end − start − it).
  const [mealTexts, setMealTexts] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);

  const apply = (settings: StructureSettings) => {
    load(settings);
    setPartial(settings.partial);
    setProductionType(settings.production_type);
    setCleaningRule(settings.cleaning_rule ?? 'one_extreme');
    setBreakTexts(settings.shifts.map((sh) => breakIntervalsText(sh.breaks)));
    setMealTexts(settings.shifts.map((sh) => String(sh.meal_break_min ?? 0)));
    setLoaded((n) => n + 1);
  };

  useEffect(() => {
    setFailed(false);
    api.get('/api/v1/structure/{id}', { path: { id: structureId } }).then(apply, () => setFailed(true));
  }, [structureId]);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const p = projectParameters;
    if (p.regularBreakDuration === undefined) {
      setError('Регламентированные перерывы: введите число минут');
      return;
    }
    const breaks = projectShifts.shifts.map((_, position) => parseBreakIntervalsText(breakTexts[position] ?? ''));
    const badBreaks = breaks.findIndex((b) => b === null);
    if (badBreaks >= 0) {
      setError(`Смена ${badBreaks + 1}: перерывы вводятся интервалами вида 12:00–12:30 через запятую`);
      return;
    }
    const meals = projectShifts.shifts.map((_, position) => (mealTexts[position] ?? '0').trim() || '0');
    const badMeal = meals.findIndex((m) => !/^\d{1,3}$/.test(m) || Number(m) > 720);
    if (badMeal >= 0) {
      setError(`Смена ${badMeal + 1}: обед — целое число минут от 0 до 720`);
      return;
    }
    setBusy(true);
    try {
      const reply = await api.put('/api/v1/structure/{id}', {
        path: { id: structureId },
        body: {
          employee_count: p.employeeCount ?? null,
          employee_salary: p.employeeSalary ?? null,
          fluct_reduction: p.fluctReduction ?? null,
          regular_break_duration: p.regularBreakDuration * 60,
          time_series_stability_threshold: p.timeSeriesStabilityThreshold ?? null,
          rest_in_idle: p.restInIdle,
          partial,
          production_type: productionType,
          cleaning_rule: cleaningRule,
          shifts: projectShifts.shifts.map((s, position) => ({
            name: s.name,
            start_time: s.timeStart,
            end_time: s.timeFinish,
            regular_break_duration_min: s.gaps,
            meal_break_min: Number(meals[position]),
            breaks: breaks[position] ?? [],
          })),
        } satisfies StructureSettingsSave,
      });
      apply(reply);
      notify('success', SAVED);
    } catch {
      // Shown by the API client.
    } finally {
      setBusy(false);
    }
  };

  /** Break intervals of the shift in row `position` as typed. */
  const setBreakText = (position: number, value: string) =>
    setBreakTexts((list) => {
      const next = [...list];
      next[position] = value;
      return next;
    });

  /** The meal break of the shift in row `position` as typed. */
  const setMealText = (position: number, value: string) =>
    setMealTexts((list) => {
      const next = [...list];
      next[position] = value;
      return next;
    });

  /** Removes the shift in row `position` with its break intervals and meal break. */
  const removeShiftAt = (position: number) => {
    removeShift(position);
    setBreakTexts((list) => list.filter((_, i) => i !== position));
    setMealTexts((list) => list.filter((_, i) => i !== position));
  };

  return {
    loaded,
    failed,
    busy,
    error,
    partial,
    setPartial,
    productionType,
    setProductionType,
    cleaningRule,
    setCleaningRule,
    breakTexts,
    setBreakText,
    mealTexts,
    setMealText,
    removeShiftAt,
    save,
  };
}
