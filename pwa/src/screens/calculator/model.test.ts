import { describe, expect, it } from 'vitest';
import { calculatorQuery, changedValues, initialForm, inputProblem, measurementsReady, outputsReady, type CalculatorForm } from './model';

const complete: CalculatorForm = { ...initialForm, employeesNum: '20', shiftsPerDay: '2', businessDayNum: '21', hoursPerShift: '8', averageSalary: '60000' };

describe('calculator form rules (spec 02 §5, §9)', () => {
  it('starts with insurance on, visible on, unseen 0 and no production type', () => {
    expect(initialForm).toMatchObject({ insuranceAndPension: true, visible: true, unseen: '0', productionType: null });
  });

  it('asks for outputs only when the five company fields are filled and visible is on or unseen is not 0', () => {
    expect(outputsReady(initialForm)).toBe(false);
    expect(outputsReady(complete)).toBe(true);
    for (const key of ['employeesNum', 'shiftsPerDay', 'businessDayNum', 'hoursPerShift', 'averageSalary'] as const) {
      expect(outputsReady({ ...complete, [key]: ' ' }), key).toBe(false);
    }
    expect(outputsReady({ ...complete, visible: false })).toBe(false);
    expect(outputsReady({ ...complete, visible: false, unseen: '' })).toBe(false);
    expect(outputsReady({ ...complete, visible: false, unseen: '3' })).toBe(true);
  });

  it('asks for required measurements only once a production type is chosen', () => {
    expect(measurementsReady(complete)).toBe(false);
    expect(measurementsReady({ ...complete, productionType: 'mass' })).toBe(true);
  });

  it('sends the inputs under the API’s names', () => {
    expect(calculatorQuery({ ...complete, productionType: 'mass', less10Sec: true, unseen: '' })).toEqual({
      production_type: 'mass',
      less_10_sec: true,
      employees_num: '20',
      shifts_per_day: '2',
      business_day_num: '21',
      hours_per_shift: '8',
      average_salary: '60000',
      insurance_and_pension: true,
      visible: true,
      unseen: '0',
    });
  });
});

describe('administrator edits (spec 02 §4: only changed values)', () => {
  it('sends only the values that differ from the server’s, reading a decimal comma', () => {
    expect(
      changedValues([
        { name: 'rewind_speed', value: 2, text: '2' },
        { name: 'hour_markup_price', value: 500, text: '1000' },
        { name: 'camera_install_hours', value: 1.5, text: '1,75' },
        { name: 'insurance', value: 30, text: ' 30.0 ' },
      ]),
    ).toEqual({
      changes: [
        { name: 'hour_markup_price', new_value: 1000 },
        { name: 'camera_install_hours', new_value: 1.75 },
      ],
      problems: [],
    });
  });

  it('names what is not a number and sends nothing for it', () => {
    const { changes, problems } = changedValues([
      { name: 'car_price', value: 1500, text: 'дорого' },
      { name: 'conv', value: 30, text: '' },
    ]);
    expect(changes).toEqual([]);
    expect(problems).toEqual(['car_price: «дорого» — не число', 'conv: введите число']);
  });
});

describe('company figures out of their bounds', () => {
  it('names what is wrong with the figure (issue 41: «-5» employees), with the bounds written as the screen writes numbers', () => {
    expect(inputProblem(complete)).toBeNull();
    expect(inputProblem(initialForm)).toBeNull();
    expect(inputProblem({ ...complete, employeesNum: '-5' })).toBe('Число сотрудников должно быть целым числом от 1 до 100\u00a0000');
    expect(inputProblem({ ...complete, employeesNum: '2,5' })).toBe('Число сотрудников должно быть целым числом от 1 до 100\u00a0000');
    expect(inputProblem({ ...complete, shiftsPerDay: '5' })).toBe('Число смен в сутки должно быть целым числом от 1 до 4');
    expect(inputProblem({ ...complete, hoursPerShift: 'восемь' })).toBe('Число часов в смене должно быть числом от 0,5 до 24');
    expect(inputProblem({ ...complete, hoursPerShift: '7,5' })).toBeNull();
    expect(inputProblem({ ...complete, averageSalary: '0' })).toBe('Средняя зарплата в месяц, ₽, должна быть числом от 1 до 100\u00a0000\u00a0000');
    expect(inputProblem({ ...complete, unseen: '-1' })).toBe('Число рабочих мест вне обзора камер должно быть целым числом от 0 до 100\u00a0000');
  });
});
