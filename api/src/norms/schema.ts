import { z } from '@hono/zod-openapi';
import { RATING_MAX, RATING_MIN } from '@norma/core-wasm/norms';
import { decimalInt, idParam } from '../http/params';
import { instant } from '../http/time';

/**
 * Norm cards (issue 29, METHODOLOGY §7, docs/norms.md). Minutes everywhere on the card; the
 * windows' instants are ISO 8601 UTC strings; percentages are 0–100.
 */

/** At most this many windows make one card (a month of shifts of a few employees). */
export const MAX_NORM_WINDOWS = 62;
/** The longest single window, as for reports. */
export const MAX_NORM_WINDOW_DAYS = 62;

/** A local date «ГГГГ-ММ-ДД» that exists. */
const localDay = z
  .string()
  .length(10, 'ожидается дата ГГГГ-ММ-ДД')
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'ожидается дата ГГГГ-ММ-ДД')
  .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d), 'нет такой даты');

/**
 * A window of a card: a whole shift-day of an employee (`date`, METHODOLOGY §7: a night shift
 * 22:00–06:00 is one shift-day, dated by its start), or an interval [from_time, to_time).
 */
const NormWindowInput = z
  .object({
    employee_id: decimalInt(1).openapi({ description: 'Сотрудник структурной единицы' }),
    date: localDay.optional().openapi({ description: 'Смена-день сотрудника, дата начала смены (ГГГГ-ММ-ДД); вместо from_time и to_time' }),
    from_time: instant.optional().openapi({ description: 'Начало окна [from_time, to_time)' }),
    to_time: instant.optional().openapi({ description: 'Конец окна (не включается)' }),
  })
  .strict()
  .superRefine((w, ctx) => {
    if (w.date !== undefined) {
      if (w.from_time !== undefined || w.to_time !== undefined)
        ctx.addIssue({ code: 'custom', path: ['date'], message: 'укажите либо date (смена-день), либо from_time и to_time' });
      return;
    }
    if (w.from_time === undefined || w.to_time === undefined) {
      ctx.addIssue({ code: 'custom', path: ['date'], message: 'укажите date (смена-день) или from_time и to_time' });
      return;
    }
    if (!(w.to_time > w.from_time)) ctx.addIssue({ code: 'custom', path: ['to_time'], message: 'to_time должно быть позже from_time' });
    else if (w.to_time - w.from_time > MAX_NORM_WINDOW_DAYS * 86_400_000)
      ctx.addIssue({ code: 'custom', path: ['to_time'], message: `окно не длиннее ${MAX_NORM_WINDOW_DAYS} дней` });
  });

/** Where an operation's time entered by hand comes from (METHODOLOGY §7). */
export const MANUAL_TIME_SOURCES = ['mtm', 'micro', 'reference', 'other'] as const;
export const MANUAL_TIME_SOURCE_LABELS: Record<(typeof MANUAL_TIME_SOURCES)[number], string> = {
  mtm: 'МТМ',
  micro: 'микроэлементные нормативы',
  reference: 'справочник',
  other: 'другое',
};

const rating = (field: string) =>
  z
    .number({ error: `${field}: ожидается число` })
    .min(RATING_MIN, { error: `${field}: оценка темпа не меньше ${RATING_MIN} %` })
    .max(RATING_MAX, { error: `${field}: оценка темпа не больше ${RATING_MAX} %` });

const percent = (description: string) => z.number().min(0).max(200).openapi({ description });

export const NormParams = z
  .object({
    unit_operations: z
      .array(
        z.object({
          operation_id: decimalInt(1),
          times_per_unit: z.number().min(0).max(1000).openapi({ description: 'Сколько раз операция выполняется на единицу (0 — не входит)' }),
        }),
      )
      .max(500)
      .nullable()
      .default(null)
      .openapi({ description: 'Состав единицы продукции; null — каждая основная операция один раз' }),
    batch_size: z.number().int().min(1).max(1_000_000).nullable().default(null).openapi({ description: 'Размер партии, шт.' }),
    batch_prep_minutes: z.number().min(0).max(100_000).nullable().default(null).openapi({ description: 'Тпз на партию, мин' }),
    plan_units: z.number().min(0).max(1e9).nullable().default(null).openapi({ description: 'План выпуска, шт.' }),
    plan_shifts: z.number().int().min(1).max(10_000).nullable().default(null).openapi({ description: 'Смен в плановом периоде' }),
    plan_fulfilment: z.number().min(0.1).max(3).default(1).openapi({ description: 'K_вн — планируемое выполнение норм (1 = 100 %)' }),
    normative_allowances: z
      .object({ pz: percent('а_пз, % от Топ'), service: percent('а_обс, % от Топ'), rest: percent('а_отл, % от Топ') })
      .nullable()
      .default(null)
      .openapi({ description: 'Нормативы организации; null — фактические по фотографии рабочего времени' }),
    shift_name: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .nullable()
      .default(null)
      .openapi({ description: 'Смена, на которую устанавливается норма (её Тсм); null — самая частая смена основания' }),
    rating_percent: rating('rating_percent').default(100).openapi({ description: 'Оценка темпа для всего основания, %: t_norm = t_reg × темп / 100' }),
    employee_ratings: z
      .array(z.object({ employee_id: decimalInt(1), rating_percent: rating('employee_ratings.rating_percent') }).strict())
      .max(200)
      .default([])
      .openapi({ description: 'Оценка темпа по сотрудникам основания, %; заменяет общую для его замеров' }),
    manual_times: z
      .array(
        z
          .object({
            operation_id: decimalInt(1),
            minutes: z
              .number({ error: 'manual_times.minutes: ожидается число минут' })
              .positive({ error: 'manual_times.minutes: время больше 0' })
              .max(100_000, { error: 'manual_times.minutes: не больше 100000 мин' }),
            source: z.enum(MANUAL_TIME_SOURCES, { error: 'manual_times.source: mtm, micro, reference или other' }),
            note: z.string().trim().max(500, { error: 'manual_times.note: не длиннее 500 символов' }).default(''),
          })
          .strict(),
      )
      .max(500)
      .default([])
      .openapi({ description: 'Время операций единицы без замеров, введённое вручную, с источником (МТМ, микроэлементные нормативы, справочник, другое)' }),
  })
  .strict()
  .openapi('NormParams');

export const NormCreateBody = z
  .object({
    title: z.string().trim().min(1).max(200).optional(),
    windows: z.array(NormWindowInput).min(1).max(MAX_NORM_WINDOWS),
    params: NormParams.optional(),
  })
  .strict();

export const NormUpdateBody = z
  .object({
    title: z.string().trim().min(1).max(200).optional(),
    windows: z.array(NormWindowInput).min(1).max(MAX_NORM_WINDOWS).optional(),
    params: NormParams.optional(),
  })
  .strict();

/** The earliest date a norm can take effect from (issue 39): nothing in the product is older. */
export const EARLIEST_EFFECTIVE_FROM = '2000-01-01';
/** How many years ahead of today a norm can be set to take effect (issue 39). */
export const EFFECTIVE_FROM_YEARS_AHEAD = 5;

/** The latest date a norm approved on `now` can take effect from: the same day, EFFECTIVE_FROM_YEARS_AHEAD years later (UTC). */
export function latestEffectiveFrom(now = Date.now()): string {
  const today = new Date(now);
  const later = new Date(Date.UTC(today.getUTCFullYear() + EFFECTIVE_FROM_YEARS_AHEAD, today.getUTCMonth(), today.getUTCDate()));
  return later.toISOString().slice(0, 10);
}

const EFFECTIVE_FROM_RANGE = `дата не раньше ${EARLIEST_EFFECTIVE_FROM.split('-').reverse().join('.')} и не позже чем через ${EFFECTIVE_FROM_YEARS_AHEAD} лет от сегодняшнего дня`;

export const NormApproveBody = z
  .object({
    effective_from: z
      .string()
      .length(10, 'ожидается дата ГГГГ-ММ-ДД')
      .regex(/^\d{4}-\d{2}-\d{2}$/, 'ожидается дата ГГГГ-ММ-ДД')
      .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d), 'нет такой даты')
      // ISO dates of four-digit years compare as text.
      .refine((d) => d >= EARLIEST_EFFECTIVE_FROM && d <= latestEffectiveFrom(), EFFECTIVE_FROM_RANGE)
      .openapi({ description: `С какой даты норма действует: ${EFFECTIVE_FROM_RANGE}`, example: '2026-12-01' }),
    revision: z
      .number({ error: 'укажите ревизию черновика, которую вы прочли (поле revision карточки), — без неё можно утвердить не то, что прочитано' })
      .int()
      .min(1)
      .openapi({ description: 'обязательно: ревизия черновика из прочитанной карточки (поле revision); черновик изменён после неё → 409 с текущей карточкой' }),
    override_comment: z
      .string()
      .trim()
      .min(1, { error: 'override_comment: напишите, почему норма утверждается по неустойчивому ряду' })
      .max(1000, { error: 'override_comment: не длиннее 1000 символов' })
      .optional()
      .openapi({ description: 'Нужен, когда у операции единицы ряд неустойчив: явное подтверждение утверждающего с комментарием; хранится с утверждением' }),
  })
  .strict();

export const NormListQuery = z.object({ structure_id: idParam.openapi({ description: 'Структурная единица (рабочее место, изделие)' }) });
export const NormIdParam = z.object({ id: idParam.openapi({ param: { name: 'id', in: 'path' } }) });
export const NormDiffQuery = z.object({
  against: idParam.optional().openapi({ description: 'С какой версией сравнить; без него — с действующей утверждённой' }),
});

const Allowances = z.object({ pz: z.number(), service: z.number(), rest: z.number() });

export const NormFigure = z.object({
  key: z.string(),
  label: z.string(),
  value: z.number().nullable(),
  unit: z.string(),
  source: z.string(),
});

export const NormOperation = z.object({
  operation_id: z.number().int(),
  name: z.string(),
  category: z.enum(['main', 'aux']),
  t_reg_minutes: z.number().nullable().openapi({ description: 't_reg по замерам или время, введённое вручную; null — не рассчитано' }),
  rating_percent: z.number().openapi({ description: 'Оценка темпа замеров операции, % (по сотрудникам — взвешенная по времени)' }),
  t_norm_minutes: z.number().nullable().openapi({ description: 't_norm = t_reg × темп / 100 (время, введённое вручную, — как введено)' }),
  time_source: z.enum(['measured', 'manual', 'none']),
  manual: z.object({ minutes: z.number(), source: z.enum(MANUAL_TIME_SOURCES), source_label: z.string(), note: z.string() }).nullable(),
  dropped: z.number().int().openapi({ description: 'Отброшено очисткой ряда' }),
  unstable: z.boolean().openapi({ description: 'Ряд неустойчив: очистка отбросила больше 15 % замеров (или больше 2 у ряда короче 15)' }),
  coef: z.number(),
  normative_coef: z.number(),
  measurements: z.number().int(),
  accepted: z.number().int(),
  required: z.number().int(),
  enough: z.boolean(),
  times_per_unit: z.number(),
  source: z.string(),
});

export const NormComputed = z.object({
  basis: z.object({
    windows: z.number().int(),
    employees: z.number().int(),
    days: z.number().int(),
    measurements: z.number().int(),
    text: z.string(),
  }),
  operations: z.array(NormOperation),
  balance: z.object({
    days: z.number().int(),
    shift_minutes: z.number().openapi({ description: 'Тсм: номинальная длительность выбранной смены (конец − начало − обед)' }),
    shift_name: z.string().nullable(),
    meal_break_minutes: z.number(),
    observed_shift_minutes: z.number().openapi({ description: 'Наблюдавшаяся часть смены, в среднем на смену-день (справочно)' }),
    observed_operative_minutes: z
      .number()
      .openapi({ description: 'Топ_набл: основная и вспомогательная работа нормативного баланса, в среднем на смену-день' }),
    pz_minutes: z.number(),
    service_minutes: z.number(),
    move_minutes: z.number(),
    regulated_break_minutes: z.number(),
    rest_minutes: z.number(),
    idle_minutes: z.number(),
    source: z.string(),
  }),
  allowances: z.object({ actual: Allowances, normative: Allowances.nullable(), used: z.enum(['actual', 'normative']) }),
  figures: z.array(NormFigure),
  rating: z.object({
    percent: z.number(),
    employees: z.array(z.object({ employee_id: z.number().int(), name: z.string(), percent: z.number() })),
    text: z.string(),
  }),
  not_calculated: z.string().nullable().openapi({ description: '«не рассчитано: нет замеров «…»»: такую карточку утвердить нельзя (409)' }),
  unstable: z.array(z.string()).openapi({ description: 'Операции единицы с неустойчивым рядом: утверждение только с override_comment' }),
  warnings: z.array(z.string()),
  line: z.object({
    workplaces: z.array(z.object({ id: z.number().int(), name: z.string() })),
    operations: z.array(
      z.object({
        operation_id: z.number().int(),
        name: z.string(),
        category: z.enum(['main', 'aux', 'loss']).openapi({
          description: 'Основная или вспомогательная работа; «loss» (потери) — только в карточках, сохранённых до того, как потери перестали входить в линию',
        }),
        workplace_id: z.number().int().nullable(),
        minutes: z.number().openapi({ description: 'Трудоёмкость на единицу, мин' }),
      }),
    ),
    benches: z
      .array(
        z.object({
          workplace_id: z.number().int(),
          name: z.string(),
          top_minutes: z
            .number()
            .nullable()
            .openapi({ description: 'Топ места: Σ t_norm × раз на единицу по замерам на этом месте, мин; null — у операции единицы нет времени' }),
          output_exact: z.number().nullable().openapi({ description: 'Нвыр места = Топ.н карточки / Топ места, шт./смену' }),
          output: z.number().int().nullable().openapi({ description: 'Нвыр места, округлено вниз' }),
          measured_operations: z.number().int().openapi({ description: 'Операций единицы, замеренных на этом месте' }),
          borrowed_operation_ids: z
            .array(z.number().int())
            .openapi({ description: 'Операции единицы, на этом месте не замерявшиеся: их t_norm — по карточке' }),
        }),
      )
      .optional()
      .openapi({
        description:
          'Рабочие места, каждое из которых делает изделие целиком, с их собственной Нвыр; нет в карточках, сохранённых до появления поля (тогда у места — Нвыр карточки)',
      }),
    available_minutes: z.number().openapi({ description: 'Рабочее время смены без регламентированных перерывов, мин' }),
  }),
});

export const NormWindow = z.object({
  employee_id: z.number().int(),
  employee_name: z.string(),
  date: z.string().nullable().optional().openapi({ description: 'Смена-день, когда окно задано датой' }),
  from_time: z.string(),
  to_time: z.string(),
});

export const NormSummary = z
  .object({
    id: z.number().int(),
    structure_id: z.number().int(),
    version: z.number().int(),
    title: z.string(),
    status: z.enum(['draft', 'approved']),
    in_force: z.boolean(),
    created_at: z.string(),
    updated_at: z.string(),
    approved_at: z.string().nullable(),
    approved_by_name: z.string().nullable(),
    effective_from: z.string().nullable(),
    revision: z.number().int().openapi({ description: 'Ревизия черновика: растёт с каждым изменением; утверждение называет прочитанную' }),
    approval_comment: z.string().nullable().openapi({ description: 'Комментарий утверждающего к неустойчивому ряду (null — не понадобился)' }),
  })
  .openapi('NormSummary');

export const NormCard = NormSummary.extend({
  windows: z.array(NormWindow),
  // A component of its own: NormParams is a request's too, where a field with a default may be left out; the card always has them.
  params: NormParams.openapi('NormParamsReply'),
  card: NormComputed,
  can_edit: z.boolean(),
  can_approve: z.boolean(),
}).openapi('NormCard');

/** 409 of an approval: the draft changed after the approver read it (or is already approved); `details.card` is the card as it is now. */
export const NormApproveConflict = z
  .object({
    error: z.object({
      code: z.string(),
      message: z.string(),
      details: z.object({ card: NormCard }).optional().openapi({ description: 'Карточка такой, какая она сейчас: её и надо прочесть перед утверждением' }),
    }),
  })
  .openapi('NormApproveConflict');

export const NormList = z
  .object({ structure: z.object({ id: z.number().int(), name: z.string() }), versions: z.array(NormSummary), can_edit: z.boolean(), can_approve: z.boolean() })
  .openapi('NormList');

export const NormDiff = z
  .object({
    before: NormSummary.nullable(),
    after: NormSummary,
    rows: z.array(
      z.object({
        key: z.string(),
        label: z.string(),
        unit: z.string(),
        before: z.number().nullable(),
        after: z.number().nullable(),
        delta: z.number().nullable(),
        delta_percent: z.number().nullable(),
      }),
    ),
  })
  .openapi('NormDiff');

export const NormApprovers = z
  .object({ approvers: z.array(z.object({ user_id: z.string(), name: z.string(), role: z.string(), granted_at: z.string() })) })
  .openapi('NormApprovers');
export const ApproverParam = z.object({
  userId: z
    .string()
    .min(1)
    .max(100)
    .openapi({ param: { name: 'userId', in: 'path' } }),
});

/** The most stations a line may have, and operations a scenario may place. */
const MAX_STATIONS = 200;
const MAX_ASSIGNED = 1000;

export const LineScenarioBody = z
  .object({
    name: z.string().trim().min(1).max(200),
    demand: z.number().positive().max(1e7).openapi({ description: 'Потребность за смену, шт. (такт = рабочее время / потребность)' }),
    stations: z.array(decimalInt(1)).min(1).max(MAX_STATIONS).optional().openapi({
      description:
        'Станции линии по порядку: рабочие места, через которые изделие проходит одно за другим. Без поля — рабочие места из assignment в порядке карточки (прежние сценарии)',
    }),
    assignment: z
      .array(z.object({ operation_id: decimalInt(1), workplace_id: decimalInt(1) }).strict())
      .max(MAX_ASSIGNED)
      .openapi({ description: 'На какой станции каждая операция (основная или вспомогательная: потери станцию не занимают)' }),
  })
  .strict();

export const LineScenario = z.object({
  id: z.number().int(),
  name: z.string(),
  demand: z.number(),
  stations: z.array(z.number().int()).openapi({ description: 'Станции линии (рабочие места) по порядку' }),
  assignment: z.array(z.object({ operation_id: z.number().int(), workplace_id: z.number().int() })),
  created_at: z.string(),
});
export const LineScenarios = z.object({ scenarios: z.array(LineScenario) }).openapi('LineScenarios');

export const FulfilmentQuery = z
  .object({
    structure_id: idParam,
    from_time: instant,
    to_time: instant,
    employee_id: idParam.optional().openapi({ description: 'Только этот сотрудник (ведомость)' }),
  })
  .superRefine((w, ctx) => {
    if (!(w.to_time > w.from_time)) ctx.addIssue({ code: 'custom', path: ['to_time'], message: 'to_time должно быть позже from_time' });
    else if (w.to_time - w.from_time > MAX_NORM_WINDOW_DAYS * 86_400_000)
      ctx.addIssue({ code: 'custom', path: ['to_time'], message: `окно не длиннее ${MAX_NORM_WINDOW_DAYS} дней` });
  });

const FulfilmentTotal = z.object({
  employee_id: z.number().int().nullable().openapi({ description: 'Сотрудник; null — итог по всем сотрудникам окна' }),
  employee_name: z.string().nullable(),
  days: z.number().int().openapi({ description: 'Смен-суток в строках (у итога по всем — смен-суток сотрудников)' }),
  days_with_output: z.number().int(),
  days_counted: z.number().int().openapi({ description: 'Смен-суток с выпуском и нормой — только они входят в выполнение' }),
  units: z.number().openapi({ description: 'Выпуск окна: сумма выпуска его смен-суток, шт.' }),
  units_counted: z.number().openapi({ description: 'Выпуск смен-суток, входящих в выполнение (с нормой), шт.' }),
  norm_minutes: z.number().openapi({ description: 'Σ Нвр × выпуск, мин' }),
  working_minutes: z.number().openapi({ description: 'Σ (Тсм − простои), мин' }),
  actual_minutes_per_unit: z.number().nullable().openapi({ description: 'Σ (Тсм − простои) / выпуск смен-суток, входящих в выполнение, мин' }),
  fulfilment_percent: z
    .number()
    .nullable()
    .openapi({ description: 'Σ Нвр × выпуск / Σ (Тсм − простои) × 100; null — ни одной смены-суток с выпуском и нормой' }),
});

export const Fulfilment = z
  .object({
    norm: z.object({ id: z.number().int(), version: z.number().int(), effective_from: z.string() }).nullable(),
    far_threshold_percent: z.number(),
    from_time: z.string().openapi({ description: 'Начало первых смен-суток окна' }),
    to_time: z.string().openapi({ description: 'Конец последних смен-суток окна' }),
    rows: z.array(
      z.object({
        employee_id: z.number().int(),
        employee_name: z.string(),
        date: z.string().openapi({ description: 'Смена-сутки (ночная смена — по дню начала)' }),
        from_time: z.string(),
        to_time: z.string(),
        norm_id: z.number().int().nullable(),
        norm_version: z.number().int().nullable(),
        norm_time_minutes: z.number().nullable(),
        units: z.number().openapi({ description: 'Выпуск смены-суток, шт. (0 — выпуска нет)' }),
        output_source: z
          .enum(['manual', 'stamps', 'none'])
          .openapi({ description: 'manual — введён вручную за смену-сутки или окна внутри неё; stamps — отметки «продукт»; none — выпуска нет' }),
        shift_minutes: z.number().nullable().openapi({ description: 'Тсм действующей нормы, мин; null — нормы нет' }),
        idle_minutes: z.number().openapi({ description: 'Простои, наблюдённые в эту смену-сутки, мин' }),
        actual_minutes_per_unit: z.number().nullable(),
        fulfilment_percent: z.number().nullable().openapi({ description: 'null — нет нормы или нет выпуска («нет выпуска»)' }),
      }),
    ),
    totals: z.array(FulfilmentTotal).openapi({ description: 'Итог окна по каждому сотруднику' }),
    total: FulfilmentTotal.openapi({ description: 'Итог окна по всем сотрудникам' }),
    far_cycles: z.array(
      z.object({
        markup_id: z.number().int(),
        employee_id: z.number().int(),
        operation_id: z.number().int(),
        operation_name: z.string(),
        seconds: z.number(),
        norm_seconds: z.number(),
        deviation_percent: z.number(),
      }),
    ),
  })
  .openapi('NormFulfilment');
