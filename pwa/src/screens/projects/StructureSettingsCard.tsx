import { TableHead } from '../../ui/TableHead';
import { useSnapshot } from 'valtio';
import { editParameter, projectParameters, setRestInIdle, type ProjectParameters } from '../../state/projectParameters';
import { addShift, editShift, projectShifts, type ProjectShift } from '../../state/projectShifts';
import { Banner } from '../../ui/Banner';
import { useStructureSettings, type CleaningRule, type ProductionType } from './useStructureSettings';

/** Time-series cleaning rules (METHODOLOGY §3), as the report names them. */
export const cleaningRules: Record<CleaningRule, string> = {
  one_extreme: 'По одному крайнему замеру (дальний от медианы)',
  both_extremes: 'Минимальный и максимальный вместе',
};

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

const numericFields: { key: Exclude<keyof ProjectParameters, 'restInIdle'>; label: string; hint?: string }[] = [
  { key: 'employeeCount', label: 'Число сотрудников' },
  { key: 'employeeSalary', label: 'Зарплата сотрудника, ₽ в месяц' },
  { key: 'fluctReduction', label: 'Снижение колебаний, %' },
  { key: 'regularBreakDuration', label: 'Регламентированные перерывы, мин', hint: 'хранится в секундах' },
  { key: 'timeSeriesStabilityThreshold', label: 'Порог устойчивости хроноряда (Ку)', hint: 'пусто — по справочнику' },
];

const shown = (value: number | undefined) => (value === undefined ? '' : String(value));

/**
 * spec 02 "Structure settings card": report parameters, shifts, and the structure's partial flag
 * and production type. Fields are edited through the stores' transitions (spec 02 §4); when a
 * field is left, it shows the value that will be saved. The session lives in useStructureSettings.
 */
export function StructureSettingsCard({ structureId, canWrite }: { structureId: number; canWrite: boolean }) {
  const shifts = useSnapshot(projectShifts);
  const settings = useStructureSettings(structureId);
  const { loaded, busy, error } = settings;

  if (settings.failed)
    return (
      <section className="card">
        <h2>Параметры отчёта</h2>
        <Banner text="Не удалось загрузить параметры структурной единицы." />
      </section>
    );

  return (
    <form className="card settings-card" onSubmit={settings.save} aria-labelledby="settings-title" data-testid="settings-card">
      <h2 id="settings-title">Параметры отчёта</h2>
      <fieldset disabled={!canWrite || busy || loaded === 0} className="plain-fieldset">
        <ParameterFields key={`params-${loaded}`} settings={settings} />

        <h3>Смены</h3>
        {shifts.shifts.length === 0 && <p className="muted">Смен нет: отчёт считает по наблюдаемому времени.</p>}
        <div className="table-scroll fit-scope">
          <ShiftsTable key={`shifts-${loaded}-${shifts.shifts.length}`} settings={settings} />
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

type Settings = ReturnType<typeof useStructureSettings>;

/** The report parameters, the production type, the cleaning rule and the two switches. */
function ParameterFields({ settings }: { settings: Settings }) {
  const params = useSnapshot(projectParameters);
  const { productionType, setProductionType, cleaningRule, setCleaningRule, partial, setPartial } = settings;
  return (
    <div className="settings-grid">
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
  );
}

/** The shifts, one editable row each. */
function ShiftsTable({ settings }: { settings: Settings }) {
  const shifts = useSnapshot(projectShifts);
  return (
    <table className="data-table compact fit-table stack-early shifts-table">
      {shifts.shifts.length > 0 && <TableHead titles={['Название', 'Начало', 'Конец', 'Перерывы, мин', 'Обед, мин', 'Интервалы перерывов']} />}
      <tbody>
        {shifts.shifts.map((shift, position) => (
          <ShiftRow key={`${position}-${shift.index}`} shift={shift} position={position} settings={settings} />
        ))}
      </tbody>
    </table>
  );
}

/** One shift: name, start, end, break minutes, break intervals, and its removal. */
function ShiftRow({ shift, position, settings }: { shift: Readonly<ProjectShift>; position: number; settings: Settings }) {
  const { breakTexts, setBreakText, mealTexts, setMealText, removeShiftAt } = settings;
  return (
    <tr data-testid="shift-row">
      <td className="fit-wide" data-label="Название">
        <input
          aria-label={`Смена ${position + 1}: название`}
          defaultValue={shift.name}
          onChange={(e) => editShift(position, { name: e.target.value })}
          onBlur={(e) => (e.target.value = projectShifts.shifts[position]?.name ?? '')}
        />
      </td>
      <td data-label="Начало">
        <input
          type="time"
          step={60}
          aria-label={`Смена ${position + 1}: начало`}
          defaultValue={shift.timeStart.slice(0, 5)}
          onChange={(e) => editShift(position, { timeStart: e.target.value })}
          onBlur={(e) => (e.target.value = (projectShifts.shifts[position]?.timeStart ?? '').slice(0, 5))}
        />
      </td>
      <td data-label="Конец">
        <input
          type="time"
          step={60}
          aria-label={`Смена ${position + 1}: конец`}
          defaultValue={shift.timeFinish.slice(0, 5)}
          onChange={(e) => editShift(position, { timeFinish: e.target.value })}
          onBlur={(e) => (e.target.value = (projectShifts.shifts[position]?.timeFinish ?? '').slice(0, 5))}
        />
      </td>
      <td data-label="Перерывы, мин">
        <input
          inputMode="numeric"
          size={5}
          aria-label={`Смена ${position + 1}: перерывы, мин`}
          defaultValue={String(shift.gaps)}
          onChange={(e) => editShift(position, { gaps: e.target.value })}
          onBlur={(e) => (e.target.value = String(projectShifts.shifts[position]?.gaps ?? 0))}
        />
      </td>
      <td data-label="Обед, мин">
        <input
          inputMode="numeric"
          size={5}
          aria-label={`Смена ${position + 1}: обед, мин`}
          value={mealTexts[position] ?? '0'}
          data-testid="shift-meal"
          onChange={(e) => setMealText(position, e.target.value)}
        />
      </td>
      <td className="fit-wide" data-label="Интервалы перерывов">
        <input
          size={22}
          placeholder="12:00–12:30, 15:00–15:10"
          aria-label={`Смена ${position + 1}: интервалы перерывов`}
          value={breakTexts[position] ?? ''}
          data-testid="shift-breaks"
          onChange={(e) => setBreakText(position, e.target.value)}
        />
      </td>
      <td className="fit-actions">
        <button type="button" className="button danger secondary small" onClick={() => removeShiftAt(position)}>
          Удалить смену
        </button>
      </td>
    </tr>
  );
}
