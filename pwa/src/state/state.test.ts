import { beforeEach, describe, expect, it } from 'vitest';
import { addOperation, editOperation, loadOperations, operations, removeOperation } from './operations';
import { editParameter, projectParameters, setRestInIdle } from './projectParameters';
import { addShift, editShift, loadShifts, projectShifts, removeShift } from './projectShifts';
import { setEmployees, structureData } from './structureData';
import { buildTree, pathTo } from './structures';
import { registrationError } from '../screens/registration/validate';
import { markup } from './markup';

describe('client-state defaults (spec 02 §3, §9)', () => {
  it('starts at markup page 1 with an empty search', () => {
    expect(markup).toMatchObject({ currentPage: 1, searchPattern: '' });
  });
});

describe('operations store (spec 02 §4)', () => {
  beforeEach(() =>
    loadOperations(
      [
        { id: 5, name: 'Сборка', referencePoint: 'старт', type: 'main' },
        { id: 6, name: 'Отдых', referencePoint: '', type: 'rest' },
      ],
      { main: 'Основная', rest: 'Отдых' },
    ),
  );

  it('load replaces the list and clears the delete list', () => {
    removeOperation(0);
    expect(operations.toDelete).toEqual([5]);
    loadOperations([], { main: 'Основная' });
    expect(operations.list).toEqual([]);
    expect(operations.toDelete).toEqual([]);
  });

  it('adds a blank operation with the first available type and no id', () => {
    addOperation();
    expect(operations.list.at(-1)).toEqual({ name: '', referencePoint: '', type: 'main' });
  });

  it('remembers ids of removed saved items only', () => {
    addOperation();
    removeOperation(2);
    removeOperation(1);
    expect(operations.toDelete).toEqual([6]);
    expect(operations.list.map((o) => o.id)).toEqual([5]);
  });

  it('edits name, reference point and type', () => {
    editOperation(0, { name: 'Сборка узла', type: 'rest' });
    expect(operations.list[0]).toMatchObject({ name: 'Сборка узла', referencePoint: 'старт', type: 'rest' });
  });
});

describe('shifts store (spec 02 §4)', () => {
  beforeEach(() => loadShifts([{ index: 1, gaps: 70, name: 'Дневная', timeStart: '08:00:00', timeFinish: '17:00:00' }]));

  it('adds a blank shift with index -1, gaps 0 and times 00:00:00', () => {
    addShift();
    expect(projectShifts.shifts[1]).toEqual({ index: -1, gaps: 0, name: '', timeStart: '00:00:00', timeFinish: '00:00:00' });
  });

  it('falls back: empty gaps become 0, empty name and times keep the old values', () => {
    editShift(0, { gaps: '', name: '', timeStart: '', timeFinish: '18:00:00' });
    expect(projectShifts.shifts[0]).toEqual({ index: 1, gaps: 0, name: 'Дневная', timeStart: '08:00:00', timeFinish: '18:00:00' });
    editShift(0, { gaps: '45' });
    expect(projectShifts.shifts[0]!.gaps).toBe(45);
  });

  it('removes by index', () => {
    addShift();
    removeShift(0);
    expect(projectShifts.shifts.map((s) => s.index)).toEqual([-1]);
  });
});

describe('parameters store (spec 02 §4, §5)', () => {
  it('keeps the old value when none is given, parses integers, and becomes undefined for non-numbers', () => {
    editParameter('employeeCount', '12');
    expect(projectParameters.employeeCount).toBe(12);
    editParameter('employeeCount', '');
    expect(projectParameters.employeeCount).toBe(12);
    editParameter('employeeCount', '7.9');
    expect(projectParameters.employeeCount).toBe(7);
    editParameter('employeeCount', 'много');
    expect(projectParameters.employeeCount).toBeUndefined();
    setRestInIdle(true);
    expect(projectParameters.restInIdle).toBe(true);
  });
});

describe('structure data', () => {
  it('selects the first employee after an update, or 0 when there is none', () => {
    setEmployees([
      { id: 9, name: 'Б' },
      { id: 3, name: 'А' },
    ]);
    expect(structureData.selectedEmployee).toBe(9);
    setEmployees([]);
    expect(structureData.selectedEmployee).toBe(0);
  });
});

describe('structure tree', () => {
  const list = [
    { id: 1, name: 'Завод', parent_id: null },
    { id: 2, name: 'Цех Б', parent_id: 1 },
    { id: 3, name: 'Цех А', parent_id: 1 },
    { id: 4, name: 'Участок', parent_id: 3 },
    { id: 5, name: 'Сирота', parent_id: 99 },
  ];
  it('builds nested, name-sorted children and keeps orphans as roots', () => {
    const tree = buildTree(list);
    expect(tree.map((n) => n.name)).toEqual(['Завод', 'Сирота']);
    expect(tree[0]!.children.map((n) => n.name)).toEqual(['Цех А', 'Цех Б']);
    expect(tree[0]!.children[0]!.children[0]!.name).toBe('Участок');
  });
  it('finds the path from the root to a node', () => {
    expect(pathTo(list, 4)).toEqual([1, 3, 4]);
  });
});

describe('registration validation (spec 01 §5)', () => {
  const filled = { login: 'a', firstName: 'b', lastName: 'c', password: 'p', repeatPassword: 'p' };
  it('asks to fill every field', () => {
    expect(registrationError({ ...filled, lastName: '  ' })).toBe('Заполните все поля');
  });
  it('checks that the passwords match', () => {
    expect(registrationError({ ...filled, repeatPassword: 'q' })).toBe('Пароли не совпадают');
  });
  it('applies no length or format rule', () => {
    expect(registrationError(filled)).toBeNull();
  });
});
