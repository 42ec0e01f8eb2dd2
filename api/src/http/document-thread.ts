/// <reference lib="webworker" />
import type { ZodType } from 'zod';
import { DrawnCollection } from '../map/schema';
import { PeriodMarkupsSave } from '../markup/period-markups.schema';
import { VideoMarkupsSave } from '../markup/schema';
import type { DocumentReply, DocumentSchema } from './document-threads';
import { MAX_REPORTED_ISSUES, validationMessage } from './errors';

/*
 * The document thread (http/document-threads.ts): reads a large body and checks it against its
 * route's schema, so that a body of millions of bad values never reaches the main thread.
 */
declare const self: Worker;
const schemas: Record<DocumentSchema, ZodType> = { video_markups: VideoMarkupsSave, operation_markups: PeriodMarkupsSave, drawing: DrawnCollection };

self.onmessage = (event: MessageEvent<{ id: number; schema: DocumentSchema; bytes: ArrayBuffer }>) => {
  const { id, schema, bytes } = event.data;
  let reply: DocumentReply;
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder().decode(bytes));
  } catch (err) {
    self.postMessage({
      id,
      bad: { code: 'bad_request', message: `Некорректный запрос: тело не JSON (${err instanceof Error ? err.message : String(err)})` },
    } satisfies DocumentReply);
    return;
  }
  const result = schemas[schema].safeParse(value);
  if (result.success) reply = { id, value };
  else reply = { id, bad: { code: 'validation_failed', message: validationMessage(result.error), details: result.error.issues.slice(0, MAX_REPORTED_ISSUES) } };
  self.postMessage(reply);
};

// Messages sent before the handler is set may be lost: the pool waits for this.
self.postMessage({ ready: true });
