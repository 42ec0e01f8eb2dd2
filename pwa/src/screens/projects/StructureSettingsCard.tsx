import { useEffect, useState, type FormEvent } from 'react';
import { useSnapshot } from 'valtio';
import { api } from '../../api/client';
import type { StructureSettings, StructureSettingsSave } from '../../api/types';
import { notify } from '../../status/notifications';
import { editParameter, projectParameters, setRestInIdle, type ProjectParameters } from '../../state/projectParameters';
import { addShift, editShift, loadShifts, projectShifts, removeShift } from '../../state/projectShifts';
import { reportGenerator } from '../../state/reportGenerator';
import { Banner } from '../../ui/Banner';

export const SAVED = 'Успешно сохранено';

type ProductionType = StructureSettings['production_type'];
type CleaningRule = StructureSettings['cleaning_rule'];
type BreakInterval = StructureSettings['shifts'][number]['breaks'][number];

/** Time-series cleaning rules (METHODOLOGY §3), as the report names them. */
export const cleaningRules: Record<CleaningRule, string> = {
  one_extreme: 'По одному крайнему замеру (дальний от медианы)',
  both_extremes: 'Минимальный и максимальный вместе',
};

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

export const productionTypes: Record<ProductionType, string> = {
  mass: 'Массовое',
  large_series: 'Крупносерийное',
  series: 'Серийное',
  small_series: 'Мелкосерийное',
};

/**
 * The stability threshold is a coefficient (Ку, e.g. 1.5; METHODOLOGY §1), so unlike the other
 * parameters it keeps its decimals; otherwise it follows the same rules (spec 02 §4): no value
 * keeps the old one, a non-number becomes undefined.
 */
export function editThreshold(raw: string | undefined) {
  if (raw === undefined || raw.trim() === '') return;
  const value = Number.parseFloat(raw.replace(',', '.'));
  projectParameters.timeSeriesStabilityThreshold = Number.isNaN(value) ? undefined : value;
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

const numericFields: { key: Exclude<keyof ProjectParameters, 'restInIdle'>; label: string; hint?: string }[] = [
  { key: 'employeeCount', label: 'Число сотрудников' },
  { key: 'employeeSalary', label: 'Зарплата сотрудника, ₽ в месяц' },
  { key: 'fluctReduction', label: 'Снижение колебаний, %' },
  { key: 'regularBreakDuration', label: 'Регламентированные перерывы, мин', hint: 'хранится в секундах' },
  { key: 'timeSeriesStabilityThreshold', label: 'Порог устойчивости хроноряда (Ку)', hint: 'пусто — по справочнику' },
];

/**
 * spec 02 "Structure settings card": report parameters, shifts, and the structure's partial flag
 * and production type. Fields are edited through the stores' transitions (spec 02 §4); when a
 * field is left, it shows the value that will be saved.
 */
export function StructureSettingsCard({ structureId, canWrite }: { structureId: number; canWrite: boolean }) {
  const params = useSnapshot(projectParameters);
  const shifts = useSnapshot(projectShifts);
  const [loaded, setLoaded] = useState(0);
  const [partial, setPartial] = useState(false);
  const [productionType, setProductionType] = useState<ProductionType>('series');
  const [cleaningRule, setCleaningRule] = useState<CleaningRule>('one_extreme');
  // Break intervals as typed, one per shift row (the shift store keeps the other shift fields).
  const [breakTexts, setBreakTexts] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);

  const apply = (settings: StructureSettings) => {
    load(settings);
    setPartial(settings.partial);
    setProductionType(settings.production_type);
    setCleaningRule(settings.cleaning_rule ?? 'one_extreme');
    setBreakTexts(settings.shifts.map((sh) => breakIntervalsText(sh.breaks)));
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

  const shown = (value: number | undefined) => (value === undefined ? '' : String(value));

  if (failed)
    return (
      <section className="card">
        <h2>Параметры отчёта</h2>
        <Banner text="Не удалось загрузить параметры структурной единицы." />
      </section>
    );

  return (
    <form className="card settings-card" onSubmit={save} aria-labelledby="settings-title" data-testid="settings-card">
      <h2 id="settings-title">Параметры отчёта</h2>
      <fieldset disabled={!canWrite || busy || loaded === 0} className="plain-fieldset">
        <div className="settings-grid" key={`params-${loaded}`}>
          {numericFields.map(({ key, label, hint }) => (
            <label key={key}>
              {label}
              <input
                inputMode={key === 'timeSeriesStabilityThreshold' ? 'decimal' : 'numeric'}
                defaultValue={shown(params[key])}
                onChange={(e) => (key === 'timeSeriesStabilityThreshold' ? editThreshold(e.target.value) : editParameter(key, e.target.value))}
                onBlur={(e) => (e.target.value = shown(projectParameters[key]))}
              />
              {hint && <span className="muted small">{hint}</span>}
            </label>
          ))}
          <label>
            Тип производства
            <select value={productionType} onChange={(e) => setProductionType(e.target.value as ProductionType)}>
              {Object.entries(productionTypes).map(([code, name]) => (
                <option key={code} value={code}>
                  {name}
                </option>
              ))}
            </select>
          </label>
          <label className="settings-wide">
            Очистка хроноряда
            <select value={cleaningRule} onChange={(e) => setCleaningRule(e.target.value as CleaningRule)} data-testid="cleaning-rule-select">
              {Object.entries(cleaningRules).map(([code, name]) => (
                <option key={code} value={code}>
                  {name}
                </option>
              ))}
            </select>
            <span className="settings-chosen" aria-hidden="true">
              {cleaningRules[cleaningRule]}
            </span>
          </label>
          <label className="switch">
            <input type="checkbox" role="switch" checked={params.restInIdle} onChange={(e) => setRestInIdle(e.target.checked)} />
            Отдых считать простоем
          </label>
          <label className="switch">
            <input type="checkbox" role="switch" checked={partial} onChange={(e) => setPartial(e.target.checked)} />
            Неполная структура (наблюдение части смены)
          </label>
        </div>

        <h3>Смены</h3>
        {shifts.shifts.length === 0 && <p className="muted">Смен нет: отчёт считает по наблюдаемому времени.</p>}
        <div className="table-scroll">
          <table className="data-table compact shifts-table" key={`shifts-${loaded}-${shifts.shifts.length}`}>
            {shifts.shifts.length > 0 && (
              <thead>
                <tr>
                  <th>Название</th>
                  <th>Начало</th>
                  <th>Конец</th>
                  <th>Перерывы, мин</th>
                  <th>Интервалы перерывов</th>
                  <th>
                    <span className="visually-hidden">Действия</span>
                  </th>
                </tr>
              </thead>
            )}
            <tbody>
              {shifts.shifts.map((shift, position) => (
                <tr key={`${position}-${shift.index}`} data-testid="shift-row">
                  <td>
                    <input
                      aria-label={`Смена ${position + 1}: название`}
                      defaultValue={shift.name}
                      onChange={(e) => editShift(position, { name: e.target.value })}
                      onBlur={(e) => (e.target.value = projectShifts.shifts[position]?.name ?? '')}
                    />
                  </td>
                  <td>
                    <input
                      type="time"
                      step={60}
                      aria-label={`Смена ${position + 1}: начало`}
                      defaultValue={shift.timeStart.slice(0, 5)}
                      onChange={(e) => editShift(position, { timeStart: e.target.value })}
                      onBlur={(e) => (e.target.value = (projectShifts.shifts[position]?.timeStart ?? '').slice(0, 5))}
                    />
                  </td>
                  <td>
                    <input
                      type="time"
                      step={60}
                      aria-label={`Смена ${position + 1}: конец`}
                      defaultValue={shift.timeFinish.slice(0, 5)}
                      onChange={(e) => editShift(position, { timeFinish: e.target.value })}
                      onBlur={(e) => (e.target.value = (projectShifts.shifts[position]?.timeFinish ?? '').slice(0, 5))}
                    />
                  </td>
                  <td>
                    <input
                      inputMode="numeric"
                      size={5}
                      aria-label={`Смена ${position + 1}: перерывы, мин`}
                      defaultValue={String(shift.gaps)}
                      onChange={(e) => editShift(position, { gaps: e.target.value })}
                      onBlur={(e) => (e.target.value = String(projectShifts.shifts[position]?.gaps ?? 0))}
                    />
                  </td>
                  <td>
                    <input
                      size={22}
                      placeholder="12:00–12:30, 15:00–15:10"
                      aria-label={`Смена ${position + 1}: интервалы перерывов`}
                      value={breakTexts[position] ?? ''}
                      data-testid="shift-breaks"
                      onChange={(e) => {
                        const value = e.target.value;
                        setBreakTexts((list) => {
                          const next = [...list];
                          next[position] = value;
                          return next;
                        });
                      }}
                    />
                  </td>
                  <td>
                    <button
                      type="button"
                      className="button danger secondary small"
                      onClick={() => {
                        removeShift(position);
                        setBreakTexts((list) => list.filter((_, i) => i !== position));
                      }}
                    >
                      Удалить смену
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <p className="muted small">
          Перерывы смены 0 — берутся регламентированные перерывы структурной единицы. Интервалы перерывов (например, 12:00–12:30, 15:00–15:10) задают перерывы
          временем: их сумма — перерывы смены, в отчёте они видны в таблице 6, а окно, которое режет смену, учитывает только части интервалов внутри себя.
        </p>
        <Banner text={error} />
        {canWrite && (
          <div className="actions">
            <button type="button" className="button secondary" onClick={addShift}>
              Добавить смену
            </button>
            <button type="submit" className="button" disabled={busy}>
              {busy ? 'Сохранение…' : 'Сохранить параметры'}
            </button>
          </div>
        )}
      </fieldset>
      {!canWrite && <p className="muted small">Менять параметры могут администратор и аналитик.</p>}
    </form>
  );
}
