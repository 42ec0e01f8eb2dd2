/** Shapes and constants of the task list (spec 01 §3 "Task row", §9). */
import type { TaskList, TaskOption } from '../../api/types';

export type { TaskOption, TaskRow } from '../../api/types';
/** A page of GET /api/v1/get_tasks. */
export type TaskPage = TaskList;
export const CAMERA_KEYS = [1, 2, 3, 4] as const;

export const taskTabs: { key: TaskOption; label: string }[] = [
  { key: 'all', label: 'Все' },
  { key: 'finished', label: 'Завершённые' },
  { key: 'unfinished', label: 'Незавершённые' },
];

export const DUMP_NEEDS_DATE_AND_CAMERA = 'Нужно выбрать дату и камеру';
