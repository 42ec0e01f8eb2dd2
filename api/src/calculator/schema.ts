import { z } from '@hono/zod-openapi';
import { PRODUCTION_TYPES } from '@norma/core-wasm/report';

/** "true"/"1" → true, "false"/"0" → false, absent → the default; anything else is a 400. */
const flag = (fallback: boolean, description: string) =>
  z
    .enum(['true', 'false', '1', '0'], { message: 'ожидается true или false' })
    .optional()
    .transform((v) => (v === undefined ? fallback : v === 'true' || v === '1'))
    .openapi({ type: 'boolean', description: `${description} (по умолчанию ${fallback ? 'да' : 'нет'})` });

/** A whole or decimal number in a query string within [min, max]. */
const DECIMAL = /^\d{1,15}([.,]\d{1,15})?$/;

const number = (min: number, max: number, description: string, options: { integer?: boolean; optional?: number } = {}) =>
  z
    .string()
    .max(40, { error: 'ожидается число' })
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined || raw.trim() === '') {
        if (options.optional !== undefined) return options.optional;
        ctx.addIssue({ code: 'custom', message: 'обязательное поле' });
        return z.NEVER;
      }
      // Decimal digits only, with a point or a comma: Number() would also read "0x1", "1e3" and "Infinity".
      const text = raw.trim();
      const value = DECIMAL.test(text) ? Number(text.replace(',', '.')) : NaN;
      if (!Number.isFinite(value) || (options.integer && !Number.isInteger(value))) {
        ctx.addIssue({ code: 'custom', message: options.integer ? `ожидается целое число от ${min} до ${max}` : `ожидается число от ${min} до ${max}` });
        return z.NEVER;
      }
      if (value < min || value > max) {
        ctx.addIssue({ code: 'custom', message: `ожидается число от ${min} до ${max}` });
        return z.NEVER;
      }
      return value;
    })
    .openapi({ type: options.integer ? 'integer' : 'number', minimum: min, maximum: max, description });

export const ProductionTypeParam = z
  .enum(PRODUCTION_TYPES, { message: `ожидается один из типов производства: ${PRODUCTION_TYPES.join(', ')}` })
  .openapi({ description: 'Тип производства: mass — массовое, large_series — крупносерийное, series — серийное, small_series — мелкосерийное' });

export const RequiredMeasurementsQuery = z.object({
  production_type: ProductionTypeParam,
  less_10_sec: flag(false, 'Средняя операция короче 10 секунд'),
});

export const RequiredMeasurementsReply = z
  .object({
    stability_coef: z.number().openapi({ description: 'Нормативный коэффициент устойчивости Ку (справочник организации)' }),
    measurements_req: z.number().int().openapi({ description: 'Нужно замеров на операцию: ⌈(1,96·CV/ε)²⌉, не меньше 5' }),
    accuracy_percent: z.number().openapi({ description: 'Точность ε, %' }),
    cv_percent: z.number().openapi({ description: 'CV = (Ку − 1) / ((Ку + 1)·√3), %' }),
    short_element_max_seconds: z.number().openapi({ description: 'Граница «короткого» элемента, с' }),
  })
  .openapi('RequiredMeasurements');

/**
 * The calculator's inputs (spec 02 §3). §5: employees, shifts, days, hours and salary are required,
 * and either the workplaces are visible to cameras or some are not (unseen > 0).
 */
export const CalculatorQuery = z
  .object({
    production_type: ProductionTypeParam.optional()
      .transform((v) => v ?? 'series')
      .openapi({ description: 'Тип производства; не выбран — серийное' }),
    less_10_sec: flag(false, 'Средняя операция короче 10 секунд'),
    employees_num: number(1, 100_000, 'Сотрудников', { integer: true }),
    shifts_per_day: number(1, 4, 'Смен в сутки', { integer: true }),
    business_day_num: number(1, 31, 'Рабочих дней в месяце', { integer: true }),
    hours_per_shift: number(0.5, 24, 'Часов в смене'),
    average_salary: number(1, 100_000_000, 'Средняя зарплата в месяц, ₽'),
    insurance_and_pension: flag(true, 'Учитывать страховые и пенсионные взносы'),
    visible: flag(true, 'Рабочие места видны существующим камерам'),
    unseen: number(0, 100_000, 'Рабочих мест вне обзора камер (нужна установка)', { integer: true, optional: 0 }),
  })
  .refine((q) => q.shifts_per_day * q.hours_per_shift <= 24, { message: 'смены не помещаются в сутки', path: ['hours_per_shift'] })
  .refine((q) => q.visible || q.unseen > 0, { message: 'укажите, что рабочие места видны камерам, или число рабочих мест вне обзора', path: ['unseen'] })
  .refine((q) => q.unseen <= Math.ceil(q.employees_num / q.shifts_per_day), {
    message: 'рабочих мест вне обзора не может быть больше, чем рабочих мест (сотрудники ÷ смены)',
    path: ['unseen'],
  });

const money = z.number().openapi({ description: '₽' });

export const PublicOutput = z
  .object({
    measurements_num: z.number().int(),
    overall_measurements: z.number().int(),
    final_cost: money,
    save_per_month: money,
    save_per_year: money,
    final_terms: z.number().int().openapi({ description: 'Срок, рабочих дней' }),
    cameras: z.number().int(),
    stability_coef: z.number(),
    accuracy_percent: z.number(),
    workplaces: z.number().int(),
    observed_workplaces: z.number().int(),
    observed_employees: z.number().int(),
    video_hours: z.number(),
    payback_months: z.number().nullable(),
    savings_graph: z.object({ months: z.array(z.number()), net: z.array(z.number()) }),
  })
  .openapi('CalculatorPublicOutput');

export const PrivateOutput = z
  .object({
    manual_measurements_hours: z.number(),
    markup_hours: z.number(),
    analytics_hours: z.number(),
    tech_hours: z.number(),
    markup_price: money,
    analytics_price: money,
    tech_price: money,
    support_price: money,
    license_price: money,
    gear_price: money,
    box_work_price: money,
    transport_price: money,
    direct_price: money,
    accountant_price: money,
    overhead: money,
    marketing_price: money,
    taxes: money,
    final_cost: money,
    future_price: money,
    table_cars: z.array(z.object({ name: z.string(), trips: z.number(), hours: z.number(), price: z.number(), cost: z.number() })),
    table_economy: z.array(z.object({ name: z.string(), value: z.number().nullable(), unit: z.string() })),
  })
  .openapi('CalculatorPrivateOutput');

export const GearTable = z
  .object({
    rows: z.array(
      z.object({ item: z.string(), label: z.string(), needed: z.number(), owned: z.number(), to_buy: z.number(), price: z.number(), cost: z.number() }),
    ),
    total: money,
  })
  .openapi('CalculatorGearTable');

export const DaysReply = z
  .object({
    markups_days: z.number().int(),
    analytics_days: z.number().int(),
    camera_install_days: z.number().int(),
    observation_days: z.number().int(),
    final_terms: z.number().int(),
  })
  .openapi('CalculatorDays');

export const MeasurementGraph = z
  .object({
    stability_coefs: z.array(z.number()),
    required: z.array(z.number()),
    accuracy_percent: z.number(),
    normative: z.object({ stability_coef: z.number(), measurements_req: z.number() }),
  })
  .openapi('CalculatorMeasurementGraph');

const stamp = { updated_at: z.string().nullable(), updated_by: z.string().nullable() };
const Setting = z.object({
  name: z.string(),
  label: z.string(),
  unit: z.string(),
  value: z.number(),
  default_value: z.number(),
  min: z.number(),
  max: z.number(),
  integer: z.boolean(),
  ...stamp,
});

export const DefaultsReply = z.object({ defaults: z.array(Setting), can_edit: z.boolean() }).openapi('CalculatorDefaults');
export const LicenseReply = z.object({ license: z.array(Setting), can_edit: z.boolean() }).openapi('CalculatorLicense');
export const GearDefaultsReply = z
  .object({
    can_edit: z.boolean().openapi({ description: 'Администратор организации-владельца: показывать панели настроек' }),
    can_view_private: z.boolean().openapi({ description: 'Сотрудник организации-владельца: служебные расчёты' }),
    gear: z
      .array(
        z.object({
          item: z.string(),
          label: z.string(),
          owned: z.number(),
          price: z.number(),
          default_price: z.number(),
          owned_name: z.string(),
          price_name: z.string(),
          ...stamp,
        }),
      )
      .openapi({ description: 'Пусто, если can_view_private = false' }),
  })
  .openapi('CalculatorGearDefaults');

/** More changes than there are settings cannot be meant (about 40 names today). */
export const MAX_SETTING_CHANGES = 200;

export const UpdateDefaultsBody = z
  .array(z.object({ name: z.string().min(1).max(100), new_value: z.number() }))
  .max(MAX_SETTING_CHANGES, { error: `не больше ${MAX_SETTING_CHANGES} изменений за раз` })
  .openapi('CalculatorDefaultsUpdate', { description: 'Только изменённые значения: [{ name, new_value }]' });
