import { z } from '@hono/zod-openapi';
import { idParam, decimalInt } from '../http/params';

export const TASK_PAGE_LIMIT = 100;

export const TasksQuery = z.object({
  structure_id: idParam,
  option: z.enum(['all', 'finished', 'unfinished']).default('all'),
  offset: decimalInt(0, 1_000_000_000).default(0),
  limit: decimalInt(1, TASK_PAGE_LIMIT).default(30),
  filename_pattern: z.string().max(200).optional(),
});

export const TaskRow = z
  .object({
    video: z.object({
      id: z.number(),
      filename: z.string(),
      comment: z.string(),
      damage: z.string().nullable().openapi({ description: 'Почему запись повреждена, иначе null' }),
      start_time: z.string().openapi({ format: 'date-time', description: 'Начало записи' }),
      start_source: z.enum(['file_name', 'creation_time', 'file_time', 'manual', 'unknown']).openapi({ description: 'Откуда начало записи' }),
      start_confirmed: z.boolean().openapi({ description: 'Начало подтвердил человек (или оно из имени файла регистратора)' }),
    }),
    status: z.object({
      finished: z.boolean(),
      completion_percentage: z.number().openapi({ description: 'Покрытие видео разметкой, % (0–100, один знак)' }),
      happened_at: z.string().nullable().openapi({ format: 'date-time', description: 'Когда завершена, иначе последнее действие' }),
    }),
    author: z.object({ first_name: z.string(), last_name: z.string() }).nullable(),
  })
  .openapi('TaskRow');

export const TaskList = z.object({ elements: z.array(TaskRow), total: z.number() }).openapi('TaskList');
export const TaskIdParam = z.object({ id: idParam });
export const TaskVideoParam = z.object({ videoId: idParam });
export const Message = z.object({ message: z.string() });

export const DumpQuery = z.object({
  structure_id: idParam,
  camera_key: z.string().max(20).optional().openapi({ example: '1', description: '1, 2, 3 или 4' }),
  date: z.string().max(10).optional().openapi({ example: '2026-11-16', description: 'год-месяц-день' }),
  format: z.string().max(10).optional().openapi({ example: 'tsv' }),
});
