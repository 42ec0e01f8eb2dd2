import { z } from '@hono/zod-openapi';
import { idParam, decimalInt } from '../http/params';
import { instant } from '../http/time';

/**
 * Report calls (spec 01 §3 "Report parameter row", "Measurement", "Statement report",
 * "Interactive frv"; §7; spec 02 §7 report/dates). Field names of the spec are kept exactly;
 * extra fields are named for what they are. Units: every `len*`, `duration`, `t_*`, `time_2min`
 * and `video_segment` value is seconds; `loading` is in minutes; percentages are 0–100.
 * Instants are ISO 8601 UTC strings.
 */

/** The longest report window. A month of one structure is the usual; two are allowed. */
export const MAX_WINDOW_DAYS = 62;

const structureId = idParam.openapi({ example: 4, description: 'Структурная единица' });
const employeeId = idParam.openapi({ example: 1, description: 'Сотрудник этой структурной единицы' });

type Window = { from_time: number; to_time: number };
const windowChecks = (q: Window, ctx: z.RefinementCtx) => {
  if (!(q.to_time > q.from_time)) {
    ctx.addIssue({ code: 'custom', path: ['to_time'], message: 'to_time должно быть позже from_time' });
  } else if (q.to_time - q.from_time > MAX_WINDOW_DAYS * 86_400_000) {
    ctx.addIssue({ code: 'custom', path: ['to_time'], message: `окно отчёта не длиннее ${MAX_WINDOW_DAYS} дней` });
  }
};

const windowFields = {
  structure_id: structureId,
  from_time: instant.openapi({ description: 'Начало окна [from_time, to_time)', example: '2026-11-16T05:00:00Z' }),
  to_time: instant.openapi({ description: 'Конец окна (не включается)', example: '2026-11-16T14:00:00Z' }),
};

export const ReportWindowQuery = z.object(windowFields).superRefine(windowChecks);
export const StatementQuery = z
  .object({
    ...windowFields,
    employee_id: employeeId,
    details: z.enum(['0', '1']).optional().openapi({ description: '1 — добавить в ответ полный результат движка (поле details)' }),
  })
  .superRefine(windowChecks);
export const ProductsQuery = z
  .object({
    ...windowFields,
    employee_id: decimalInt(0).optional().openapi({ description: 'Сотрудник; без него или 0 — выпуск всей структурной единицы за окно', example: 1 }),
  })
  .superRefine(windowChecks);
export const DatesQuery = z.object({ structure_id: structureId });
export const InputsQuery = z
  .object({
    ...windowFields,
    employee_id: idParam.optional().openapi({ description: 'Только разметка и отметки этого сотрудника (для ведомости); без него — вся структурная единица' }),
  })
  .superRefine(windowChecks);

const iso = z.string().openapi({ format: 'date-time', example: '2026-11-16T05:00:00.000Z' });
const categoryCode = z.enum(['main', 'aux', 'pz', 'service', 'move', 'rest', 'idle']).openapi({ description: 'Тип операции (код)' });
const categoryIndex = z.number().int().openapi({ description: 'Код типа операции: 0 main … 6 idle' });
const notices = {
  notice: z.string().nullable().openapi({ description: 'Пояснение к пустому или неполному отчёту (по-русски), иначе null' }),
  notices: z.array(z.string()).openapi({ description: 'Те же пояснения по одному' }),
};

// ---------------------------------------------------------------- statement (GET /api/v1/report)

export const StatementOperation = z
  .object({
    id: z.number().openapi({ description: 'id операции' }),
    len: z.number().openapi({ description: 'Длительность в окне, с' }),
    ave_len: z.number().openapi({ description: 'Средняя длительность отрезка, с' }),
    name: z.string(),
    operation_type: categoryCode,
    index: categoryIndex,
    count: z.number().int().openapi({ description: 'Число отрезков' }),
    percent_video: z.number(),
  })
  .openapi('StatementOperation');

/** Report parameter row (spec 01 §3) merged with the statement's parameters[…] fields. */
export const ReportParameterRow = z
  .object({
    id: z.number().openapi({ description: 'id операции' }),
    index: categoryIndex,
    name: z.string(),
    operation_type: categoryCode,
    percent_video: z.number().openapi({ description: '% наблюдаемого времени T_набл' }),
    len: z.number().openapi({ description: 'Длительность в окне, с' }),
    ave_len: z.number().openapi({ description: 'Средняя длительность отрезка, с' }),
    standard_len: z.number().nullable().openapi({ description: 't_reg × n, с (только основные операции)' }),
    coef: z.number().nullable().openapi({ description: 'Ку очищенного ряда (только основные операции)' }),
    percent_day: z.number().openapi({ description: '% времени смены T_см' }),
    percent_w_day: z.number().openapi({ description: '% нормативного рабочего времени T_дост' }),
    time_2min: z.number().nullable().openapi({ description: 'Второе наименьшее значение, с' }),
    fluct_ave: z.number().nullable().openapi({ description: 'Среднее |колебание| очищенного ряда, %' }),
    t_min: z.number().nullable().openapi({ description: 'Минимум очищенного ряда, с' }),
    count: z.number().int(),
  })
  .openapi('ReportParameterRow');

export const Loading = z
  .object({
    overload: z.boolean(),
    percentage: z.number().openapi({ description: 'Загрузка W / T_дост × 100' }),
    overworking: z.number().openapi({ description: 'Переработка W − T_дост, мин (0 без перегрузки)' }),
    overworking_per: z.number(),
    all_time: z.number().openapi({ description: 'Наблюдаемое время T_набл, мин' }),
    main_work_time: z.object({ value: z.number().openapi({ description: 'мин' }), percent: z.number().openapi({ description: '% T_набл' }) }),
    add_work_time: z.number().openapi({ description: 'Вспомогательная работа, мин' }),
    controltime: z.number().openapi({ description: 'Обслуживание рабочего места и оборудования, мин' }),
    pz_time: z.number().openapi({ description: 'Подготовительно-заключительная работа, мин' }),
    rest_time: z.number().openapi({ description: 'Отдых и личные надобности, мин' }),
    movetime: z.number().openapi({ description: 'Перемещения, мин' }),
    behind_machine: z.object({
      percent: z.number().openapi({ description: 'Полезное время (основная + вспомогательная + ПЗ + обслуживание), % T_набл' }),
      value: z.number().openapi({ description: 'то же, мин' }),
    }),
    idle_time: z.number().openapi({ description: 'Простои, мин' }),
    work_time: z.number().openapi({ description: 'Рабочее время W, мин' }),
    shift_time: z.number().openapi({ description: 'Время смены T_см, мин' }),
    regulated_break_time: z.number().openapi({ description: 'Регламентированные перерывы B_рег, мин' }),
    available_time: z.number().openapi({ description: 'Нормативное рабочее время T_дост, мин' }),
    underload: z.number().openapi({ description: 'Недогрузка T_дост − W, мин' }),
    underload_per: z.number(),
    text: z.string().openapi({ description: 'Например «461-минутный день, переработка 11 минут»' }),
    basis: z.enum(['shifts', 'observed']).openapi({ description: 'T_см по сменам или по наблюдаемому времени' }),
  })
  .openapi('Loading');

export const FrvRow = z
  .object({
    id: z.number().openapi({ description: 'id отрезка разметки' }),
    name: z.string(),
    start_datetime: iso,
    finish_datetime: iso,
    len_interval: z.number().openapi({ description: 'Длительность в окне, с' }),
    index: categoryIndex,
    number: z.number().int().openapi({ description: 'Номер строки таблицы 4' }),
    operation_id: z.number(),
    operation_type: categoryCode,
  })
  .openapi('FrvRow');

export const MeasurementValue = z.object({
  index: z.number().int().openapi({ description: 'Номер замера в ряду (с 1)' }),
  id: z.number().nullable().openapi({ description: 'id отрезка разметки' }),
  start_datetime: iso,
  len: z.number().openapi({ description: 'Длительность замера, с' }),
  status: z
    .enum(['accepted', 'dropped', 'zero_length', 'cut'])
    .openapi({ description: 'cut: отрезок обрезан границей окна — в балансе учтён, замером не считается' }),
  fluct_perc: z.number().openapi({ description: '(t_i − t̄) / t̄ × 100, где t̄ — среднее ряда этой таблицы (Таблица 2 — очищенного, Таблица 3 — всех замеров)' }),
});

export const MeasurementRow = z
  .object({
    id: z.number().openapi({ description: 'id операции' }),
    operation_type: z.literal('op'),
    operation: z.object({ type: categoryCode, name: z.string() }),
    measurements: z.array(MeasurementValue),
    n: z.number().int(),
    t_min: z.number(),
    t_reg: z.number(),
    t_freq_pred: z.number(),
    t_freq_fact: z.number(),
    t_max: z.number(),
    t_average: z.number(),
    par2: z.number().openapi({ description: 'Показатель 2 — коэффициент вариации, %' }),
    fluct_max: z.number(),
    fluct_average: z.number(),
    fluct_min: z.number(),
    fluct_ave: z.number().openapi({ description: 'Среднее |колебание| ряда этой таблицы, %' }),
    time_2min: z.number(),
    coef: z.number().openapi({ description: 'Ку = t_max / t_min' }),
    standard_len: z.number(),
    len: z.number(),
    normative_coef: z.number().openapi({ description: 'Нормативный Ку, по которому очищен ряд' }),
    normative_source: z.enum(['threshold', 'reference']),
    accuracy_percent: z.number(),
    required_measurements: z.number().int().openapi({ description: 'Нужно замеров по CV ряда этой таблицы' }),
    enough_measurements: z.boolean().openapi({ description: 'Замеров ряда этой таблицы достаточно' }),
    dropped: z.number().int().openapi({ description: 'Замеров, исключённых при очистке' }),
    work_kind: z.enum(['manual', 'machine']).openapi({ description: 'Ручная или машинная операция: строка справочника нормативных Ку' }),
  })
  .openapi('MeasurementRow');

export const MeasurementTable = z
  .object({
    max_operation_count: z.number().int(),
    rows: z.array(MeasurementRow),
  })
  .openapi('MeasurementTable');

export const RepParam = z
  .object({
    from_time: iso,
    to_time: iso,
    worker_name: z.string(),
    date: z.string().openapi({ description: 'Дата начала окна в часовом поясе организации', example: '2026-11-16' }),
    product_num: z.number().int(),
    products_description: z.string(),
    structure: z.object({
      name: z.string(),
      shift_start_time: z.string().nullable().openapi({ example: '08:00:00' }),
      shift_end_time: z.string().nullable().openapi({ example: '17:00:00' }),
      partial: z.boolean(),
      id: z.number(),
      production_type: z.enum(['mass', 'large_series', 'series', 'small_series']),
      shift_name: z.string().nullable(),
    }),
    employee_id: z.number(),
    time_zone: z.string(),
    products_source: z.enum(['manual', 'stamps']),
    stamp_count: z.number().int(),
  })
  .openapi('RepParam');

export const BreakRow = z
  .object({
    type: z.enum(['regulated', 'gap']).openapi({ description: 'regulated — регламентированный перерыв; gap — неразмеченный промежуток' }),
    start_datetime: iso,
    end_datetime: iso,
    len: z.number(),
  })
  .openapi('BreakRow');

export const Slice = z
  .object({
    index: categoryIndex,
    type: categoryCode,
    name: z.string(),
    color: z.string(),
    len: z.number(),
    percent: z.number().openapi({ description: '% T_набл' }),
    percent_w_day: z.number().openapi({ description: '% T_дост' }),
  })
  .openapi('Slice');

export const NormativeRow = z.object({
  index: categoryIndex,
  type: categoryCode,
  name: z.string(),
  color: z.string(),
  len_fact: z.number(),
  len_norm: z.number(),
  percent_fact: z.number(),
  percent_norm: z.number(),
});

export const ParetoRow = z
  .object({
    id: z.number().openapi({ description: 'id операции' }),
    name: z.string(),
    operation_type: categoryCode,
    len: z.number(),
    percent: z.number(),
    cumulative_percent: z.number(),
  })
  .openapi('ParetoRow');

export const ReportDayRow = z
  .object({
    date: z.string().openapi({ description: 'Дата начала смены-дня в часовом поясе организации', example: '2026-11-16' }),
    start_datetime: iso,
    end_datetime: iso,
    first_start: iso.nullable().openapi({ description: 'Начало первого отрезка дня' }),
    last_end: iso.nullable().openapi({ description: 'Конец последнего отрезка дня' }),
    actual_day_len: z.number().openapi({ description: 'Фактическая длительность дня, с (от первого отрезка до последнего)' }),
    observed_time: z.number(),
    work_time: z.number(),
    shift_time: z.number(),
    regulated_break_time: z.number(),
    available_time: z.number(),
    percentage: z.number().openapi({ description: 'Загрузка дня, %' }),
    overload: z.boolean(),
    text: z.string().openapi({ example: '450-минутный день, недогрузка 20 минут' }),
    product_num: z.number().nullable().openapi({ description: 'Выпуск за день по отметкам; null — выпуск введён на всё окно' }),
    takt: z.number().nullable().openapi({ description: 'с на изделие за день' }),
  })
  .openapi('ReportDay');

export const InputErrorRow = z.object({
  code: z.enum(['overlap', 'end_before_start']),
  message: z.string(),
  markup_id: z.number().nullable(),
  other_markup_id: z.number().nullable(),
  employee_id: z.number(),
});

export const StatementReport = z
  .object({
    operations: z.array(StatementOperation),
    parameters: z.array(ReportParameterRow),
    loading: Loading,
    frv: z.array(FrvRow),
    measurements: MeasurementTable.openapi({ description: 'Таблица 2: ряд после очистки' }),
    all_measurements: MeasurementTable.openapi({ description: 'Таблица 3: все замеры' }),
    rep_param: RepParam,
    breaks: z.array(BreakRow).openapi({ description: 'Таблица 6' }),
    slices: z.array(Slice).openapi({ description: 'Круговая диаграмма использования времени по типам операций' }),
    parameters_total: z.object({ len: z.number(), percent_video: z.number(), standard_len: z.number(), count: z.number().int() }),
    normative: z.object({
      hidden: z.boolean().openapi({ description: 'Диаграммы 2.1 и 2.2 скрываются у неполной структуры' }),
      productivity_rise: z.number().nullable().openapi({ description: 'ΔП, %' }),
      rows: z.array(NormativeRow),
    }),
    losses: z.object({ len: z.number(), idle_len: z.number(), rest_len: z.number(), percent: z.number(), pareto: z.array(ParetoRow) }),
    takt: z.object({
      actual_day_len: z.number(),
      break_len: z.number(),
      product_num: z.number().nullable(),
      takt: z.number().nullable().openapi({ description: 'с на изделие; null без выпуска' }),
    }),
    balance: z
      .object({
        basis: z.enum(['shifts', 'observed']),
        observed_time: z.number(),
        shift_time: z.number(),
        regulated_break_time: z.number(),
        available_time: z.number(),
        work_time: z.number(),
        useful_time: z.number(),
        useful_percent: z.number(),
        covered_time: z.number(),
      })
      .openapi({ description: 'Баланс дня, с' }),
    days: z.array(ReportDayRow).openapi({ description: 'Смены-дни окна (одна запись — окно в пределах дня), секунды; их суммы — показатели окна' }),
    input_errors: z.array(InputErrorRow),
    cleaning_rule: z.string().openapi({ description: 'Правило очистки хроноряда словами' }),
    cleaning_mode: z.enum(['one_extreme', 'both_extremes']).openapi({ description: 'Правило очистки, выбранное у структуры' }),
    reference: z.object({ source: z.string(), edition: z.string(), is_default: z.boolean() }),
    ...notices,
    details: z.record(z.string(), z.unknown()).optional().openapi({ description: 'Только при details=1: полный результат движка отчётов (моменты — мс UTC)' }),
  })
  .openapi('StatementReport');

// ---------------------------------------------------------------- blocks (GET /api/v2/report, /api/v3/compute-report)

const pieSlice = z.object({
  key: z.string().openapi({ description: 'Код типа операции или id операции' }),
  name: z.string(),
  color: z.string(),
  value: z.number().openapi({ description: 'мин' }),
  percent: z.number(),
  type: categoryCode.optional(),
});

const tableColumn = z.object({
  key: z.string(),
  title: z.string(),
  unit: z.string().nullable(),
});
const cell = z.union([z.string(), z.number(), z.boolean(), z.null()]);

export const HeaderBlock = z
  .object({
    type: z.literal('header'),
    title: z.string(),
    subtitle: z.string(),
    structure: z.object({ id: z.number(), name: z.string(), partial: z.boolean() }),
    from_time: iso,
    to_time: iso,
    period: z.string().openapi({ example: '16.11.2026 00:00 — 17.11.2026 00:00' }),
    time_zone: z.string(),
  })
  .openapi('HeaderBlock');

export const ParagraphBlock = z
  .object({
    type: z.literal('paragraph'),
    title: z.string().nullable(),
    text: z.string(),
    tone: z.enum(['normal', 'notice']),
  })
  .openapi('ParagraphBlock');

export const TableBlock = z
  .object({
    type: z.literal('table'),
    title: z.string(),
    collapsible: z.boolean(),
    collapsed: z.boolean(),
    columns: z.array(tableColumn),
    rows: z.array(z.record(z.string(), cell)),
    total: z.record(z.string(), cell).nullable(),
  })
  .openapi('TableBlock');

export const DiagramBlock = z
  .object({
    type: z.literal('diagram'),
    title: z.string(),
    unit: z.literal('мин'),
    inner: z.array(pieSlice).openapi({ description: 'Внутреннее кольцо: типы операций' }),
    outer: z.array(pieSlice).openapi({ description: 'Внешнее кольцо: операции' }),
    label_min_percent: z.number().openapi({ description: 'Подписи только у долей больше этого процента' }),
    total: z.number(),
  })
  .openapi('DiagramBlock');

export const ParetoBlock = z
  .object({
    type: z.literal('pareto'),
    title: z.string(),
    unit: z.literal('мин'),
    bars: z.array(z.object({ key: z.string(), name: z.string(), type: categoryCode, value: z.number(), percent: z.number(), cumulative_percent: z.number() })),
    total: z.number(),
  })
  .openapi('ParetoBlock');

export const DoubleDiagramBlock = z
  .object({
    type: z.literal('double_diagram'),
    title: z.string(),
    unit: z.literal('мин'),
    left: z.object({ title: z.string(), slices: z.array(pieSlice) }),
    right: z.object({ title: z.string(), slices: z.array(pieSlice) }),
    productivity_rise: z.number().nullable(),
  })
  .openapi('DoubleDiagramBlock');

export const HumanBlock = z
  .object({
    type: z.literal('human'),
    title: z.string(),
    percent: z.number().openapi({ description: 'Полезное время, % T_набл — заливка фигуры' }),
    rows: z.array(z.object({ key: z.string(), name: z.string(), color: z.string(), value: z.number(), percent: z.number() })),
    total: z.object({ value: z.number(), percent: z.number() }),
  })
  .openapi('HumanBlock');

export const HumanProportionBlock = z
  .object({
    type: z.literal('human_proportion'),
    title: z.string(),
    groups: z.array(
      z.object({
        status: z.enum(['overloaded', 'balanced', 'underloaded']),
        name: z.string(),
        range: z.string(),
        count: z.number().int(),
        percent: z.number(),
        color: z.string(),
      }),
    ),
    total: z.number().int(),
  })
  .openapi('HumanProportionBlock');

export const GroupedBarBlock = z
  .object({
    type: z.literal('grouped_bar'),
    title: z.string(),
    unit: z.literal('мин'),
    stacked: z.boolean(),
    categories: z.array(z.string()).openapi({ description: 'Подписи столбцов (сотрудники)' }),
    series: z.array(z.object({ key: z.string(), name: z.string(), color: z.string(), values: z.array(z.number()) })),
    reference_line: z
      .object({ name: z.string(), values: z.array(z.number()) })
      .nullable()
      .openapi({ description: 'Нормативное рабочее время T_дост каждого сотрудника' }),
  })
  .openapi('GroupedBarBlock');

export const BlackDiagramBlock = z
  .object({
    type: z.literal('black_diagram'),
    title: z.string(),
    unit: z.literal('мин'),
    sectors: z.array(z.object({ hour: z.number().int(), label: z.string(), value: z.number(), idle: z.number(), rest: z.number() })),
    total: z.number(),
  })
  .openapi('BlackDiagramBlock');

export const ReportBlock = z
  .discriminatedUnion('type', [
    HeaderBlock,
    ParagraphBlock,
    TableBlock,
    DiagramBlock,
    ParetoBlock,
    DoubleDiagramBlock,
    HumanBlock,
    HumanProportionBlock,
    GroupedBarBlock,
    BlackDiagramBlock,
  ])
  .openapi('ReportBlock');

export const BlockReport = z.object({ blocks: z.array(ReportBlock) }).openapi('BlockReport');

// ---------------------------------------------------------------- interactive frv (GET /api/v2/frv)

const slot = z.object({ fromm: iso, to: iso });

export const VideoSegment = z
  .object({
    video_id: z.number(),
    video_segment: z.object({
      start: z.number().openapi({ description: 'с от начала видеофайла' }),
      end: z.number().openapi({ description: 'с от начала видеофайла' }),
    }),
    camera_id: z.number(),
    camera_key: z.number().int(),
    filename: z.string(),
  })
  .openapi('VideoSegment');

export const InteractiveFrv = z
  .object({
    structure: z.object({ name: z.string(), id: z.number() }),
    requested_slot: slot,
    items: z.array(
      z.object({
        operation_name: z.string(),
        operation_type: categoryCode,
        time_slot: slot.openapi({ description: 'Отрезок, обрезанный окном' }),
        duration: z.number().openapi({ description: 'с' }),
        video_segments: z.array(VideoSegment),
        id: z.number().openapi({ description: 'id отрезка разметки' }),
        number: z.number().int(),
        index: categoryIndex,
        operation_id: z.number(),
        employee_id: z.number().nullable(),
        employee_name: z.string().nullable(),
        workplace_name: z.string(),
      }),
    ),
    operation_types: z
      .array(z.object({ code: categoryCode, label: z.string(), color: z.string() }))
      .openapi({ description: 'Типы операций: подпись и цвет (один источник цветов для экрана)' }),
    time_zone: z.string().openapi({ description: 'Часовой пояс организации' }),
  })
  .openapi('InteractiveFrv');

// ---------------------------------------------------------------- dates, products, reference

export const ReportDates = z
  .object({
    dates: z.array(z.string()).openapi({ example: ['2026-11-16', '2026-11-17'] }),
    employees: z.record(z.string(), z.array(z.number())).openapi({ description: 'id сотрудников с разметкой по каждой дате' }),
    time_zone: z.string(),
  })
  .openapi('ReportDates');

export const ProductsBody = z
  .object({
    product_num: z
      .number()
      .int()
      .nonnegative()
      .max(1_000_000_000)
      .nullable()
      .openapi({ description: 'Выпуск, шт.; null — убрать ручное значение и считать по отметкам «продукт»' }),
    products_description: z.string().trim().max(1000).default(''),
  })
  .openapi('ProductsBody');

export const Products = z
  .object({
    product_num: z.number().int(),
    products_description: z.string(),
    source: z.enum(['manual', 'stamps']),
    stamp_count: z.number().int(),
  })
  .openapi('Products');

const productionType = z.enum(['mass', 'large_series', 'series', 'small_series']);
const workKind = z.enum(['manual', 'machine']);
const coefficient = z.number().min(1, 'Ку не меньше 1').max(10, 'Ку не больше 10');

export const ReferenceStabilityBody = z
  .object({
    source: z.string().trim().min(1, 'укажите источник').max(300),
    edition: z.string().trim().min(1, 'укажите редакцию').max(100),
    short_element_max_seconds: z.number().positive().max(3600).default(10),
    rows: z
      .array(
        z.object({
          production_type: productionType,
          work_kind: workKind,
          coef_short: coefficient,
          coef_long: coefficient,
          accuracy_percent: z.number().gt(0, 'точность больше 0').max(50, 'точность не больше 50 %'),
        }),
      )
      .length(8, 'нужны все 8 строк: 4 типа производства × ручная и машинная работа')
      .max(8, 'нужны все 8 строк: 4 типа производства × ручная и машинная работа'),
  })
  .superRefine((body, ctx) => {
    const seen = new Set<string>();
    body.rows.forEach((row, i) => {
      const key = `${row.production_type}/${row.work_kind}`;
      if (seen.has(key)) ctx.addIssue({ code: 'custom', path: ['rows', i], message: `строка ${key} повторяется` });
      seen.add(key);
    });
  })
  .openapi('ReferenceStabilityBody');

export const ReferenceStability = z
  .object({
    is_default: z.boolean(),
    source: z.string(),
    edition: z.string(),
    short_element_max_seconds: z.number(),
    updated_at: iso.nullable(),
    updated_by: z.string().nullable(),
    rows: z.array(
      z.object({
        production_type: productionType,
        production_type_label: z.string(),
        work_kind: workKind,
        work_kind_label: z.string(),
        coef_short: z.number(),
        coef_long: z.number(),
        accuracy_percent: z.number(),
      }),
    ),
  })
  .openapi('ReferenceStability');

// ---------------------------------------------------------------- share keys (POST /api/v1/generate_hash, GET /api/v1/resolve_hash/{key})

export const ShareHash = z.object({ hash: z.string().openapi({ description: 'Ключ: 192 случайных бита, base64url', example: 'q3Xw…' }) }).openapi('ShareHash');

/** spec 01 §3 "Share hash: structure_id, from_time, to_time" (+ what the shared screen shows). */
export const ResolvedShare = z
  .object({
    structure_id: z.number(),
    from_time: z.string().openapi({ format: 'date-time' }),
    to_time: z.string().openapi({ format: 'date-time' }),
    structure_name: z.string(),
    time_zone: z.string().openapi({ description: 'Часовой пояс организации: в нём показываются время и даты отчёта' }),
  })
  .openapi('ResolvedShare');

// ---------------------------------------------------------------- report inputs (GET /api/v1/report/inputs)

const ms = z.number().openapi({ description: 'Момент, мс UTC' });

/**
 * What the reports are assembled from (@norma/core-wasm/report). Field names are those of the
 * shared assembly code (camelCase), not of the spec: this is the engine's input, not a report.
 */
export const ReportInputs = z
  .object({
    from: ms,
    to: ms,
    employeeId: z.number().int().nullable().openapi({ description: 'Задан — только разметка и отметки этого сотрудника' }),
    structure: z.object({
      id: z.number().int(),
      name: z.string(),
      organizationId: z.number().int(),
      timeZone: z.string(),
      partial: z.boolean(),
      productionType: productionType,
      settings: z
        .object({
          employee_count: z.number().nullable(),
          employee_salary: z.number().nullable(),
          fluct_reduction: z.number().nullable(),
          regular_break_duration: z.number().openapi({ description: 'с' }),
          time_series_stability_threshold: z.number().nullable(),
          rest_in_idle: z.number().int(),
          cleaning_rule: z.enum(['one_extreme', 'both_extremes']),
        })
        .nullable(),
      shifts: z.array(
        z.object({
          name: z.string(),
          start_time: z.string(),
          end_time: z.string(),
          regular_break_duration_min: z.number(),
          breaks: z.array(z.object({ start_time: z.string(), end_time: z.string() })),
        }),
      ),
      reference: ReferenceStability,
      operationTypes: z.array(z.object({ code: categoryCode, label: z.string(), color: z.string() })),
    }),
    segments: z
      .array(
        z.object({
          id: z.number().int(),
          start: ms,
          end: ms,
          category: categoryCode,
          operationId: z.number().int(),
          operationName: z.string(),
          employeeId: z.number().int().openapi({ description: '0 — сотрудник не указан' }),
          machinePaced: z.boolean(),
          workplaceId: z.number().int(),
          videoId: z.number().int().nullable(),
        }),
      )
      .openapi({ description: 'Разметка окна по времени начала, затем id' }),
    employees: z.array(z.object({ id: z.number().int(), name: z.string() })),
    workplaces: z.array(z.object({ id: z.number().int(), name: z.string() })),
    stamps: z.array(z.object({ at: ms, employeeId: z.number().int() })).openapi({ description: 'Отметки «продукт» окна' }),
    manualUnits: z
      .array(z.object({ employeeId: z.number().int(), productNum: z.number(), productsDescription: z.string() }))
      .openapi({ description: 'Выпуск, введённый вручную ровно за это окно; employeeId 0 — вся структурная единица' }),
    videos: z
      .array(
        z.object({
          id: z.number().int(),
          cameraId: z.number().int(),
          cameraKey: z.number().int(),
          filename: z.string(),
          start: ms,
          end: ms,
        }),
      )
      .openapi({ description: 'Готовые видеофайлы, перекрывающие окно' }),
  })
  .openapi('ReportInputs');

export type StatementReportBody = z.infer<typeof StatementReport>;
export type BlockReportBody = z.infer<typeof BlockReport>;
export type InteractiveFrvBody = z.infer<typeof InteractiveFrv>;
