import { z } from '@hono/zod-openapi';
import { idParam } from '../http/params';

export const StructureSchema = z.object({ id: z.number(), name: z.string(), parent_id: z.number().nullable() }).openapi('Structure');
export const NamedItem = z.object({ id: z.number(), name: z.string() });
export const StructureQuery = z.object({ structure_id: idParam.openapi({ example: 3 }) });

export const VideoOrStructureQuery = z.object({
  structure_id: idParam.optional(),
  video_id: idParam.optional(),
});

export const IdParam = z.object({ id: idParam.openapi({ param: { name: 'id', in: 'path' }, example: 3 }) });

export const PRODUCTION_TYPES = ['mass', 'large_series', 'series', 'small_series'] as const;

/** Whole numbers only (spec 02 §5 "Parameter numbers are parsed as integers"). */
const whole = (field: string, min: number, max: number) =>
  z
    .number({ error: `${field}: ожидается целое число` })
    .int({ error: `${field}: ожидается целое число` })
    .min(min, { error: `${field}: не меньше ${min}` })
    .max(max, { error: `${field}: не больше ${max}` });

/** "08:00" or "08:00:00", stored as "HH:MM:SS". */
export const ClockTime = z
  .string()
  .max(8, { error: 'ожидается время ЧЧ:ММ или ЧЧ:ММ:СС' })
  .regex(/^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/, { error: 'ожидается время ЧЧ:ММ или ЧЧ:ММ:СС' })
  .transform((value) => (value.length === 5 ? `${value}:00` : value))
  .openapi({ type: 'string', maxLength: 8, example: '08:00:00' });

/** Time-series cleaning rules a structure may choose (METHODOLOGY §3). */
export const CLEANING_RULES = ['one_extreme', 'both_extremes'] as const;

export const ShiftSchema = z
  .object({
    id: z.number().int().optional().openapi({ description: 'при сохранении не нужен: список смен заменяется целиком' }),
    name: z.string().trim().min(1, { error: 'укажите название смены' }).max(100),
    start_time: ClockTime,
    end_time: ClockTime,
    regular_break_duration_min: whole('regular_break_duration_min', 0, 1440).default(0),
    meal_break_min: whole('meal_break_min', 0, 720)
      .default(0)
      .openapi({ description: 'обед (неоплачиваемый перерыв), мин: Тсм нормы = конец − начало − обед (METHODOLOGY §7); 0 — время смены обед уже не включает' }),
    breaks: z
      .array(z.object({ start_time: ClockTime, end_time: ClockTime }))
      .max(12, { error: 'breaks: не больше 12 перерывов в смене' })
      .default([])
      .openapi({ description: 'регламентированные перерывы смены интервалами (местное время); пусто — только минуты перерывов' }),
  })
  .openapi('Shift');

export const StructureSettingsReply = z
  .object({
    id: z.number(),
    name: z.string(),
    parent_id: z.number().nullable(),
    partial: z.boolean(),
    production_type: z.enum(PRODUCTION_TYPES),
    employee_count: z.number().nullable(),
    employee_salary: z.number().nullable(),
    flucts_reduction: z.number().nullable().openapi({ description: 'снижение колебаний, % (при записи — fluct_reduction)' }),
    regular_break_duration: z.number().openapi({ description: 'регламентированные перерывы, секунды' }),
    time_series_stability_threshold: z.number().nullable(),
    rest_in_idle: z.boolean(),
    cleaning_rule: z
      .enum(CLEANING_RULES)
      .openapi({ description: 'очистка хроноряда: one_extreme — по одному крайнему замеру (по умолчанию), both_extremes — минимальный и максимальный вместе' }),
    shifts: z.array(
      ShiftSchema.extend({
        id: z.number(),
        start_time: z.string(),
        end_time: z.string(),
        regular_break_duration_min: z.number(),
        meal_break_min: z.number(),
        breaks: z.array(z.object({ start_time: z.string(), end_time: z.string() })),
      }),
    ),
  })
  .openapi('StructureSettings');

export const StructureSettingsSave = z
  .object({
    employee_count: whole('employee_count', 0, 1_000_000).nullable().optional(),
    employee_salary: whole('employee_salary', 0, 100_000_000).nullable().optional(),
    fluct_reduction: whole('fluct_reduction', 0, 100).nullable().optional(),
    regular_break_duration: whole('regular_break_duration', 0, 86_400).optional().openapi({ description: 'секунды (в форме вводятся минуты)' }),
    time_series_stability_threshold: z
      .number({ error: 'time_series_stability_threshold: ожидается число' })
      .min(1, { error: 'time_series_stability_threshold: Ку не меньше 1' })
      .max(10, { error: 'time_series_stability_threshold: Ку не больше 10' })
      .nullable()
      .optional()
      .openapi({ description: 'нормативный Ку вместо справочника; null — по справочнику' }),
    rest_in_idle: z.boolean({ error: 'rest_in_idle: ожидается true или false' }).optional(),
    cleaning_rule: z.enum(CLEANING_RULES, { error: 'cleaning_rule: one_extreme или both_extremes' }).optional(),
    shifts: z.array(ShiftSchema).max(24).optional().openapi({ description: 'весь список смен; без поля — смены не меняются' }),
    partial: z.boolean({ error: 'partial: ожидается true или false' }).optional(),
    production_type: z.enum(PRODUCTION_TYPES, { error: 'production_type: mass, large_series, series или small_series' }).optional(),
  })
  .openapi('StructureSettingsSave');

export const OperationSchema = z
  .object({
    id: z.number(),
    name: z.string(),
    type: z.string(),
    reference_point: z.string(),
    machine_paced: z.boolean(),
  })
  .openapi('Operation');

export const OperationsReply = z
  .object({
    operations: z.array(OperationSchema),
    operation_types: z.record(z.string(), z.string()).openapi({ description: 'код типа → название' }),
  })
  .openapi('Operations');

export const OperationsSave = z
  .object({
    structure_id: z.number({ error: 'structure_id: ожидается целое положительное число' }).int().positive(),
    changed_operations: z
      .array(
        z.object({
          id: z.number().int().positive().optional().openapi({ description: 'нет — новая операция' }),
          name: z.string({ error: 'name: ожидается строка' }).max(200),
          type: z.string({ error: 'type: ожидается код типа операции' }).max(50),
          reference_point: z.string().max(1000).nullable().optional(),
          machine_paced: z.boolean().optional(),
        }),
      )
      .max(1000)
      .default([]),
    operations_to_delete: z.array(z.number().int().positive()).max(1000).default([]),
  })
  .openapi('OperationsSave');

/** The longest organisation name and IANA zone name accepted. */
export const ORGANIZATION_NAME_MAX = 200;
export const TIME_ZONE_MAX = 64;

/**
 * An IANA zone name the runtime knows ("Asia/Yekaterinburg", "UTC"), written as its canonical
 * spelling; offsets ("+03:00") and unknown names are refused.
 */
export function canonicalTimeZone(value: string): string | null {
  if (value.length > TIME_ZONE_MAX || !/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+){0,2}$/.test(value)) return null;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: value }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

const TimeZoneField = z
  .string({ error: 'укажите часовой пояс строкой, например Europe/Moscow' })
  .trim()
  .min(1, { error: 'укажите часовой пояс' })
  .max(TIME_ZONE_MAX, { error: `название часового пояса не длиннее ${TIME_ZONE_MAX} символов` })
  .transform((value, ctx) => {
    const zone = canonicalTimeZone(value);
    if (zone === null) {
      ctx.addIssue({ code: 'custom', message: `неизвестный часовой пояс «${value}»: ожидается пояс IANA, например Europe/Moscow` });
      return z.NEVER;
    }
    return zone;
  })
  .openapi({ type: 'string', maxLength: TIME_ZONE_MAX, example: 'Asia/Yekaterinburg' });

export const OrganizationSettings = z
  .object({
    id: z.number(),
    name: z.string(),
    time_zone: z.string().openapi({ example: 'Europe/Moscow' }),
    is_demo: z.boolean().openapi({ description: 'демонстрационная организация: её часовой пояс не меняется' }),
  })
  .openapi('OrganizationSettings');

export const OrganizationSave = z
  .object({
    name: z
      .string({ error: 'название: ожидается строка' })
      .trim()
      .min(1, { error: 'название не может быть пустым' })
      .max(ORGANIZATION_NAME_MAX, { error: `название не длиннее ${ORGANIZATION_NAME_MAX} символов` })
      // eslint-disable-next-line no-control-regex
      .refine((value) => !/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(value), { error: 'название не должно содержать управляющих символов' })
      .optional(),
    time_zone: TimeZoneField.optional(),
  })
  .strict()
  .openapi('OrganizationSave');

export const TimeZonePreviewBody = z.object({ time_zone: TimeZoneField }).strict().openapi('TimeZonePreviewBody');

export const TimeZonePreview = z
  .object({
    time_zone: z.string().openapi({ description: 'пояс сейчас' }),
    new_time_zone: z.string().openapi({ description: 'пояс после сохранения' }),
    now: z.string().openapi({ description: 'момент, для которого посчитано местное время (ISO 8601, UTC)' }),
    now_local: z.string().openapi({ description: 'местное время сейчас в прежнем поясе, ДД.ММ.ГГГГ ЧЧ:ММ', example: '16.11.2026 09:00' }),
    new_now_local: z.string().openapi({ description: 'то же время в новом поясе', example: '16.11.2026 11:00' }),
    offset_change_minutes: z.number().openapi({ description: 'на сколько минут новое местное время впереди прежнего (сейчас)' }),
    recordings: z.number().openapi({ description: 'записей организации всего' }),
    recordings_from_file_name: z
      .number()
      .openapi({ description: 'из них записей, чьё начало прочитано из имени файла (cam{N}_ГГГГ-ММ-ДД_ЧЧ-ММ-СС); их начало не меняется' }),
  })
  .openapi('TimeZonePreview');
