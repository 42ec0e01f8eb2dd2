import type { DocumentReply, DocumentSchema } from '../http/document-threads';
import { readDocument } from './document-read';
import { serveThread } from './thread-port';

/*
 * The document thread (http/document-threads.ts): reads a large body and checks it against its
 * route's schema, so that a body of millions of bad values never reaches the main thread.
 */
serveThread<{ id: number; schema: DocumentSchema; bytes: ArrayBuffer }>(({ id, schema, bytes }, post) => {
  post({ id, ...readDocument(schema, bytes) } satisfies DocumentReply);
});
