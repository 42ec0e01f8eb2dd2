import { DEFAULT_STABILITY_TABLE, type StabilityTable } from '@norma/core-wasm';
import { describe, expect, it } from 'vitest';
import {
  calculate,
  days,
  defaultValues,
  gearTable,
  gearValues,
  licenseValues,
  measurementGraph,
  requiredMeasurementsFor,
  scope,
  type CalculatorInput,
  type Settings,
} from './formulas';

const settings = (): Settings => ({ defaults: defaultValues(), gear: gearValues(), license: licenseValues() });

/** The worked example of docs/calculator.md: every figure below is computed there by hand. */
const example: CalculatorInput = {
  production_type: 'series',
  less_10_sec: false,
  employees_num: 20,
  shifts_per_day: 2,
  business_day_num: 21,
  hours_per_shift: 8,
  average_salary: 60000,
  insurance_and_pension: true,
  visible: true,
  unseen: 4,
};

describe('required measurements (METHODOLOGY §3–4, the reports’ table)', () => {
  it('takes Ку and ε from the reference table: series, element > 10 s → Ку 2.0, ε 10 %, 15 measurements', () => {
    // CV = (2 − 1) / (3·√3) = 19.245 %; (1.96 · 19.245 / 10)² = 14.23 → 15.
    const r = requiredMeasurementsFor(DEFAULT_STABILITY_TABLE, 'series', false);
    expect(r).toMatchObject({ stability_coef: 2.0, accuracy_percent: 10, measurements_req: 15 });
    expect(r.cv_percent).toBeCloseTo(19.245, 3);
  });

  it('uses the short-element column when the operation is under 10 s', () => {
    // mass, ≤ 10 s: Ку 2.0, ε 5 % → (1.96 · 19.245 / 5)² = 56.9 → 57.
    expect(requiredMeasurementsFor(DEFAULT_STABILITY_TABLE, 'mass', true)).toMatchObject({ stability_coef: 2.0, measurements_req: 57 });
    // mass, > 10 s: Ку 1.5 → CV = 0.5 / (2.5·√3) = 11.547 %; (1.96 · 11.547 / 5)² = 20.5 → 21.
    expect(requiredMeasurementsFor(DEFAULT_STABILITY_TABLE, 'mass', false)).toMatchObject({ stability_coef: 1.5, measurements_req: 21 });
    // small series, ≤ 10 s: Ку 3.0, ε 15 % → CV = 2 / (4·√3) = 28.868 %; (1.96 · 28.868 / 15)² = 14.2 → 15.
    expect(requiredMeasurementsFor(DEFAULT_STABILITY_TABLE, 'small_series', true)).toMatchObject({ stability_coef: 3.0, measurements_req: 15 });
  });

  it('follows an organisation’s own edition of the table', () => {
    const own: StabilityTable = {
      ...DEFAULT_STABILITY_TABLE,
      rows: DEFAULT_STABILITY_TABLE.rows.map((r) => (r.productionType === 'series' ? { ...r, manualLong: 1.5, accuracyPercent: 5 } : r)),
    };
    expect(requiredMeasurementsFor(own, 'series', false)).toMatchObject({ stability_coef: 1.5, accuracy_percent: 5, measurements_req: 21 });
  });

  it('measurement graph: n(Ку) at the type’s ε, with the normative point on the curve', () => {
    const g = measurementGraph(DEFAULT_STABILITY_TABLE, 'series', false);
    expect(g.stability_coefs[0]).toBe(1.1);
    expect(g.stability_coefs.at(-1)).toBe(3.0);
    expect(g.required[g.stability_coefs.indexOf(2.0)]).toBe(15);
    expect(g.normative).toEqual({ stability_coef: 2.0, measurements_req: 15 });
    // Ку 1.1 → CV 2.75 %, (1.96 · 2.75 / 10)² = 0.29 → the minimum 5.
    expect(g.required[0]).toBe(5);
  });
});

describe('scope, days and gear of the worked example', () => {
  it('scope: 10 workplaces, all observed, 2 cameras, 160 hours of video', () => {
    expect(scope(example, defaultValues())).toEqual({
      workplaces: 10,
      observedWorkplaces: 10,
      observedEmployees: 20,
      cameras: 2,
      videoHours: 160,
      newCameraVideoHours: 32,
    });
  });

  it('without visible workplaces only the unseen ones (with new cameras) are observed', () => {
    const s = scope({ ...example, visible: false, unseen: 3 }, defaultValues());
    expect(s).toMatchObject({ observedWorkplaces: 3, observedEmployees: 6, cameras: 2, videoHours: 48 });
  });

  it('days: markup 80 h / (6 h × 2) → 7; analytics 20 h / 8 h → 3; installation 3 h → 1', () => {
    expect(days(example, defaultValues())).toEqual({
      markups_days: 7,
      analytics_days: 3,
      camera_install_days: 1,
      markupHours: 80,
      analyticsHours: 20,
      techHours: 3,
    });
    expect(days({ ...example, unseen: 0 }, defaultValues()).camera_install_days).toBe(0);
  });

  it('gear: what two cameras need, minus the stock, times the price', () => {
    const s = settings();
    const g = gearTable(example, s);
    expect(Object.fromEntries(g.rows.map((r) => [r.item, r.needed]))).toEqual({ cameras: 2, cables: 2, ext: 1, fastener: 2, hdd: 1, pc: 1, box: 1, switch: 1 });
    expect(g.total).toBe(12000 + 3000 + 800 + 600 + 9000 + 60000 + 5000 + 7000);
    s.gear.pc.owned = 1;
    s.gear.cameras.owned = 5;
    const stocked = gearTable(example, s);
    expect(stocked.rows.find((r) => r.item === 'pc')).toMatchObject({ to_buy: 0, cost: 0 });
    expect(stocked.rows.find((r) => r.item === 'cameras')).toMatchObject({ to_buy: 0, cost: 0 });
    expect(stocked.total).toBe(97400 - 60000 - 12000);
  });
});

describe('outputs of the worked example', () => {
  const result = calculate(example, settings(), DEFAULT_STABILITY_TABLE);

  it('public output', () => {
    expect(result.public).toMatchObject({
      measurements_num: 15,
      overall_measurements: 750,
      cameras: 2,
      final_terms: 12,
      final_cost: 285433,
      save_per_month: 234000,
      save_per_year: 2808000,
      payback_months: 1.79,
    });
  });

  it('private output: every part, and final_cost is their sum', () => {
    const p = result.private;
    expect(p).toMatchObject({
      manual_measurements_hours: 240,
      markup_price: 40000,
      analytics_price: 40000,
      tech_price: 3600,
      support_price: 18000,
      license_price: 20800,
      gear_price: 97400,
      box_work_price: 2400,
      transport_price: 6000,
      direct_price: 228200,
      accountant_price: 6846,
      overhead: 22820,
      marketing_price: 11410,
      taxes: 16157,
      final_cost: 285433,
      future_price: 20000,
    });
    const parts = p.markup_price + p.analytics_price + p.tech_price + p.support_price + p.license_price + p.gear_price + p.box_work_price + p.transport_price;
    expect(parts).toBe(p.direct_price);
    expect(p.direct_price + p.accountant_price + p.overhead + p.marketing_price + p.taxes).toBe(result.public.final_cost);
    expect(p.table_cars).toEqual([
      { name: 'Установка камер', trips: 1, hours: 2, price: 1500, cost: 3000 },
      { name: 'Снятие камер', trips: 1, hours: 2, price: 1500, cost: 3000 },
    ]);
    expect(p.table_economy[0]).toEqual({ name: 'Фонд оплаты труда в месяц', value: 1560000, unit: '₽' });
    // 1 560 000 / (20 × 21 × 8) = 464.29 ₽ an hour.
    expect(p.table_economy[1]!.value).toBe(464.29);
  });

  it('days sum to final_terms', () => {
    const d = result.days;
    expect(d.camera_install_days + d.observation_days + d.markups_days + d.analytics_days).toBe(d.final_terms);
  });

  it('savings graph: −cost until the analysis is done, then + save_per_month a month', () => {
    const { months, net } = result.public.savings_graph;
    expect(months).toHaveLength(13);
    expect(net[0]).toBe(-285433);
    // start = 12 / 21 months; month 1: 234 000 × (1 − 0.5714) − 285 433 = −185 147.
    expect(net[1]).toBe(-185147);
    expect(net[12]! - net[11]!).toBe(234000);
  });

  it('without insurance the saving is on salaries alone; a default change moves the outputs', () => {
    expect(calculate({ ...example, insurance_and_pension: false }, settings(), DEFAULT_STABILITY_TABLE).public.save_per_month).toBe(180000);
    const s = settings();
    s.defaults.hour_markup_price = 1000;
    // markup 80 h × 500 ₽ more = +40 000 direct; ×1.18 × 1.06 → final 285 433 + 50 032.
    expect(calculate(example, s, DEFAULT_STABILITY_TABLE).public.final_cost).toBe(335465);
  });
});
