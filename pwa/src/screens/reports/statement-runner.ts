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
  const result = start(stop.signal).then((reply) => parsed(reply, stop.signal, key));
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

/**
 * The first part of a statement being assembled: the report with its header and table 4's rows in,
 * the rest (the measurements of tables 2 and 3, other long lists) still empty and being parsed
 * (issue 47: table 4 of a month need not wait for 4 MB of measurements). `finish` parses the rest
 * at once (printing cannot wait); `shown` tells the assembly that the part is on the screen, so
 * that its parsing does not take turns with drawing it.
 */
export type FirstPart = { report: StatementReport; finish: () => void; shown: () => void };

/** The first parts of the statements being assembled, by window (keyOf), and the screens waiting for them. */
const firstParts = new Map<string, FirstPart>();
const firstPartWatchers = new Map<string, Set<(part: FirstPart) => void>>();

/**
 * Calls `listener` with the first part of this window's statement once it is parsed (at once when
 * it already is), while the rest is still being parsed; a statement parsed whole before that never
 * calls it. Returns the function that stops watching.
 */
export function watchFirstPart(target: StatementWindow, listener: (part: FirstPart) => void): () => void {
  const key = keyOf(target);
  const watchers = firstPartWatchers.get(key) ?? new Set();
  firstPartWatchers.set(key, watchers.add(listener));
  const ready = firstParts.get(key);
  if (ready) listener(ready);
  return () => {
    watchers.delete(listener);
    if (watchers.size > 0) return;
    firstPartWatchers.delete(key);
    // Nobody left to show it: the rest is parsed on.
    firstParts.get(key)?.shown();
  };
}

/** Pieces of the first part: the report itself and table 4's rows (statement.worker.ts, asPieces). */
const inFirstPart = ([path]: StatementPiece) => path.length === 0 || (path.length === 1 && path[0] === 'frv');

/**
 * The report from the worker's pieces, about PARSE_SLICE_BYTES decoded and parsed a task
 * (statement-protocol.ts); stops once `signal` aborts. The first part (FirstPart) is parsed first
 * and offered to the screens watching `key`; the rest waits until one of them has shown it.
 */
async function assemblePieces(pieces: StatementPiece[], signal: AbortSignal | undefined, key: string): Promise<StatementReport> {
  const decoder = new TextDecoder();
  const rest = pieces.filter((piece) => !inFirstPart(piece));
  const queue = [...pieces.filter(inFirstPart), ...rest];
  let report: unknown;
  let offered = false;
  const parseNext = () => {
    const [path, json] = queue.shift()!;
    const value: unknown = JSON.parse(decoder.decode(json));
    if (path.length === 0) report = value;
    else {
      const rows = path.reduce((at: unknown, step) => (at as Record<string | number, unknown>)[step], report) as unknown[];
      for (const row of value as unknown[]) rows.push(row);
    }
  };
  let sinceTurn = 0;
  try {
    while (queue.length > 0) {
      const size = queue[0]![1].byteLength;
      if (sinceTurn > 0 && sinceTurn + size > PARSE_SLICE_BYTES) {
        await nextTask();
        signal?.throwIfAborted();
        sinceTurn = 0;
        // Printed meanwhile: `finish` has parsed the rest.
        if (queue.length === 0) break;
      }
      sinceTurn += size;
      parseNext();
      // The first part is in (the rest follows it in the queue): offered once.
      if (!offered && queue.length > 0 && queue.length === rest.length) {
        offered = true;
        await offerFirstPart(key, report as StatementReport, signal, () => {
          while (queue.length > 0) parseNext();
        });
        signal?.throwIfAborted();
        sinceTurn = 0;
      }
    }
  } finally {
    if (firstParts.get(key)?.report === report) firstParts.delete(key);
  }
  return report as StatementReport;
}

/**
 * Offers the first part to the screens watching `key`; resolves once one has shown it (or stopped
 * watching), at once when none watches, or when `signal` aborts.
 */
function offerFirstPart(key: string, report: StatementReport, signal: AbortSignal | undefined, finish: () => void): Promise<void> {
  return new Promise((resolve) => {
    const part: FirstPart = { report, finish, shown: () => resolve() };
    firstParts.set(key, part);
    signal?.addEventListener('abort', () => resolve(), { once: true });
    const watchers = firstPartWatchers.get(key);
    if (!watchers?.size) return resolve();
    for (const watcher of watchers) watcher(part);
  });
}

async function parsed(reply: StatementReply, signal: AbortSignal | undefined, key: string): Promise<StatementResult> {
  if (reply.type !== 'report') return reply;
  return { id: reply.id, type: 'report', report: await assemblePieces(reply.pieces, signal, key), fromCache: reply.fromCache };
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
  return parsed(await ask(session, id, { type: 'compute', id, ...target }, signal), signal, keyOf(target));
}
