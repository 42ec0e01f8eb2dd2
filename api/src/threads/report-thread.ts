import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { OpenedDatabase } from '../db/database';
import type { ContentCoding } from '../http/compress';
import { ApiError } from '../http/errors';
import type { ReportReply, ReportTask } from './report-threads';
import { computeCard } from '../norms/build';
import { normFulfilment } from '../norms/fulfilment';
import { openConfiguredDatabase } from '../storage/data-dir';
import { buildBlockReport } from '../report/blocks';
import { buildInteractiveFrv } from '../report/frv';
import { buildStatement } from '../report/statement';
import { serveThread } from './thread-port';

/*
 * A report thread (threads/report-threads.ts): opens its own connection to the installation's
 * database, then computes the reports it is sent, one at a time, answering each with its JSON text,
 * or with that text compressed when the task names an encoding (the answer goes to the client as it is).
 */
let opened: OpenedDatabase | null = null;

async function compute(task: ReportTask, where: { dataDir: string; databaseUrl?: string }): Promise<unknown> {
  opened ??= openConfiguredDatabase(where);
  const db = opened.db;
  switch (task.task) {
    case 'blockReport':
      return buildBlockReport(db, task.structureId, task.from, task.to);
    case 'frv':
      return buildInteractiveFrv(db, task.structureId, task.from, task.to);
    case 'statement':
      return buildStatement(db, task.structureId, task.employeeId, task.from, task.to, task.details);
    case 'normCard':
      return computeCard(db, task.structureId, task.windows, task.params);
    case 'normFulfilment':
      return normFulfilment(db, task.structureId, task.from, task.to, task.employeeId);
  }
}

/** As http/compress.ts compresses answers on the fly: from 1 KB, brotli at quality 5. */
const COMPRESS_FROM = 1024;
const BROTLI_QUALITY = 5;

/** The reply with the answer's JSON text, compressed with `coding` unless it is short; compressed bytes are moved, not copied. */
function answerOf(id: number, json: string, coding: ContentCoding | null | undefined): [ReportReply, ArrayBuffer[]] {
  if (!coding || json.length < COMPRESS_FROM) return [{ id, json }, []];
  const compressed = coding === 'br' ? brotliCompressSync(json, { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } }) : gzipSync(json);
  // A buffer of its own (not a slice of a shared pool) may be moved to the other thread.
  const own = compressed.byteOffset === 0 && compressed.byteLength === compressed.buffer.byteLength;
  const bytes = own ? new Uint8Array(compressed.buffer, 0, compressed.byteLength) : new Uint8Array(compressed);
  return [{ id, bytes, coding }, [bytes.buffer as ArrayBuffer]];
}

type Message = { id: number; where: { dataDir: string; databaseUrl?: string }; coding?: ContentCoding | null } & ReportTask;

serveThread<Message>(async (message, post) => {
  let reply: ReportReply;
  let transfer: ArrayBuffer[] = [];
  try {
    // Compressing is part of the task: a 62-day interactive report is some 28 MB of JSON, half a second of
    // brotli, done here in its requester's turn rather than on the thread that answers every call.
    [reply, transfer] = answerOf(message.id, JSON.stringify(await compute(message, message.where)), message.coding);
  } catch (err) {
    reply =
      err instanceof ApiError
        ? { id: message.id, error: { status: err.status, code: err.code, message: err.message, details: err.details } }
        : { id: message.id, error: { status: 500, code: 'internal', message: err instanceof Error ? err.message : String(err) } };
  }
  post(reply, transfer);
});
