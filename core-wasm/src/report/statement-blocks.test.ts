import { describe, expect, it } from 'vitest';
import type { Category } from '../types.ts';
import { assembleBlockReport } from './blocks.ts';
import type { ReportInputs, ReportSegment, StructureContext } from './inputs.ts';
import { assembleStatement, gapRanges, tableSixRows } from './statement.ts';

/** Hand-built report inputs in UTC, so the hours below are the instants' own. */
const at = (text: string) => Date.parse(`${text}Z`);

function context(overrides: Partial<StructureContext> = {}): StructureContext {
  return {
    id: 1,
    name: 'Участок',
    organizationId: 1,
    timeZone: 'UTC',
    partial: false,
    productionType: 'mass',
    settings: {
      employee_count: 1,
      employee_salary: 0,
      fluct_reduction: 0,
      regular_break_duration: 1200,
      time_series_stability_threshold: null,
      rest_in_idle: 0,
      cleaning_rule: 'one_extreme',
    },
    shifts: [{ name: 'Смена', start_time: '08:00:00', end_time: '12:00:00', regular_break_duration_min: 20, breaks: [] }],
    reference: { is_default: false, source: 'Справочник цеха', edition: '2026', short_element_max_seconds: 10, updated_at: null, updated_by: null, rows: [] },
    operationTypes: [],
    ...overrides,
  };
}

let nextId = 1;
function segment(operationId: number, category: Category, from: string, to: string, machinePaced = false): ReportSegment {
  return {
    id: nextId++,
    start: at(from),
    end: at(to),
    category,
    operationId,
    operationName: operationId === 1 ? 'Сборка' : operationId === 2 ? 'Ожидание' : 'Штамповка',
    employeeId: 7,
    machinePaced,
    workplaceId: 1,
    videoId: null,
  };
}

function inputs(structure: StructureContext, segments: ReportSegment[], from: string, to: string): ReportInputs {
  return {
    from: at(from),
    to: at(to),
    employeeId: null,
    structure,
    segments,
    employees: [{ id: 7, name: 'Иванов' }],
    workplaces: [{ id: 1, name: 'Стол' }],
    stamps: [],
    manualUnits: [],
    videos: [],
  };
}

// Shift 08:00–12:00. Day 1: 08:00–10:00, 10:00–10:30, 10:45–11:50; day 2: 08:30–11:00.
const twoDays = () => [
  segment(1, 'main', '2026-03-02T08:00:00', '2026-03-02T10:00:00'),
  segment(2, 'idle', '2026-03-02T10:00:00', '2026-03-02T10:30:00'),
  segment(1, 'main', '2026-03-02T10:45:00', '2026-03-02T11:50:00'),
  segment(1, 'main', '2026-03-03T08:30:00', '2026-03-03T11:00:00'),
];
const gap = (from: string, to: string) => ({
  type: 'gap',
  start_datetime: new Date(at(from)).toISOString(),
  end_datetime: new Date(at(to)).toISOString(),
  len: (at(to) - at(from)) / 1000,
});

describe('Table 6 of a window longer than a day', () => {
  it('lists the unmarked time of each day’s shift, never the night between the days', () => {
    const report = assembleStatement(inputs(context(), twoDays(), '2026-03-02T00:00:00', '2026-03-04T00:00:00'), 7);
    expect(report.days).toHaveLength(2);
    // Not 00:00–08:00, not 12:00 (2 March) – 08:00 (3 March), not 12:00–24:00 of 3 March; and not
    // the unobserved ends of the shifts (11:50–12:00, 08:00–08:30, 11:00–12:00: METHODOLOGY §6).
    expect(report.breaks).toEqual([gap('2026-03-02T10:30:00', '2026-03-02T10:45:00')]);
    // 15 minutes = the observed parts of the shifts (08:00–11:50 and 08:30–11:00, 380 min) less the marked 365.
    expect(report.breaks.reduce((a, b) => a + b.len, 0)).toBe((380 - 365) * 60);
    expect(report.notices.some((n) => n.includes('наблюдение 08:30–11:00'))).toBe(true);
  });

  it('without shifts, looks between the first and the last segment of each day', () => {
    const report = assembleStatement(inputs(context({ shifts: [] }), twoDays(), '2026-03-02T00:00:00', '2026-03-04T00:00:00'), 7);
    expect(report.loading.basis).toBe('observed');
    // Day 2 is one segment, so it has no gap; day 1 has the 15 minutes between its segments.
    expect(report.breaks).toEqual([gap('2026-03-02T10:30:00', '2026-03-02T10:45:00')]);
  });

  it('merges overlapping shifts and keeps regulated breaks as they are, in time order', () => {
    const shift = (start: string, end: string) => ({ start: at(start), end: at(end), breakMinutes: 0, name: 'С', startText: '', endText: '' });
    const ranges = gapRanges(
      context(),
      [shift('2026-03-02T08:00:00', '2026-03-02T12:00:00'), shift('2026-03-02T11:00:00', '2026-03-02T14:00:00')],
      [],
      at('2026-03-02T09:00:00'),
      at('2026-03-03T00:00:00'),
    );
    expect(ranges).toEqual([{ start: at('2026-03-02T09:00:00'), end: at('2026-03-02T14:00:00') }]);
    const rows = tableSixRows(
      [
        { type: 'gap', start: at('2026-03-02T00:00:00'), end: at('2026-03-02T10:00:00'), seconds: 36000 },
        { type: 'regulated', start: at('2026-03-02T09:30:00'), end: at('2026-03-02T09:40:00'), seconds: 600 },
        { type: 'gap', start: at('2026-03-02T13:00:00'), end: at('2026-03-02T20:00:00'), seconds: 25200 },
      ],
      ranges,
    );
    // The unmarked time inside the regulated break is the break, listed once (not a gap too).
    expect(rows).toEqual([
      { type: 'gap', start: at('2026-03-02T09:00:00'), end: at('2026-03-02T09:30:00'), seconds: 1800 },
      { type: 'regulated', start: at('2026-03-02T09:30:00'), end: at('2026-03-02T09:40:00'), seconds: 600 },
      { type: 'gap', start: at('2026-03-02T09:40:00'), end: at('2026-03-02T10:00:00'), seconds: 1200 },
      { type: 'gap', start: at('2026-03-02T13:00:00'), end: at('2026-03-02T14:00:00'), seconds: 3600 },
    ]);
  });
});

describe('the block report names its time-study rule', () => {
  const blocksOf = (structure: StructureContext) =>
    assembleBlockReport(
      inputs(structure, [...twoDays(), segment(3, 'main', '2026-03-02T11:50:00', '2026-03-02T11:51:00', true)], '2026-03-02T00:00:00', '2026-03-04T00:00:00'),
    ).blocks;
  const table = (blocks: ReturnType<typeof blocksOf>) => blocks.find((b) => b.type === 'table' && b.title === 'Хронометраж основных операций') as any;
  const rule = (blocks: ReturnType<typeof blocksOf>) => blocks.find((b) => b.type === 'paragraph' && b.title === 'Правило хронометража') as any;

  it('states the cleaning rule and the source of each operation’s normative Ку', () => {
    const blocks = blocksOf(context());
    expect(rule(blocks).text).toMatch(/^Очистка хроноряда — по одному крайнему замеру \(выбрано в настройках структуры\)\. Пока коэффициент/);
    expect(table(blocks).columns.find((c: { key: string }) => c.key === 'normative_source').title).toBe('Источник Ку');
    expect(table(blocks).rows.map((r: { name: string; normative_source: string }) => [r.name, r.normative_source])).toEqual([
      ['Сборка', 'справочник (Справочник цеха, 2026): массовое производство, ручная работа'],
      ['Штамповка', 'справочник (Справочник цеха, 2026): массовое производство, машинная работа'],
    ]);
  });

  it('names the other cleaning rule and the structure’s threshold when they are chosen', () => {
    const blocks = blocksOf(context({ settings: { ...context().settings!, cleaning_rule: 'both_extremes', time_series_stability_threshold: 1.3 } }));
    expect(rule(blocks).text).toContain('Очистка хроноряда — минимальный и максимальный замеры вместе');
    const assembly = table(blocks).rows.find((r: { name: string }) => r.name === 'Сборка');
    expect(assembly).toMatchObject({ normative_coef: 1.3, normative_source: 'порог устойчивости структуры' });
  });
});
