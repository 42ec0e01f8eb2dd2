/**
 * What a page's long tasks were made of, from a Chromium trace (Browser.startTracing /
 * stopTracing, categories TRACE_CATEGORIES): every task of a renderer's main thread and of its
 * dedicated workers longer than `over` ms, when it started (from the first navigation request of the
 * trace) and its largest parts two levels down (script by URL or function, style, layout, parse,
 * garbage collection). For finding the long tasks to split (issue 47); the figures of a bench come
 * from the page's own PerformanceObserver, not from here.
 */
export const TRACE_CATEGORIES = ['toplevel', 'devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'blink.user_timing', 'loading'];

type TraceEvent = { name: string; ph: string; ts: number; dur?: number; pid: number; tid: number; args?: { name?: string; data?: Record<string, unknown> } };
export type TaskPart = { name: string; what: string; ms: number; parts: TaskPart[] };
export type LongTask = { thread: string; at_ms: number; ms: number; parts: TaskPart[] };

/** What an event worked on, where the trace says: a script's URL and function, a timer, an event's type. */
function what(event: TraceEvent): string {
  const data = event.args?.data ?? {};
  const url = typeof data.url === 'string' ? data.url.replace(/^.*\/assets\//, '') : '';
  const fn = typeof data.functionName === 'string' ? data.functionName : '';
  const type = typeof data.type === 'string' ? data.type : '';
  return [url, fn, type].filter(Boolean).join(' ');
}

/** The parts of `events` (sorted by start) directly inside `parent`, with theirs to `depth` levels. */
function partsWithin(events: TraceEvent[], parent: TraceEvent, depth: number, minMs: number): TaskPart[] {
  const parts: TaskPart[] = [];
  const end = parent.ts + (parent.dur ?? 0);
  let cursor = parent.ts;
  for (const event of events) {
    if (event === parent || event.ts < cursor || event.ts >= end) continue;
    const stop = event.ts + (event.dur ?? 0);
    if (stop > end) continue;
    cursor = stop;
    const ms = (event.dur ?? 0) / 1000;
    if (ms < minMs) continue;
    const inner = depth > 1 ? partsWithin(events, event, depth - 1, minMs) : [];
    parts.push({ name: event.name, what: what(event), ms: Math.round(ms), parts: inner.filter((p) => p.ms !== Math.round(ms) || p.parts.length) });
  }
  return parts.sort((a, b) => b.ms - a.ms).slice(0, 6);
}

/** The long tasks of the renderers' main threads and their workers, in the order they ran. */
export function longTasksOf(trace: { traceEvents: TraceEvent[] }, over: number): LongTask[] {
  const threadNames = new Map<string, string>();
  for (const event of trace.traceEvents)
    if (event.ph === 'M' && event.name === 'thread_name' && event.args?.name) threadNames.set(`${event.pid}:${event.tid}`, event.args.name);
  const watched = (event: TraceEvent) => /CrRendererMain|DedicatedWorker/.test(threadNames.get(`${event.pid}:${event.tid}`) ?? '');
  const complete = trace.traceEvents.filter((e) => e.ph === 'X' && watched(e)).sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  const navigation = trace.traceEvents.find((e) => e.name === 'ResourceSendRequest' && (e.args?.data as { url?: string } | undefined)?.url?.includes('/#/'));
  const origin = navigation?.ts ?? complete[0]?.ts ?? 0;
  const byThread = Map.groupBy(complete, (e) => `${e.pid}:${e.tid}`);
  const tasks: LongTask[] = [];
  for (const [thread, events] of byThread) {
    for (const task of events) {
      if (task.name !== 'RunTask' || (task.dur ?? 0) / 1000 < over) continue;
      tasks.push({
        thread: threadNames.get(thread) ?? thread,
        at_ms: Math.round((task.ts - origin) / 1000),
        ms: Math.round((task.dur ?? 0) / 1000),
        parts: partsWithin(events, task, 3, 5),
      });
    }
  }
  return tasks.sort((a, b) => a.at_ms - b.at_ms);
}

/** When each request of the trace was sent and finished (ms from the first navigation request), by URL. */
export function requestsOf(trace: { traceEvents: TraceEvent[] }): { url: string; sent_ms: number; done_ms: number | null }[] {
  const data = (e: TraceEvent) => (e.args?.data ?? {}) as { url?: string; requestId?: string };
  const navigation = trace.traceEvents.find((e) => e.name === 'ResourceSendRequest' && data(e).url?.includes('/#/'));
  const origin = navigation?.ts ?? 0;
  const done = new Map(trace.traceEvents.filter((e) => e.name === 'ResourceFinish').map((e) => [data(e).requestId, e.ts]));
  return trace.traceEvents
    .filter((e) => e.name === 'ResourceSendRequest')
    .map((e) => {
      const finished = done.get(data(e).requestId);
      return {
        url: (data(e).url ?? '').replace(/^https?:\/\/[^/]+/, '').slice(0, 120),
        sent_ms: Math.round((e.ts - origin) / 1000),
        done_ms: finished === undefined ? null : Math.round((finished - origin) / 1000),
      };
    })
    .sort((a, b) => a.sent_ms - b.sent_ms);
}
