import type { ZodType } from 'zod';
import { prepareDrawing } from '../map/drawing';
import { DrawnCollection } from '../map/schema';
import { PeriodMarkupsSave } from '../markup/period-markups.schema';
import { VideoMarkupsSave } from '../markup/schema';
import { MAX_REPORTED_ISSUES, validationMessage } from './errors';

/** The large documents whose bodies are read and checked on the document thread. */
export type DocumentSchema = 'video_markups' | 'operation_markups' | 'drawing';

/**
 * Documents whose route takes the prepared form (documentValue) instead of the checked value: the
 * route's own validator does not check the body again. A drawing becomes the texts to store
 * (map/drawing.ts).
 */
export const PREPARED_DOCUMENTS: ReadonlySet<DocumentSchema> = new Set(['drawing']);

export type DocumentResult = { value: unknown } | { bad: { code: string; message: string; details?: unknown } };

const schemas: Record<DocumentSchema, ZodType> = { video_markups: VideoMarkupsSave, operation_markups: PeriodMarkupsSave, drawing: DrawnCollection };

/** Reads and checks one document body: on the document thread, or in place when there is none. */
export function readDocument(schema: DocumentSchema, bytes: ArrayBuffer): DocumentResult {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder().decode(bytes));
  } catch (err) {
    return { bad: { code: 'bad_request', message: `Некорректный запрос: тело не JSON (${err instanceof Error ? err.message : String(err)})` } };
  }
  const result = schemas[schema].safeParse(value);
  if (!result.success) {
    return { bad: { code: 'validation_failed', message: validationMessage(result.error), details: result.error.issues.slice(0, MAX_REPORTED_ISSUES) } };
  }
  if (schema === 'drawing') return { value: prepareDrawing(result.data as Parameters<typeof prepareDrawing>[0]) };
  return { value };
}
