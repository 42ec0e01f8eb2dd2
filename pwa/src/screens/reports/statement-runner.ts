import type { StatementReply, StatementRequest, StatementWindow } from './statement-protocol';

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
 */
let worker: Worker | null = null;
let lastId = 0;
const waiting = new Map<number, (reply: StatementReply) => void>();

function startWorker(): Worker {
  const started = new Worker(new URL('./statement.worker.ts', import.meta.url), { type: 'module', name: 'norma-statement' });
  started.onmessage = (event: MessageEvent<StatementReply>) => {
    const answer = waiting.get(event.data.id);
    if (!answer) return;
    waiting.delete(event.data.id);
    answer(event.data);
  };
  started.onerror = (event) => {
    event.preventDefault();
    started.terminate();
    if (worker === started) worker = null;
    // The browser's own text is English («Uncaught …»); the user gets ours, the console keeps its.
    console.error('statement worker failed:', event.message);
    const message = 'Модуль расчёта ведомости не загрузился или остановился. Обновите страницу и повторите.';
    for (const [id, answer] of waiting) answer({ id, type: 'error', message });
    waiting.clear();
  };
  return started;
}

/** Computes a statement in the session's worker; rejects with `signal`'s reason once the caller stops waiting. */
export function statementInWorker(window: StatementWindow, signal?: AbortSignal): Promise<StatementReply> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  worker ??= startWorker();
  const target = worker;
  const id = ++lastId;
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
    target.postMessage({ type: 'compute', id, ...window } satisfies StatementRequest);
  });
}
