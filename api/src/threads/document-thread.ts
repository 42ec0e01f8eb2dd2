/// <reference lib="webworker" />
import type { DocumentReply, DocumentSchema } from '../http/document-threads';
import { readDocument } from './document-read';

/*
 * The document thread (http/document-threads.ts): reads a large body and checks it against its
 * route's schema, so that a body of millions of bad values never reaches the main thread.
 */
declare const self: Worker;

self.onmessage = (event: MessageEvent<{ id: number; schema: DocumentSchema; bytes: ArrayBuffer }>) => {
  const { id, schema, bytes } = event.data;
  self.postMessage({ id, ...readDocument(schema, bytes) } satisfies DocumentReply);
};

// Messages sent before the handler is set may be lost: the pool waits for this.
self.postMessage({ ready: true });
