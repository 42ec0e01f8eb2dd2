import { z } from '@hono/zod-openapi';

export const StructureSchema = z.object({ id: z.number(), name: z.string(), parent_id: z.number().nullable() }).openapi('Structure');
export const NamedItem = z.object({ id: z.number(), name: z.string() });
export const StructureQuery = z.object({ structure_id: z.coerce.number().int().positive().openapi({ example: 3 }) });

export const VideoOrStructureQuery = z.object({
  structure_id: z.coerce.number().int().positive().optional(),
  video_id: z.coerce.number().int().positive().optional(),
});
