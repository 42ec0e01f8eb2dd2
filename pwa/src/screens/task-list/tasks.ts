/** Shapes and constants of the task list (spec 01 §3 "Task row", §9). */
export const TASK_PAGE_SIZE = 30;
export const CAMERA_KEYS = [1, 2, 3, 4] as const;

export type TaskOption = 'all' | 'finished' | 'unfinished';

export const taskTabs: { option: TaskOption; label: string }[] = [
  { option: 'all', label: 'Все' },
  { option: 'finished', label: 'Завершённые' },
  { option: 'unfinished', label: 'Незавершённые' },
];

export interface TaskRow {
  video: { id: number; filename: string; comment: string };
  status: { finished: boolean; completion_percentage: number; happened_at: string | null };
  author: { first_name: string; last_name: string } | null;
}

export interface TaskPage {
  elements: TaskRow[];
  total: number;
}

export const pageOffset = (page: number) => (page - 1) * TASK_PAGE_SIZE;

export const DUMP_NEEDS_DATE_AND_CAMERA = 'You need to choose a date and a camera';
