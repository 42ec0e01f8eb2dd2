import type { RequiredMeasurements } from '../../api/types';
import { Banner } from '../../ui/Banner';
import { PRODUCTION_TYPES, formatNumber, outputsReady, type CalculatorForm, type ProductionType } from './model';
import type { Calculator } from './useCalculator';

type Setter = Calculator['set'];

function NumberField({ form, set, field, label, hint }: { form: CalculatorForm; set: Setter; field: keyof CalculatorForm; label: string; hint?: string }) {
  return (
    <label>
      {label}
      <input name={field} inputMode="decimal" size={10} value={form[field] as string} onChange={(e) => set(field, e.target.value as never)} />
      {hint && <span className="muted small">{hint}</span>}
    </label>
  );
}

/** «Производство»: the production type, the short-operation switch and the measurements they require. */
function ProductionFields({ form, set, required }: { form: CalculatorForm; set: Setter; required: RequiredMeasurements | null }) {
  return (
    <fieldset>
      <legend>Производство</legend>
      <div className="row">
        <label>
          Тип производства
          <select
            name="production_type"
            value={form.productionType ?? ''}
            onChange={(e) => set('productionType', (e.target.value || null) as ProductionType | null)}
          >
            <option value="">— выберите —</option>
            {PRODUCTION_TYPES.map((t) => (
              <option key={t.value} value={t.value}>
                {t.label}
              </option>
            ))}
          </select>
        </label>
        <label className="switch">
          <input type="checkbox" role="switch" name="less_10_sec" checked={form.less10Sec} onChange={(e) => set('less10Sec', e.target.checked)} />
          Средняя операция короче {required?.short_element_max_seconds ?? 10} секунд
        </label>
      </div>
      {required ? (
        <p data-testid="calc-required">
          Нормативный коэффициент устойчивости Ку = <strong data-testid="calc-stability">{formatNumber(required.stability_coef)}</strong>, точность ε ={' '}
          {formatNumber(required.accuracy_percent)} %, нужно замеров на операцию:{' '}
          <strong data-testid="calc-measurements-req">{required.measurements_req}</strong>
        </p>
      ) : (
        <p className="muted small">Выберите тип производства, чтобы узнать число необходимых замеров; без выбора расчёт ведётся для серийного.</p>
      )}
    </fieldset>
  );
}

/** «Данные компании»: the workforce, shifts, salary and cameras the outputs are figured for. */
function CompanyFields({ form, set }: { form: CalculatorForm; set: Setter }) {
  const field = (key: keyof CalculatorForm, label: string, hint?: string) => <NumberField form={form} set={set} field={key} label={label} hint={hint} />;
  return (
    <fieldset>
      <legend>Данные компании</legend>
      <div className="row">
        {field('employeesNum', 'Сотрудников')}
        {field('shiftsPerDay', 'Смен в сутки')}
        {field('businessDayNum', 'Рабочих дней в месяце')}
        {field('hoursPerShift', 'Часов в смене')}
        {field('averageSalary', 'Средняя зарплата, ₽/мес.')}
      </div>
      <div className="row">
        <label className="switch">
          <input
            type="checkbox"
            role="switch"
            name="insurance_and_pension"
            checked={form.insuranceAndPension}
            onChange={(e) => set('insuranceAndPension', e.target.checked)}
          />
          Учитывать страховые и пенсионные взносы
        </label>
        <label className="switch">
          <input type="checkbox" role="switch" name="visible" checked={form.visible} onChange={(e) => set('visible', e.target.checked)} />
          Рабочие места видны существующим камерам
        </label>
        {field('unseen', 'Рабочих мест вне обзора камер', 'для них установим камеры')}
      </div>
    </fieldset>
  );
}

/** The calculator's inputs; what is missing for the outputs, and the last failure, under them. */
export function CalculatorInputs({ form, set, required, error }: Pick<Calculator, 'form' | 'set' | 'required' | 'error'>) {
  return (
    <form className="card calculator-form" onSubmit={(e) => e.preventDefault()}>
      <ProductionFields form={form} set={set} required={required} />
      <CompanyFields form={form} set={set} />
      {!outputsReady(form) && (
        <p className="muted small" data-testid="calc-incomplete">
          Заполните число сотрудников, смен, рабочих дней, часов в смене и зарплату; рабочие места должны быть видны камерам или укажите число мест вне обзора.
        </p>
      )}
      <Banner text={error} />
    </form>
  );
}
