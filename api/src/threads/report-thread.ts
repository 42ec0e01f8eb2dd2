/// <reference lib="webworker" />
import type { OpenedDatabase } from '../db/database';
import { ApiError } from '../http/errors';
import type { ReportReply, ReportTask } from './report-threads';
import { computeCard } from '../norms/build';
import { normFulfilment } from '../norms/fulfilment';
import { openConfiguredDatabase } from '../storage/data-dir';
import { buildBlockReport } from '../report/blocks';
import { buildInteractiveFrv } from '../report/frv';
import { buildStatement } from '../report/statement';

/*
 * A report thread (threads/report-threads.ts): opens its own connection to the installation's
 * database, then computes the reports it is sent, one at a time, answering each with its JSON text.
 */
declare const self: Worker;
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

self.onmessage = async (event: MessageEvent<{ id: number; where: { dataDir: string; databaseUrl?: string } } & ReportTask>) => {
  const message = event.data;
  let reply: ReportReply;
  try {
    reply = { id: message.id, json: JSON.stringify(await compute(message, message.where)) };
  } catch (err) {
    reply =
      err instanceof ApiError
        ? { id: message.id, error: { status: err.status, code: err.code, message: err.message, details: err.details } }
        : { id: message.id, error: { status: 500, code: 'internal', message: err instanceof Error ? err.message : String(err) } };
  }
  self.postMessage(reply);
};

// Messages sent before a thread has set its handler may be lost: the pool waits for this.
self.postMessage({ ready: true });
