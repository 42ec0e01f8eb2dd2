import { useEffect, useState } from 'react';
import { useSnapshot } from 'valtio';
import { api, type ApiInit } from '../../api/client';
import type {
  CalculatorDays as Days,
  CalculatorGearTable as GearTable,
  CalculatorMeasurementGraph as MeasurementGraph,
  CalculatorPrivateOutput as PrivateOutput,
  CalculatorPublicOutput as PublicOutput,
  CalculatorSettings as SettingsReply,
  RequiredMeasurements,
} from '../../api/types';
import { login } from '../../state/login';
import { Banner } from '../../ui/Banner';
import { LineChart } from './LineChart';
import {
  PRODUCTION_TYPES,
  calculatorQuery,
  formatNumber,
  formatRub,
  initialForm,
  measurementsReady,
  outputsReady,
  type CalculatorForm,
  type ProductionType,
} from './model';
import { SettingsPanels } from './SettingsPanels';
import './calculator.css';

interface Outputs {
  pub: PublicOutput;
  days: Days;
  graph: MeasurementGraph;
  priv: PrivateOutput | null;
  gear: GearTable | null;
}

/** Waiting after the last keystroke before asking the server, so typing "120" is one request, not three. */
const TYPING_PAUSE_MS = 400;

const failureText = (what: string, error: unknown) => `${what}: ${(error as Error).message}`;

/**
 * spec 02 "Productivity calculator": production type and the under-10-seconds switch (required
 * measurements), company inputs, outputs with the savings and measurement graphs, and the
 * administrator panels. All figures come from the server (api/src/calculator, docs/calculator.md);
 * every failed call is shown by the API client and, here, under the form.
 */
export function CalculatorScreen() {
  const { loggedIn, checked } = useSnapshot(login);
  const [form, setForm] = useState<CalculatorForm>(initialForm);
  const [required, setRequired] = useState<RequiredMeasurements | null>(null);
  const [outputs, setOutputs] = useState<Outputs | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [access, setAccess] = useState<{ canEdit: boolean; canViewPrivate: boolean }>({ canEdit: false, canViewPrivate: false });
  const [settings, setSettings] = useState<SettingsReply | null>(null);
  /** Bumped when an administrator saves: the outputs are asked for again with the new settings. */
  const [settingsVersion, setSettingsVersion] = useState(0);

  const set = <K extends keyof CalculatorForm>(key: K, value: CalculatorForm[K]) => setForm((f) => ({ ...f, [key]: value }));

  // spec 02 §6: the panels appear only when the gear defaults say can_edit (the server decides).
  useEffect(() => {
    if (!checked) return;
    let alive = true;
    (async () => {
      try {
        const gear = await api.get('/api/v2/get_calculator_gear_defaults');
        if (!alive) return;
        setAccess({ canEdit: gear.can_edit, canViewPrivate: gear.can_view_private });
        if (!gear.can_edit) return setSettings(null);
        const [defaults, license] = await Promise.all([api.get('/api/v2/get_calculator_defaults'), api.get('/api/v2/get_calculator_license')]);
        if (alive) setSettings({ ...gear, defaults: defaults.defaults, license: license.license });
      } catch (e) {
        if (alive) setError(failureText('Не удалось загрузить настройки калькулятора', e));
      }
    })();
    return () => {
      alive = false;
    };
  }, [checked, loggedIn]);

  // §5: required measurements only when a production type is chosen.
  const { productionType, less10Sec } = form;
  useEffect(() => {
    if (!measurementsReady({ ...initialForm, productionType })) return setRequired(null);
    let alive = true;
    api
      .get('/api/v2/required_measurements', { query: { production_type: productionType!, less_10_sec: less10Sec } })
      .then((r) => alive && setRequired(r))
      .catch((e) => alive && setError(failureText('Не удалось получить число замеров', e)));
    return () => {
      alive = false;
    };
  }, [productionType, less10Sec]);

  // §5: outputs only when the company inputs are complete.
  useEffect(() => {
    if (!outputsReady(form)) {
      setOutputs(null);
      return;
    }
    let alive = true;
    const timer = setTimeout(async () => {
      // The form's fields as typed (text); the API reads the numbers out of them and refuses a wrong one (400, shown).
      const query = calculatorQuery(form) as Record<string, unknown> as ApiInit<'/api/v2/get_calculator_days', 'get'>['query'];
      setBusy(true);
      try {
        const [pub, days, graph, priv, gear] = await Promise.all([
          api.get('/api/v2/get_calculator_public_output', { query }),
          api.get('/api/v2/get_calculator_days', { query }),
          api.get('/api/v2/get_calculator_measurement_graph', { query }),
          access.canViewPrivate ? api.get('/api/v2/get_calculator_private_output', { query }) : Promise.resolve(null),
          access.canViewPrivate ? api.get('/api/v2/get_calculator_gear_table', { query }) : Promise.resolve(null),
        ]);
        if (alive) {
          setOutputs({ pub, days, graph, priv, gear });
          setError(null);
        }
      } catch (e) {
        if (alive) {
          setOutputs(null);
          setError(failureText('Расчёт не выполнен', e));
        }
      } finally {
        if (alive) setBusy(false);
      }
    }, TYPING_PAUSE_MS);
    return () => {
      alive = false;
      clearTimeout(timer);
    };
  }, [form, access.canViewPrivate, settingsVersion]);

  const numberField = (key: keyof CalculatorForm, label: string, hint?: string) => (
    <label>
      {label}
      <input name={key} inputMode="decimal" size={10} value={form[key] as string} onChange={(e) => set(key, e.target.value as never)} />
      {hint && <span className="muted small">{hint}</span>}
    </label>
  );

  return (
    <section className="screen calculator">
      <h1>Калькулятор производительности</h1>
      <p className="muted">
        Сколько стоит анализ работы по видео и сколько он может сэкономить. Число замеров считается по той же методике и тем же справочникам, что и отчёты (
        <a href="#/methodology">методика</a>).
      </p>

      <form className="card calculator-form" onSubmit={(e) => e.preventDefault()}>
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

        <fieldset>
          <legend>Данные компании</legend>
          <div className="row">
            {numberField('employeesNum', 'Сотрудников')}
            {numberField('shiftsPerDay', 'Смен в сутки')}
            {numberField('businessDayNum', 'Рабочих дней в месяце')}
            {numberField('hoursPerShift', 'Часов в смене')}
            {numberField('averageSalary', 'Средняя зарплата, ₽/мес.')}
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
            {numberField('unseen', 'Рабочих мест вне обзора камер', 'для них установим камеры')}
          </div>
        </fieldset>
        {!outputsReady(form) && (
          <p className="muted small" data-testid="calc-incomplete">
            Заполните число сотрудников, смен, рабочих дней, часов в смене и зарплату; рабочие места должны быть видны камерам или укажите число мест вне
            обзора.
          </p>
        )}
        <Banner text={error} />
      </form>

      {outputs && (
        <section className="calculator-outputs" aria-busy={busy} data-testid="calc-outputs">
          <h2>Результат</h2>
          <div className="calculator-figures">
            <Figure label="Замеров на операцию" value={String(outputs.pub.measurements_num)} testId="calc-measurements-num" />
            <Figure label="Замеров всего" value={formatNumber(outputs.pub.overall_measurements)} testId="calc-overall" />
            <Figure label="Стоимость анализа" value={formatRub(outputs.pub.final_cost)} testId="calc-final-cost" />
            <Figure label="Экономия в месяц" value={formatRub(outputs.pub.save_per_month)} testId="calc-save-month" />
            <Figure label="Экономия в год" value={formatRub(outputs.pub.save_per_year)} testId="calc-save-year" />
            <Figure label="Срок, рабочих дней" value={String(outputs.pub.final_terms)} testId="calc-terms" />
            <Figure label="Камер установить" value={String(outputs.pub.cameras)} testId="calc-cameras" />
            <Figure
              label="Окупаемость, мес."
              value={outputs.pub.payback_months === null ? '—' : formatNumber(outputs.pub.payback_months)}
              testId="calc-payback"
            />
          </div>
          <p className="muted small">
            Рабочих мест {outputs.pub.workplaces}, наблюдаем {outputs.pub.observed_workplaces}; видео {formatNumber(outputs.pub.video_hours)} ч. Этапы:
            установка камер {outputs.days.camera_install_days} дн., наблюдение {outputs.days.observation_days} дн., разметка {outputs.days.markups_days} дн.,
            аналитика {outputs.days.analytics_days} дн.
          </p>
          <div className="calculator-charts">
            <LineChart
              title="Экономия нарастающим итогом за вычетом стоимости анализа"
              xLabel="Месяц"
              yLabel="₽"
              series="Чистая экономия"
              x={outputs.pub.savings_graph.months}
              y={outputs.pub.savings_graph.net}
              formatY={formatRub}
              testId="calc-savings-graph"
            />
            <LineChart
              title={`Сколько замеров нужно при разном Ку (ε = ${formatNumber(outputs.graph.accuracy_percent)} %; норматив Ку ${formatNumber(outputs.graph.normative.stability_coef)} → ${outputs.graph.normative.measurements_req})`}
              xLabel="Ку"
              yLabel="Замеров"
              series="Замеров на операцию"
              color="#c0392b"
              x={outputs.graph.stability_coefs}
              y={outputs.graph.required}
              testId="calc-measurement-graph"
            />
          </div>
          {outputs.priv && <PrivateTables priv={outputs.priv} gear={outputs.gear} />}
        </section>
      )}

      {access.canEdit && settings && (
        <SettingsPanels
          settings={settings}
          onSaved={(reply) => {
            setSettings(reply);
            setSettingsVersion((v) => v + 1);
          }}
        />
      )}
    </section>
  );
}

function Figure({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="card calculator-figure">
      <div className="muted small">{label}</div>
      <div className="calculator-value" data-testid={testId}>
        {value}
      </div>
    </div>
  );
}

/** Members of the owner organisation: the cost structure, cars, economy and gear. */
function PrivateTables({ priv, gear }: { priv: PrivateOutput; gear: GearTable | null }) {
  const costs: [string, number][] = [
    ['Разметка', priv.markup_price],
    ['Аналитика', priv.analytics_price],
    ['Установка камер', priv.tech_price],
    ['Сопровождение проекта', priv.support_price],
    ['Лицензии (конвертация и разметка)', priv.license_price],
    ['Оборудование', priv.gear_price],
    ['Сборка боксов', priv.box_work_price],
    ['Транспорт', priv.transport_price],
    ['Прямые затраты', priv.direct_price],
    ['Бухгалтерия', priv.accountant_price],
    ['Накладные расходы', priv.overhead],
    ['Маркетинг', priv.marketing_price],
    ['Налоги', priv.taxes],
  ];
  return (
    <section data-testid="calc-private">
      <h2>Служебный расчёт</h2>
      <p className="muted small">
        Часы: разметка {formatNumber(priv.markup_hours)}, аналитика {formatNumber(priv.analytics_hours)}, техник {formatNumber(priv.tech_hours)}; ручной
        хронометраж на месте занял бы {formatNumber(priv.manual_measurements_hours)} ч. Сопровождение после проекта: {formatRub(priv.future_price)} в месяц.
      </p>
      <div className="table-scroll">
        <table className="data-table compact">
          <thead>
            <tr>
              <th>Статья</th>
              <th>₽</th>
            </tr>
          </thead>
          <tbody>
            {costs.map(([name, value]) => (
              <tr key={name}>
                <td>{name}</td>
                <td className="number">{formatRub(value)}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th>Итого</th>
              <th className="number" data-testid="calc-private-total">
                {formatRub(priv.final_cost)}
              </th>
            </tr>
          </tfoot>
        </table>
      </div>
      {gear && (
        <div className="table-scroll">
          <table className="data-table compact" data-testid="calc-gear-table">
            <thead>
              <tr>
                <th>Оборудование</th>
                <th>Нужно</th>
                <th>На складе</th>
                <th>Купить</th>
                <th>Цена</th>
                <th>Стоимость</th>
              </tr>
            </thead>
            <tbody>
              {gear.rows.map((r) => (
                <tr key={r.item}>
                  <td>{r.label}</td>
                  <td className="number">{r.needed}</td>
                  <td className="number">{r.owned}</td>
                  <td className="number">{r.to_buy}</td>
                  <td className="number">{formatRub(r.price)}</td>
                  <td className="number">{formatRub(r.cost)}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th colSpan={5}>Итого</th>
                <th className="number">{formatRub(gear.total)}</th>
              </tr>
            </tfoot>
          </table>
        </div>
      )}
      <div className="table-scroll">
        <table className="data-table compact">
          <thead>
            <tr>
              <th>Машины</th>
              <th>Выездов</th>
              <th>Часов</th>
              <th>₽/ч</th>
              <th>Стоимость</th>
            </tr>
          </thead>
          <tbody>
            {priv.table_cars.map((r) => (
              <tr key={r.name}>
                <td>{r.name}</td>
                <td className="number">{r.trips}</td>
                <td className="number">{formatNumber(r.hours)}</td>
                <td className="number">{formatRub(r.price)}</td>
                <td className="number">{formatRub(r.cost)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="table-scroll">
        <table className="data-table compact">
          <thead>
            <tr>
              <th>Экономика</th>
              <th>Значение</th>
            </tr>
          </thead>
          <tbody>
            {priv.table_economy.map((r) => (
              <tr key={r.name}>
                <td>{r.name}</td>
                <td className="number">{r.value === null ? '—' : `${formatNumber(r.value)} ${r.unit}`}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
