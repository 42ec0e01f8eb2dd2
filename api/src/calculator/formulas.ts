import { accuracyFor, normativeStability, requiredMeasurementsForStability, type ProductionType, type StabilityTable } from '@norma/core-wasm';

/**
 * The productivity calculator's arithmetic (docs/calculator.md names every formula and default).
 * Pure functions: the service reads the stored settings and the organisation's reference table,
 * these turn them and the visitor's inputs into figures. Money is in roubles, rounded to whole
 * roubles part by part, so that final_cost is exactly the sum of its parts.
 */

export interface SettingSpec {
  label: string;
  unit: string;
  value: number;
  min: number;
  max: number;
  integer?: boolean;
  /** The lower bound itself is not allowed (a divisor). */
  minExclusive?: boolean;
}

/** Calculator defaults: the ten of spec 02 §3 first, then the ones these formulas add. */
export const DEFAULTS = {
  manual_labor_coef: { label: 'Часов нормировщика на час ручного хронометража на месте', unit: 'ч/ч', value: 1.5, min: 0, max: 100 },
  hour_analytics_price: { label: 'Стоимость часа аналитика', unit: '₽/ч', value: 2000, min: 0, max: 1_000_000 },
  hour_markup_price: { label: 'Стоимость часа разметчика', unit: '₽/ч', value: 500, min: 0, max: 1_000_000 },
  hour_support_price: { label: 'Стоимость часа сопровождения проекта', unit: '₽/ч', value: 1500, min: 0, max: 1_000_000 },
  hour_tech_price: { label: 'Стоимость часа техника', unit: '₽/ч', value: 1200, min: 0, max: 1_000_000 },
  specialist_num: { label: 'Разметчиков (и техников) на проекте', unit: 'чел.', value: 2, min: 1, max: 1000, integer: true },
  rewind_speed: { label: 'Скорость просмотра видео при разметке', unit: '×', value: 2, min: 0, max: 16, minExclusive: true },
  markup_work_hours: { label: 'Часов разметки в рабочий день разметчика', unit: 'ч', value: 6, min: 0, max: 24, minExclusive: true },
  opt_resource: { label: 'Резерв оптимизации фонда оплаты труда', unit: '%', value: 15, min: 0, max: 100 },
  insurance: { label: 'Страховые и пенсионные взносы', unit: '%', value: 30, min: 0, max: 100 },
  observation_days: { label: 'Дней видеонаблюдения каждого рабочего места', unit: 'дн.', value: 1, min: 1, max: 365, integer: true },
  operations_per_workplace: { label: 'Основных операций на рабочем месте', unit: 'шт.', value: 5, min: 1, max: 1000, integer: true },
  workplaces_per_camera: { label: 'Рабочих мест в обзоре одной камеры', unit: 'шт.', value: 2, min: 1, max: 100, integer: true },
  analytics_hours_per_workplace: { label: 'Часов аналитика на рабочее место', unit: 'ч', value: 2, min: 0, max: 1000 },
  camera_install_hours: { label: 'Часов техника на установку одной камеры', unit: 'ч', value: 1.5, min: 0, max: 100 },
  support_hours_per_day: { label: 'Часов сопровождения в день проекта', unit: 'ч', value: 1, min: 0, max: 24 },
  work_day_hours: { label: 'Рабочий день аналитика и техника', unit: 'ч', value: 8, min: 0, max: 24, minExclusive: true },
  box_assembly_hours: { label: 'Часов техника на сборку одного бокса', unit: 'ч', value: 2, min: 0, max: 100 },
  cameras_per_switch: { label: 'Камер на один коммутатор (и удлинитель)', unit: 'шт.', value: 8, min: 1, max: 1000, integer: true },
  cameras_per_pc: { label: 'Камер на один компьютер записи', unit: 'шт.', value: 16, min: 1, max: 1000, integer: true },
  hdd_capacity_tb: { label: 'Ёмкость одного диска', unit: 'ТБ', value: 4, min: 0, max: 1000, minExclusive: true },
  video_gb_per_hour: { label: 'Объём часа видео одной камеры', unit: 'ГБ', value: 1, min: 0, max: 1000 },
  accountant_percent: { label: 'Бухгалтерия', unit: '% прямых затрат', value: 3, min: 0, max: 100 },
  overhead_percent: { label: 'Накладные расходы', unit: '% прямых затрат', value: 10, min: 0, max: 100 },
  marketing_percent: { label: 'Маркетинг', unit: '% прямых затрат', value: 5, min: 0, max: 100 },
  tax_percent: { label: 'Налоги', unit: '% цены до налогов', value: 6, min: 0, max: 100 },
} as const satisfies Record<string, SettingSpec>;

export type DefaultName = keyof typeof DEFAULTS;
export type Defaults = Record<DefaultName, number>;

/** License and car settings of spec 02 §3. */
export const LICENSE = {
  car_work_time: { label: 'Часов работы машины на один выезд', unit: 'ч', value: 2, min: 0, max: 24 },
  car_price: { label: 'Стоимость часа машины', unit: '₽/ч', value: 1500, min: 0, max: 1_000_000 },
  conv: { label: 'Лицензия: конвертация видео', unit: '₽ за час видео', value: 30, min: 0, max: 1_000_000 },
  markup: { label: 'Лицензия: разметка видео', unit: '₽ за час видео', value: 100, min: 0, max: 1_000_000 },
  service: { label: 'Сопровождение после проекта (абонентская плата)', unit: '₽/мес.', value: 20000, min: 0, max: 100_000_000 },
} as const satisfies Record<string, SettingSpec>;

export type LicenseName = keyof typeof LICENSE;
export type License = Record<LicenseName, number>;

/** Gear of spec 02 §3: stock owned by the provider (`owned_<item>`) and unit price (`<item>_price`). */
export const GEAR = {
  cameras: { label: 'Камеры', price: 6000 },
  cables: { label: 'Кабели', price: 1500 },
  ext: { label: 'Удлинители питания', price: 800 },
  fastener: { label: 'Крепёж камер', price: 300 },
  hdd: { label: 'Жёсткие диски', price: 9000 },
  pc: { label: 'Компьютеры записи', price: 60000 },
  box: { label: 'Защитные боксы', price: 5000 },
  switch: { label: 'Коммутаторы', price: 7000 },
} as const;

export type GearItem = keyof typeof GEAR;
export const GEAR_ITEMS = Object.keys(GEAR) as GearItem[];
export type Gear = Record<GearItem, { owned: number; price: number }>;

export const GEAR_OWNED_SPEC: SettingSpec = { label: 'На складе', unit: 'шт.', value: 0, min: 0, max: 100_000, integer: true };
export const GEAR_PRICE_SPEC: SettingSpec = { label: 'Цена за штуку', unit: '₽', value: 0, min: 0, max: 100_000_000 };

export const defaultValues = (): Defaults => Object.fromEntries(Object.entries(DEFAULTS).map(([k, s]) => [k, s.value])) as Defaults;
export const licenseValues = (): License => Object.fromEntries(Object.entries(LICENSE).map(([k, s]) => [k, s.value])) as License;
export const gearValues = (): Gear => Object.fromEntries(GEAR_ITEMS.map((item) => [item, { owned: 0, price: GEAR[item].price }])) as Gear;

export interface Settings {
  defaults: Defaults;
  gear: Gear;
  license: License;
}

export interface CalculatorInput {
  production_type: ProductionType;
  less_10_sec: boolean;
  employees_num: number;
  shifts_per_day: number;
  business_day_num: number;
  hours_per_shift: number;
  average_salary: number;
  insurance_and_pension: boolean;
  visible: boolean;
  unseen: number;
}

/**
 * Normative Ку and required measurements for a production type (METHODOLOGY §3–4) from the same
 * reference table the organisation's reports use; the elements are manual work.
 */
export function requiredMeasurementsFor(table: StabilityTable, productionType: ProductionType, less10Sec: boolean) {
  // 0 s is a short element and Infinity a long one, whatever the table's threshold is.
  const stabilityCoef = normativeStability(productionType, less10Sec ? 0 : Number.POSITIVE_INFINITY, false, table);
  const accuracyPercent = accuracyFor(productionType, table);
  const { cvPercent, requiredMeasurements: measurementsReq } = requiredMeasurementsForStability(stabilityCoef, accuracyPercent);
  return {
    stability_coef: stabilityCoef,
    measurements_req: measurementsReq,
    accuracy_percent: accuracyPercent,
    cv_percent: cvPercent,
    short_element_max_seconds: table.shortElementMaxSeconds,
  };
}

const ceilDiv = (a: number, b: number) => (a <= 0 ? 0 : Math.ceil(a / b - 1e-9));
const rub = (x: number) => Math.round(x);

/** Observation scope: workplaces, who is observed, cameras, hours of video. */
export function scope(input: CalculatorInput, d: Defaults) {
  const workplaces = Math.ceil(input.employees_num / input.shifts_per_day);
  const observedWorkplaces = input.visible ? workplaces : Math.min(input.unseen, workplaces);
  const observedEmployees = Math.min(input.employees_num, observedWorkplaces * input.shifts_per_day);
  const cameras = ceilDiv(input.unseen, d.workplaces_per_camera);
  const videoHours = observedWorkplaces * input.shifts_per_day * input.hours_per_shift * d.observation_days;
  const newCameraVideoHours = cameras * input.shifts_per_day * input.hours_per_shift * d.observation_days;
  return { workplaces, observedWorkplaces, observedEmployees, cameras, videoHours, newCameraVideoHours };
}

/** Gear needed for the cameras to install, what is to be bought beyond the stock, and its cost. */
export function gearTable(input: CalculatorInput, s: Settings) {
  const { cameras, newCameraVideoHours } = scope(input, s.defaults);
  const d = s.defaults;
  const switches = ceilDiv(cameras, d.cameras_per_switch);
  const pcs = ceilDiv(cameras, d.cameras_per_pc);
  const needed: Record<GearItem, number> = {
    cameras,
    cables: cameras,
    ext: switches,
    fastener: cameras,
    hdd: cameras > 0 ? Math.max(1, ceilDiv((newCameraVideoHours * d.video_gb_per_hour) / 1000, d.hdd_capacity_tb)) : 0,
    pc: pcs,
    box: pcs,
    switch: switches,
  };
  const rows = GEAR_ITEMS.map((item) => {
    const toBuy = Math.max(0, needed[item] - s.gear[item].owned);
    return {
      item,
      label: GEAR[item].label,
      needed: needed[item],
      owned: s.gear[item].owned,
      to_buy: toBuy,
      price: s.gear[item].price,
      cost: rub(toBuy * s.gear[item].price),
    };
  });
  return { rows, total: rows.reduce((sum, r) => sum + r.cost, 0) };
}

/** Working days of each stage: camera installation, markup, analytics. */
export function days(input: CalculatorInput, d: Defaults) {
  const sc = scope(input, d);
  const markupHours = sc.videoHours / d.rewind_speed;
  const analyticsHours = sc.observedWorkplaces * d.analytics_hours_per_workplace;
  const techHours = sc.cameras * d.camera_install_hours;
  return {
    markups_days: ceilDiv(markupHours, d.markup_work_hours * d.specialist_num),
    analytics_days: ceilDiv(analyticsHours, d.work_day_hours),
    camera_install_days: sc.cameras > 0 ? Math.max(1, ceilDiv(techHours, d.work_day_hours * d.specialist_num)) : 0,
    markupHours,
    analyticsHours,
    techHours,
  };
}

/** Everything the calculator shows; the routes pick the public or the private part. */
export function calculate(input: CalculatorInput, s: Settings, table: StabilityTable) {
  const d = s.defaults;
  const l = s.license;
  const sc = scope(input, d);
  const req = requiredMeasurementsFor(table, input.production_type, input.less_10_sec);
  const dd = days(input, d);
  const finalTerms = dd.camera_install_days + d.observation_days + dd.markups_days + dd.analytics_days;

  const markupCost = rub(dd.markupHours * d.hour_markup_price);
  const analyticsCost = rub(dd.analyticsHours * d.hour_analytics_price);
  const techCost = rub(dd.techHours * d.hour_tech_price);
  const supportCost = rub(finalTerms * d.support_hours_per_day * d.hour_support_price);
  const licenseCost = rub(sc.videoHours * (l.conv + l.markup));
  const gear = gearTable(input, s);
  const boxes = gear.rows.find((r) => r.item === 'box')!.needed;
  const boxWorkPrice = rub(boxes * d.box_assembly_hours * d.hour_tech_price);
  // Installation trips (one per installation day) and one trip to take the cameras down.
  const tableCars = [
    { name: 'Установка камер', trips: dd.camera_install_days },
    { name: 'Снятие камер', trips: sc.cameras > 0 ? 1 : 0 },
  ].map((row) => ({ ...row, hours: row.trips * l.car_work_time, price: l.car_price, cost: rub(row.trips * l.car_work_time * l.car_price) }));
  const transportPrice = tableCars.reduce((sum, r) => sum + r.cost, 0);

  const direct = markupCost + analyticsCost + techCost + supportCost + licenseCost + gear.total + boxWorkPrice + transportPrice;
  const accountantPrice = rub((direct * d.accountant_percent) / 100);
  const overhead = rub((direct * d.overhead_percent) / 100);
  const marketingPrice = rub((direct * d.marketing_percent) / 100);
  const taxes = rub(((direct + accountantPrice + overhead + marketingPrice) * d.tax_percent) / 100);
  const finalCost = direct + accountantPrice + overhead + marketingPrice + taxes;

  const payrollPerMonth = input.employees_num * input.average_salary * (input.insurance_and_pension ? 1 + d.insurance / 100 : 1);
  const savePerMonth = rub((payrollPerMonth * (d.opt_resource / 100) * sc.observedEmployees) / input.employees_num);
  const savePerYear = savePerMonth * 12;
  // Savings start once the analysis is done: final_terms working days = final_terms / business_day_num months.
  const startMonth = finalTerms / input.business_day_num;
  const paybackMonths = savePerMonth > 0 ? startMonth + finalCost / savePerMonth : null;
  const months = Array.from({ length: 13 }, (_, m) => m);
  const savingsGraph = { months, net: months.map((m) => rub(savePerMonth * Math.max(0, m - startMonth) - finalCost)) };
  const labourHourCost = payrollPerMonth / (input.employees_num * input.business_day_num * input.hours_per_shift);

  const overallMeasurements = req.measurements_req * d.operations_per_workplace * sc.observedWorkplaces;
  return {
    public: {
      measurements_num: req.measurements_req,
      overall_measurements: overallMeasurements,
      final_cost: finalCost,
      save_per_month: savePerMonth,
      save_per_year: savePerYear,
      final_terms: finalTerms,
      cameras: sc.cameras,
      stability_coef: req.stability_coef,
      accuracy_percent: req.accuracy_percent,
      workplaces: sc.workplaces,
      observed_workplaces: sc.observedWorkplaces,
      observed_employees: sc.observedEmployees,
      video_hours: sc.videoHours,
      payback_months: paybackMonths === null ? null : Math.round(paybackMonths * 100) / 100,
      savings_graph: savingsGraph,
    },
    private: {
      manual_measurements_hours: sc.videoHours * d.manual_labor_coef,
      markup_hours: dd.markupHours,
      analytics_hours: dd.analyticsHours,
      tech_hours: dd.techHours,
      markup_price: markupCost,
      analytics_price: analyticsCost,
      tech_price: techCost,
      support_price: supportCost,
      license_price: licenseCost,
      gear_price: gear.total,
      box_work_price: boxWorkPrice,
      transport_price: transportPrice,
      direct_price: direct,
      accountant_price: accountantPrice,
      overhead,
      marketing_price: marketingPrice,
      taxes,
      final_cost: finalCost,
      future_price: l.service,
      table_cars: tableCars,
      table_economy: [
        { name: 'Фонд оплаты труда в месяц', value: rub(payrollPerMonth), unit: '₽' },
        { name: 'Стоимость часа труда', value: Math.round(labourHourCost * 100) / 100, unit: '₽/ч' },
        { name: 'Экономия в месяц', value: savePerMonth, unit: '₽' },
        { name: 'Экономия в год', value: savePerYear, unit: '₽' },
        { name: 'Стоимость анализа', value: finalCost, unit: '₽' },
        { name: 'Окупаемость', value: paybackMonths === null ? null : Math.round(paybackMonths * 100) / 100, unit: 'мес.' },
      ],
    },
    gear,
    days: {
      markups_days: dd.markups_days,
      analytics_days: dd.analytics_days,
      camera_install_days: dd.camera_install_days,
      observation_days: d.observation_days,
      final_terms: finalTerms,
    },
  };
}

/**
 * Measurement graph: required measurements n(Ку) at the production type's accuracy ε, for Ку from
 * 1.1 to 3.0, and the point of the normative Ку.
 */
export function measurementGraph(table: StabilityTable, productionType: ProductionType, less10Sec: boolean) {
  const req = requiredMeasurementsFor(table, productionType, less10Sec);
  const coefs = Array.from({ length: 20 }, (_, i) => Math.round((1.1 + i * 0.1) * 10) / 10);
  const required = coefs.map((k) => requiredMeasurementsForStability(k, req.accuracy_percent).requiredMeasurements);
  return {
    stability_coefs: coefs,
    required,
    accuracy_percent: req.accuracy_percent,
    normative: { stability_coef: req.stability_coef, measurements_req: req.measurements_req },
  };
}
