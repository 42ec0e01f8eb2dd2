import type { ZodType } from 'zod';
import { prepareDrawing } from '../map/drawing';
import { DrawnCollection } from '../map/schema';
import { PeriodMarkupsSave } from '../markup/period-markups.schema';
import { VideoMarkupsSave } from '../markup/schema';
import type { DocumentResult, DocumentSchema } from '../http/document-threads';
import { MAX_REPORTED_ISSUES, validationMessage } from '../http/errors';

const schemas: Record<DocumentSchema, ZodType> = { video_markups: VideoMarkupsSave, operation_markups: PeriodMarkupsSave, drawing: DrawnCollection };

/** The document thread's entry (started by main.ts; http/document-threads.ts runs it). */
export const DOCUMENT_THREAD_URL = new URL('./document-thread.ts', import.meta.url);

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
