import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from './env';
import { badRequest, errorBody } from './errors';
import { startWorkerThread, type WorkerThread } from './worker-thread';

/** The large documents whose bodies are read and checked on the document thread. */
export type DocumentSchema = 'video_markups' | 'operation_markups' | 'drawing';

/**
 * Documents whose route takes the prepared form (documentValue) instead of the checked value: the
 * route's own validator does not check the body again. A drawing becomes the texts to store
 * (map/drawing.ts); the reading itself: threads/document-read.ts.
 */
export const PREPARED_DOCUMENTS: ReadonlySet<DocumentSchema> = new Set(['drawing']);

export type DocumentResult = { value: unknown } | { bad: { code: string; message: string; details?: unknown } };

/** Calls (method and path as registered) whose body is one of those documents. */
export const DOCUMENT_ROUTES: Readonly<Record<string, DocumentSchema>> = {
  'PUT /api/v1/video_markups/{videoId}': 'video_markups',
  'POST /api/v1/video_markups/{videoId}': 'video_markups',
  'POST /api/v1/operation_markups': 'operation_markups',
  'POST /api/v1/projects/last/save': 'drawing',
};

export type DocumentReply = { id: number } & DocumentResult;

let thread: WorkerThread<DocumentReply> | null = null;
/** Reads a body in place when there is no thread (the API tests): set by createApp (app.ts). */
let readInPlace: ((schema: DocumentSchema, bytes: ArrayBuffer) => DocumentResult) | null = null;

export function useDocumentReader(read: (schema: DocumentSchema, bytes: ArrayBuffer) => DocumentResult): void {
  readInPlace = read;
}

/**
 * Starts the document thread (main.ts). Without it — in the API tests — bodies are read in place.
 * Why: `JSON.parse` of 16 MiB of tiny arrays, or zod over 20 000 rows with errors, takes the thread
 * for a second or more; on the main thread that would hold every other call. On this thread a bad
 * body costs the main thread nothing but its bytes, and a good one the copy of its value.
 */
export function startDocumentThread(entry: URL): () => void {
  const started = startWorkerThread<DocumentReply>(entry, 'document thread');
  thread = started;
  return () => {
    started.close();
    if (thread === started) thread = null;
  };
}

/**
 * Placed after a route's access check (http/openapi.ts adds it to the routes of DOCUMENT_ROUTES):
 * the body goes to the document thread as bytes; a bad one is answered 400 from there, in the
 * same form as the validation hook; a good one is handed to the route's own validator as parsed,
 * or, for PREPARED_DOCUMENTS, kept in its prepared form for preparedDocument (such a route has no
 * validator of its own; without the thread its body is read here, by the same code).
 */
export function documentOffThread(schema: DocumentSchema): MiddlewareHandler<AppEnv> {
  const prepared = PREPARED_DOCUMENTS.has(schema);
  return async (c, next) => {
    const current = thread;
    if ((!current && !prepared) || !/^application\/json/i.test(c.req.header('content-type') ?? '')) return next();
    const bytes = await c.req.raw.arrayBuffer();
    // The bytes move to the thread; a thread that dies fails the call (500), never answers 400.
    if (!current && !readInPlace) throw new Error('useDocumentReader was not called: no way to read the body');
    const reply = current ? await current.send({ schema, bytes }, [bytes]) : readInPlace!(schema, bytes);
    if ('bad' in reply) {
      return c.json(errorBody(reply.bad.code, reply.bad.message, reply.bad.details), 400);
    }
    if (prepared) c.set('document', reply.value);
    // The route's validator reads the body through c.req.json(): it gets the value already parsed.
    (c.req as { json: () => Promise<unknown> }).json = () => Promise.resolve(reply.value);
    await next();
  };
}

/** The body of a PREPARED_DOCUMENTS route, as documentOffThread prepared it. */
export function preparedDocument<T>(c: Context<AppEnv>, _schema: DocumentSchema): T {
  const value = c.get('document');
  // Only a body that is not JSON gets here without one (the route's media-type check refuses it first).
  if (value === undefined) throw badRequest('Некорректный запрос: ожидается тело JSON');
  return value as T;
}
