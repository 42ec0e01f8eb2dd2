import { afterEach, describe, expect, it, vi } from 'vitest';
import { api } from '../../api/client';
import type { CalculatorSettings } from '../../api/types';
import { initialForm, type CalculatorForm } from './model';
import { CalculatorSession, TYPING_PAUSE_MS } from './session';

const complete: CalculatorForm = {
  ...initialForm,
  productionType: 'series',
  employeesNum: '120',
  shiftsPerDay: '2',
  businessDayNum: '21',
  hoursPerShift: '8',
  averageSalary: '60000',
};

/** api.get answering by path; every call is listed. */
function fakeApi(answer: (path: string) => unknown) {
  const calls: string[] = [];
  vi.spyOn(api, 'get').mockImplementation(((path: string) => {
    calls.push(path);
    return Promise.resolve(answer(path));
  }) as typeof api.get);
  return calls;
}

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

describe('the calculator’s session', () => {
  it('a field set replaces the form and tells the subscribers', () => {
    const session = new CalculatorSession();
    let heard = 0;
    session.subscribe(() => heard++);
    const before = session.form;
    session.set('employeesNum', '12');
    expect(session.form).toEqual({ ...initialForm, employeesNum: '12' });
    expect(session.form).not.toBe(before);
    expect(heard).toBe(1);
  });

  it('without a production type there are no required measurements, and nothing is asked', () => {
    const calls = fakeApi(() => ({}));
    const session = new CalculatorSession();
    session.required = { measurements: 3 } as never;
    expect(session.loadRequired(null, false)).toBeUndefined();
    expect(session.required).toBeNull();
    expect(calls).toEqual([]);
  });

  it('an incomplete form has no outputs; a complete one is asked for once after the typing pause', async () => {
    vi.useFakeTimers();
    const calls = fakeApi((path) => ({ path }));
    const session = new CalculatorSession();
    expect(session.scheduleOutputs(initialForm, false)).toBeUndefined();
    expect(session.outputs).toBeNull();

    // Typing: each change cancels the request before it, so only the last one goes.
    session.scheduleOutputs({ ...complete, employeesNum: '1' }, false)!();
    session.scheduleOutputs(complete, false);
    await vi.advanceTimersByTimeAsync(TYPING_PAUSE_MS - 1);
    expect(calls).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toEqual(['/api/v2/get_calculator_public_output', '/api/v2/get_calculator_days', '/api/v2/get_calculator_measurement_graph']);
    expect(session.busy).toBe(false);
    expect(session.outputs).toMatchObject({ pub: { path: '/api/v2/get_calculator_public_output' }, priv: null, gear: null });
    expect(session.error).toBeNull();
  });

  it('a user who may see the private figures gets them too; a failed calculation says so and drops the outputs', async () => {
    vi.useFakeTimers();
    let fail = false;
    const calls = fakeApi((path) => {
      if (fail) throw new Error('нет связи');
      return { path };
    });
    const session = new CalculatorSession();
    session.scheduleOutputs(complete, true);
    await vi.advanceTimersByTimeAsync(TYPING_PAUSE_MS);
    expect(calls).toContain('/api/v2/get_calculator_private_output');
    expect(session.outputs?.gear).toEqual({ path: '/api/v2/get_calculator_gear_table' });
    fail = true;
    session.scheduleOutputs(complete, true);
    await vi.advanceTimersByTimeAsync(TYPING_PAUSE_MS);
    expect(session.outputs).toBeNull();
    expect(session.error).toBe('Расчёт не выполнен: нет связи');
    expect(session.busy).toBe(false);
  });

  it('a figure out of its bounds («-5» employees) is named at once and asks the server nothing', async () => {
    vi.useFakeTimers();
    const calls = fakeApi((path) => ({ path }));
    const session = new CalculatorSession();
    expect(session.scheduleOutputs({ ...complete, employeesNum: '-5' }, true)).toBeUndefined();
    await vi.advanceTimersByTimeAsync(TYPING_PAUSE_MS);
    expect(calls).toEqual([]);
    expect(session.outputs).toBeNull();
    expect(session.error).toBe('Число сотрудников должно быть целым числом от 1 до 100\u00a0000');
    // Corrected, the figures are asked for and the message goes.
    session.scheduleOutputs(complete, false);
    await vi.advanceTimersByTimeAsync(TYPING_PAUSE_MS);
    expect(calls).toContain('/api/v2/get_calculator_public_output');
    expect(session.error).toBeNull();
  });

  it('the settings panels come only for those the server lets edit; an answer after cancelling is dropped', async () => {
    fakeApi((path) =>
      path === '/api/v2/get_calculator_gear_defaults'
        ? { can_edit: true, can_view_private: true }
        : path === '/api/v2/get_calculator_defaults'
          ? { defaults: { a: 1 } }
          : { license: { b: 2 } },
    );
    const session = new CalculatorSession();
    session.loadAccess();
    await vi.waitFor(() => expect(session.settings).not.toBeNull());
    expect(session.access).toEqual({ canEdit: true, canViewPrivate: true });
    expect(session.settings).toMatchObject({ can_edit: true, defaults: { a: 1 }, license: { b: 2 } });

    const late = new CalculatorSession();
    late.loadAccess()();
    await Promise.resolve();
    await Promise.resolve();
    expect(late.access).toEqual({ canEdit: false, canViewPrivate: false });
  });

  it('saved settings are kept and bump the version the outputs are asked for again with', () => {
    const session = new CalculatorSession();
    const reply = { can_edit: true } as CalculatorSettings;
    session.settingsSaved(reply);
    expect(session.settings).toBe(reply);
    expect(session.settingsVersion).toBe(1);
  });
});
