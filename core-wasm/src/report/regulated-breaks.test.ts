/**
 * A regulated break interval is the break, once (docs/methodology.md, «Потери»): fill gaps leaves
 * it unmarked, Table 6 lists it as the break and never as a gap, and idle marked inside it is not
 * a loss — in the statement, the block report and the engine (WASM and the reference alike).
 */
import { describe, expect, it } from 'vitest';
import * as wasm from '../index.ts';
import * as reference from '../../test-support/reference.ts';
import type { Category, ReportSettings, Segment } from '../types.ts';
import { assembleBlockReport } from './blocks.ts';
import type { ReportInputs, ReportSegment, StructureContext } from './inputs.ts';
import { assembleStatement } from './statement.ts';
import { partsOutside, shiftBreakIntervals } from './window.ts';

/** Local time of Moscow (UTC+3) on 2 March 2026, as an instant. */
const msk = (hhmm: string) => Date.parse(`2026-03-02T${hhmm}:00+03:00`);
const H = 3_600_000;

const lunchShift = {
  name: 'Дневная',
  start_time: '08:00:00',
  end_time: '17:00:00',
  regular_break_duration_min: 60,
  breaks: [{ start_time: '12:00:00', end_time: '13:00:00' }],
};

describe('fill gaps around a 12:00–13:00 break', () => {
  const breaks = shiftBreakIntervals([lunchShift], 'Europe/Moscow', msk('00:00'), msk('23:59'));

  it('finds the lunch of the day in absolute time', () => {
    expect(breaks).toEqual([{ start: msk('12:00'), end: msk('13:00') }]);
  });

  it('splits a gap over the lunch around it and leaves a gap inside it empty', () => {
    expect(partsOutside([{ start: msk('11:30'), end: msk('14:00') }], breaks)).toEqual([
      { start: msk('11:30'), end: msk('12:00') },
      { start: msk('13:00'), end: msk('14:00') },
    ]);
    expect(partsOutside([{ start: msk('12:10'), end: msk('12:50') }], breaks)).toEqual([]);
    expect(partsOutside([{ start: msk('12:00'), end: msk('13:00') }], breaks)).toEqual([]);
    // A gap that only touches the break is left as it is.
    expect(partsOutside([{ start: msk('13:00'), end: msk('13:20') }], breaks)).toEqual([{ start: msk('13:00'), end: msk('13:20') }]);
  });

  it('finds a night shift’s break after midnight on the next day', () => {
    const night = {
      name: 'Ночная',
      start_time: '22:00:00',
      end_time: '06:00:00',
      regular_break_duration_min: 30,
      breaks: [{ start_time: '02:00:00', end_time: '02:30:00' }],
    };
    const found = shiftBreakIntervals([night], 'Europe/Moscow', msk('20:00'), msk('20:00') + 12 * H);
    expect(found).toEqual([{ start: msk('02:00') + 24 * H, end: msk('02:30') + 24 * H }]);
  });
});

function context(restInIdle = 0): StructureContext {
  return {
    id: 1,
    name: 'Участок',
    organizationId: 1,
    timeZone: 'Europe/Moscow',
    partial: false,
    productionType: 'mass',
    settings: {
      employee_count: 1,
      employee_salary: 60_000,
      fluct_reduction: 0,
      regular_break_duration: 4200,
      time_series_stability_threshold: null,
      rest_in_idle: restInIdle,
      cleaning_rule: 'one_extreme',
    },
    shifts: [lunchShift],
    reference: { is_default: true, source: 'default', edition: 'default', short_element_max_seconds: 10, updated_at: null, updated_by: null, rows: [] },
    operationTypes: [],
  };
}

let nextId = 1;
function segment(operationId: number, category: Category, from: string, to: string): ReportSegment {
  return {
    id: nextId++,
    start: msk(from),
    end: msk(to),
    category,
    operationId,
    operationName: operationId === 1 ? 'Сборка' : operationId === 2 ? 'Простой' : 'Отдых',
    employeeId: 7,
    machinePaced: false,
    workplaceId: 1,
    videoId: null,
  };
}

function inputs(segments: ReportSegment[], restInIdle = 0): ReportInputs {
  return {
    from: msk('00:00'),
    to: msk('00:00') + 24 * H,
    employeeId: null,
    structure: context(restInIdle),
    segments,
    employees: [{ id: 7, name: 'Иванов' }],
    workplaces: [{ id: 1, name: 'Стол' }],
    stamps: [],
    manualUnits: [],
    videos: [],
  };
}

const iso = (hhmm: string) => new Date(msk(hhmm)).toISOString();

describe('the reports count a regulated break once', () => {
  const workday = (lunch: ReportSegment[]) => [segment(1, 'main', '08:00', '12:00'), ...lunch, segment(1, 'main', '13:00', '17:00')];

  it('an unmarked lunch is the break in Table 6, not a gap as well', () => {
    const report = assembleStatement(inputs(workday([])), 7);
    expect(report.breaks).toEqual([{ type: 'regulated', start_datetime: iso('12:00'), end_datetime: iso('13:00'), len: 3600 }]);
    expect(report.losses.len).toBe(0);
  });

  it('idle marked over the lunch is the break: no loss in the statement, the block report and its money', () => {
    const report = assembleStatement(inputs(workday([segment(2, 'idle', '12:00', '13:00')])), 7);
    expect(report.breaks).toEqual([{ type: 'regulated', start_datetime: iso('12:00'), end_datetime: iso('13:00'), len: 3600 }]);
    expect(report.loading.regulated_break_time).toBe(60);
    expect(report.losses).toMatchObject({ len: 0, idle_len: 0, rest_len: 0, pareto: [] });
    // The idle minutes stay in the balance as marked; the screen says why they are not a loss.
    expect(report.slices.find((s) => s.type === 'idle')!.len).toBe(3600);
    expect(report.notices.some((n) => n.startsWith('Простой внутри регламентированных перерывов смены (1 ч) потерями не считается'))).toBe(true);

    const blocks = assembleBlockReport(inputs(workday([segment(2, 'idle', '12:00', '13:00')]))).blocks as any[];
    expect(blocks.find((b) => b.type === 'pareto').total).toBe(0);
    expect(blocks.find((b) => b.type === 'black_diagram').total).toBe(0);
    const summary = blocks.find((b) => b.type === 'paragraph' && typeof b.text === 'string' && b.text.includes('Потери —'));
    expect(summary?.text ?? '').not.toMatch(/Потери — 1 ч/);
    expect(blocks.some((b) => b.type === 'paragraph' && String(b.text).includes('Простой внутри регламентированных перерывов смены (1 ч)'))).toBe(true);
  });

  it('idle that runs over the lunch is a loss only outside it, hour by hour', () => {
    const day = () => [segment(1, 'main', '08:00', '11:30'), segment(2, 'idle', '11:30', '13:00'), segment(1, 'main', '13:00', '17:00')];
    const report = assembleStatement(inputs(day()), 7);
    expect(report.losses.len).toBe(30 * 60);
    expect(report.losses.idle_len).toBe(30 * 60);
    const blocks = assembleBlockReport(inputs(day())).blocks as any[];
    const rose = blocks.find((b) => b.type === 'black_diagram');
    expect(rose.total).toBe(30);
    expect(rose.sectors.find((s: { hour: number }) => s.hour === 11).idle).toBe(30);
    expect(rose.sectors.find((s: { hour: number }) => s.hour === 12).idle).toBe(0);
  });
});

describe.each([
  ['wasm', wasm],
  ['reference', reference],
] as const)('%s: idle and rest inside a break interval', (_name, engine) => {
  const seg = (from: string, to: string, category: Category, operationId: number): Segment => ({
    start: msk(from),
    end: msk(to),
    category,
    operationId,
    operationName: `Операция ${operationId}`,
    employeeId: 1,
  });
  const settings = (restInIdle: boolean): ReportSettings => ({
    from: msk('08:00'),
    to: msk('17:00'),
    structure: { restInIdle, shifts: [{ start: msk('08:00'), end: msk('17:00'), breaks: [{ start: msk('12:00'), end: msk('13:00') }] }] },
  });

  it('takes the break’s share of B_reg: rest elsewhere above what is left of it is a loss', () => {
    const d = engine.dayBalance(
      [seg('08:00', '12:00', 'main', 1), seg('12:00', '13:00', 'idle', 2), seg('13:00', '13:30', 'rest', 3), seg('13:30', '17:00', 'main', 1)],
      settings(false),
    );
    expect(d.regulatedBreakSeconds).toBe(3600);
    expect(d.losses).toMatchObject({ idleSeconds: 0, idleInBreakSeconds: 3600, restSeconds: 1800, seconds: 1800 });
    expect(d.losses.pareto.map((p) => [p.operationId, p.seconds])).toEqual([[3, 1800]]);
  });

  it('with rest_in_idle, rest inside the break is no loss, rest outside it is', () => {
    const d = engine.dayBalance(
      [seg('08:00', '12:00', 'main', 1), seg('12:00', '13:00', 'rest', 3), seg('13:00', '13:20', 'rest', 3), seg('13:20', '17:00', 'main', 1)],
      settings(true),
    );
    expect(d.losses).toMatchObject({ idleSeconds: 0, restSeconds: 1200, seconds: 1200 });
    expect(d.days[0]).toMatchObject({ restInBreakSeconds: 3600, restLossSeconds: 1200 });
  });

  it('counts idle outside every break as before', () => {
    const d = engine.dayBalance([seg('08:00', '11:00', 'main', 1), seg('11:00', '11:45', 'idle', 2), seg('11:45', '12:00', 'main', 1)], settings(false));
    expect(d.losses).toMatchObject({ idleSeconds: 2700, idleInBreakSeconds: 0, seconds: 2700 });
  });
});
