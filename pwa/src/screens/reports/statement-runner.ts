import type { StatementReport } from '../../api/types';
import {
  EARLY_ID,
  type EarlyStatementWorker,
  type StatementPiece,
  type StatementReply,
  type StatementRequest,
  type StatementWindow,
} from './statement-protocol';
import { statementWindow } from './statement/window';

/**
 * The statement's Web Worker (statement.worker.ts, issue 47): one for the app session, started by
 * the first statement and reused by every later one and every recompute, so the WASM core is loaded
 * and instantiated once. Kept after the statement's page is left rather than ended with it: people
 * go from the list of employees to one statement and back to the next, and a new worker each time
 * paid the start and the core's download and compilation again before the table could show (7.5 →
 * 9.0 s to table 4 on a 4× slower CPU). An idle worker takes no processor time; what it keeps is the
 * core's memory, grown to the largest statement computed, and the browser frees it with the tab.
 *
 * Each request carries an id and its reply is matched by it; a reply nobody waits for any more (its
 * page was left or its statement replaced, `signal`) is dropped, and the worker is told to skip
 * assembling it. A worker that fails to load or crashes fails the statements waiting on it; the next
 * statement starts a fresh one.
 *
 * Opened at a statement's address, the page's first script has started the worker already and asked
 * it for that statement (pwa/vite.config.ts, routePreload: before the app's code has even arrived);
 * the first use here takes that worker over with its request (workerOfSession), and the statement's
 * screen picks the request up (takeEarly) rather than asking again.
 */
let worker: Worker | null = null;
let lastId = EARLY_ID;
const waiting = new Map<number, (reply: StatementReply) => void>();

/** What the page's first script leaves at a statement's address (statement-protocol.ts). */
declare global {
  interface Window {
    __normaStatementWorker?: EarlyStatementWorker;
  }
}

function answer(reply: StatementReply) {
  const waiter = waiting.get(reply.id);
  if (!waiter) return;
  waiting.delete(reply.id);
  waiter(reply);
}

function fail(failed: Worker, detail: string) {
  failed.terminate();
  if (worker === failed) worker = null;
  // The browser's own text is English («Uncaught …»); the user gets ours, the console keeps its.
  console.error('statement worker failed:', detail);
  const message = 'Модуль расчёта ведомости не загрузился или остановился. Обновите страницу и повторите.';
  for (const [id, waiter] of waiting) waiter({ id, type: 'error', message });
  waiting.clear();
}

function serve(started: Worker): Worker {
  started.onmessage = (event: MessageEvent<StatementReply>) => answer(event.data);
  started.onerror = (event) => {
    event.preventDefault();
    fail(started, event.message);
  };
  return started;
}

/** The session's worker: the one the page's first script started (with its request), or a new one. */
function workerOfSession(): Worker {
  if (worker) return worker;
  const preloaded = window.__normaStatementWorker;
  delete window.__normaStatementWorker;
  if (!preloaded) return (worker = serve(new Worker(new URL('./statement.worker.ts', import.meta.url), { type: 'module', name: 'norma-statement' })));
  worker = serve(preloaded.worker);
  const asked = statementWindow(preloaded.params);
  if (asked) keepEarly(keyOf(asked), (signal) => ask(preloaded.worker, EARLY_ID, null, signal));
  else preloaded.worker.postMessage({ type: 'cancel', id: EARLY_ID } satisfies StatementRequest);
  // What it answered before the app was here: the request's reply (now awaited), or its failure.
  for (const reply of preloaded.replies) answer(reply);
  if (preloaded.failed !== null) fail(preloaded.worker, preloaded.failed);
  return worker ?? workerOfSession();
}

/** Waits for request `id`'s reply (`message`: the request, when not sent yet); `signal` cancels it. */
function ask(target: Worker, id: number, message: StatementRequest | null, signal: AbortSignal | undefined): Promise<StatementReply> {
  return new Promise<StatementReply>((resolve, reject) => {
    waiting.set(id, resolve);
    signal?.addEventListener(
      'abort',
      () => {
        if (!waiting.delete(id)) return;
        target.postMessage({ type: 'cancel', id } satisfies StatementRequest);
        reject(signal.reason);
      },
      { once: true },
    );
    if (message) target.postMessage(message);
  });
}

const keyOf = (target: StatementWindow) => `${target.structureId}/${target.employeeId}/${target.from}/${target.to}`;

/** A statement reply as the page uses it: the report's pieces parsed into the report. */
type StatementResult = Exclude<StatementReply, { type: 'report' }> | { id: number; type: 'report'; report: StatementReport; fromCache: boolean };

/** The statement started with the app (startStatementEarly, or the page's first script), until its screen takes it. */
let early: { key: string; result: Promise<StatementResult>; stop: AbortController } | null = null;

function dropEarly() {
  early?.stop.abort(new DOMException('Ведомость больше не нужна', 'AbortError'));
  early = null;
}

/** Keeps a request started before its screen, already parsing its report when it comes (`start` sends or awaits it). */
function keepEarly(key: string, start: (signal: AbortSignal) => Promise<StatementReply>) {
  dropEarly();
  const stop = new AbortController();
  const result = start(stop.signal).then((reply) => parsed(reply, stop.signal));
  // Settled by the screen that takes it; one nobody takes ends here, unseen.
  result.catch(() => undefined);
  early = { key, result, stop };
  // The address changed before the screen took it (the login screen, another page): nobody will.
  addEventListener('hashchange', dropEarly, { once: true });
}

/**
 * Starts the statement of the app's first address while the app itself starts (issue 47: on a 4×
 * slower CPU the app took 1.5–1.9 s before the statement's screen asked for it): the app's entry
 * calls it (routes.tsx, startScreenWorkAt) before React's first render, in parallel with the check of
 * the sign-in and the screen's code, where the page's first script has not started it already. The
 * worker starts, loads the core and reads the inputs; the page parses the report as soon as it comes;
 * the statement's screen then takes that request (statementInWorker with the same window) instead of
 * making another, and settles its answer as its own (compute.ts: a failed read shows the API's
 * Russian message there, not here). Nothing else takes it: if the address changes before the screen
 * asks (the login screen, another page), or the screen asks for another window, it is cancelled.
 */
export function startStatementEarly(target: StatementWindow): void {
  if (!worker && window.__normaStatementWorker) {
    workerOfSession();
    return;
  }
  keepEarly(keyOf(target), (signal) => {
    const session = workerOfSession();
    const id = ++lastId;
    return ask(session, id, { type: 'compute', id, ...target }, signal);
  });
}

/** The early statement of this window, if one is running (taken once); any other is cancelled. */
function takeEarly(target: StatementWindow, signal?: AbortSignal): Promise<StatementResult> | null {
  if (!early) return null;
  const taken = early;
  early = null;
  removeEventListener('hashchange', dropEarly);
  if (taken.key !== keyOf(target)) {
    taken.stop.abort(new DOMException('Открыта другая ведомость', 'AbortError'));
    return null;
  }
  signal?.addEventListener('abort', () => taken.stop.abort(signal.reason), { once: true });
  return taken.result;
}

/** Parsed JSON bytes after which the page gets a turn (input, paint): 1 MB took 70–180 ms on a 4× slower CPU under load. */
const PARSE_SLICE_BYTES = 400_000;
/**
 * Lets the browser handle input and paint before going on: a message to itself is a new task at
 * once, where a chain of setTimeout(0) waits at least 4 ms a link after the fifth (40 pieces: 0.16 s).
 */
function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

/** The report from the worker's pieces, about PARSE_SLICE_BYTES decoded and parsed a task (statement-protocol.ts); stops once `signal` aborts. */
async function assemblePieces(pieces: StatementPiece[], signal: AbortSignal | undefined): Promise<StatementReport> {
  const decoder = new TextDecoder();
  let report: unknown;
  let sinceTurn = 0;
  for (const [path, json] of pieces) {
    if (sinceTurn > 0 && sinceTurn + json.byteLength > PARSE_SLICE_BYTES) {
      await nextTask();
      signal?.throwIfAborted();
      sinceTurn = 0;
    }
    sinceTurn += json.byteLength;
    const value: unknown = JSON.parse(decoder.decode(json));
    if (path.length === 0) report = value;
    else {
      const rows = path.reduce((at: unknown, key) => (at as Record<string | number, unknown>)[key], report) as unknown[];
      for (const row of value as unknown[]) rows.push(row);
    }
  }
  return report as StatementReport;
}

async function parsed(reply: StatementReply, signal: AbortSignal | undefined): Promise<StatementResult> {
  if (reply.type !== 'report') return reply;
  return { id: reply.id, type: 'report', report: await assemblePieces(reply.pieces, signal), fromCache: reply.fromCache };
}

/**
 * Computes a statement in the session's worker, or takes the one started with the app for the same
 * window (startStatementEarly); the report comes parsed. Rejects with `signal`'s reason once the
 * caller stops waiting.
 */
export async function statementInWorker(target: StatementWindow, signal?: AbortSignal): Promise<StatementResult> {
  signal?.throwIfAborted();
  const session = workerOfSession();
  const started = takeEarly(target, signal);
  if (started) return started;
  const id = ++lastId;
  return parsed(await ask(session, id, { type: 'compute', id, ...target }, signal), signal);
}
