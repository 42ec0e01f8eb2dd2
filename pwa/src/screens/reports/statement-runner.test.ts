import { describe, expect, it } from 'vitest';
import type { EarlyStatementWorker, StatementPiece, StatementReply, StatementRequest, StatementWindow } from './statement-protocol';
import type { FirstPart } from './statement-runner';

// The runner lives in a page: its window (the early worker's slot, `hashchange`) is this test's global scope.
const page = globalThis as unknown as Window & typeof globalThis;
page.window = page;
const events = new EventTarget();
page.addEventListener = events.addEventListener.bind(events) as typeof page.addEventListener;
page.removeEventListener = events.removeEventListener.bind(events) as typeof page.removeEventListener;
const { startStatementEarly, statementInWorker, watchFirstPart } = await import('./statement-runner');

const encoded = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).buffer as ArrayBuffer;
const frvRow = (i: number) => ({ id: i, name: `Операция ${i}`, number: i + 1 });
const measurement = (i: number) => ({ index: i + 1, len: 10 + i, status: 'accepted' });

/**
 * A statement's reply as the worker sends it (statement.worker.ts, asPieces): the report with its long
 * arrays empty, then their rows in runs. The measurements come before table 4's rows here, so the
 * page's own order is what is checked.
 */
function reply(id: number): StatementReply {
  const pieces: StatementPiece[] = [
    [[], encoded({ rep_param: { worker_name: 'Иванов' }, frv: [], measurements: { rows: [{ id: 1, measurements: [] }] } })],
    [['measurements', 'rows', 0, 'measurements'], encoded(Array.from({ length: 1500 }, (_, i) => measurement(i)))],
    [['frv'], encoded(Array.from({ length: 1000 }, (_, i) => frvRow(i)))],
    [['frv'], encoded(Array.from({ length: 700 }, (_, i) => frvRow(1000 + i)))],
  ];
  return { id, type: 'report', pieces, fromCache: false };
}

/** The worker the page's first script started (vite.config.ts, routePreload), its first reply already in; later requests answered at once. */
function earlyWorker(params: Record<string, string>): EarlyStatementWorker {
  const worker = {
    onmessage: null as ((event: { data: StatementReply }) => void) | null,
    onerror: null,
    terminate() {},
    postMessage(request: StatementRequest) {
      if (request.type === 'compute') queueMicrotask(() => worker.onmessage?.({ data: reply(request.id) }));
    },
  };
  return { worker: worker as unknown as Worker, params, replies: [reply(0)], failed: null };
}

const month: StatementWindow = { structureId: 4, employeeId: 1, from: '2026-11-01T21:00:00.000Z', to: '2026-12-02T21:00:00.000Z' };
type Report = { frv: unknown[]; measurements: { rows: { measurements: unknown[] }[] } };

describe('a statement assembled from the worker’s pieces', () => {
  it('offers table 4 before the measurements are parsed, parses the rest at once for a print, and then settles whole', async () => {
    const offered: FirstPart[] = [];
    const first = new Promise<FirstPart>((resolve) => watchFirstPart(month, (part) => resolve(part)));
    watchFirstPart(month, (part) => offered.push(part));
    page.__normaStatementWorker = earlyWorker({ structureId: '4', employeeId: '1', fromTime: month.from, toTime: month.to });
    startStatementEarly(month);

    const part = await first;
    const report = part.report as unknown as Report;
    expect(report.frv).toHaveLength(1700);
    expect(report.frv[1699]).toEqual(frvRow(1699));
    expect(report.measurements.rows[0]!.measurements).toHaveLength(0);
    expect(offered).toEqual([part]);

    // `beforeprint`: the print cannot wait for the next turns.
    part.finish();
    expect(report.measurements.rows[0]!.measurements).toHaveLength(1500);
    expect(report.measurements.rows[0]!.measurements[1499]).toEqual(measurement(1499));

    part.shown();
    const whole = await statementInWorker(month);
    expect(whole.type).toBe('report');
    const settled = (whole as { report: Report }).report;
    expect(settled).toBe(report);
    expect(settled.frv).toHaveLength(1700);
    expect(settled.measurements.rows[0]!.measurements).toHaveLength(1500);
  });

  it('parses on without waiting when no screen watches, and offers nothing to a screen that comes once the statement is whole', async () => {
    const other = { ...month, employeeId: 2 };
    const whole = await statementInWorker(other);
    const report = (whole as { report: Report }).report;
    expect(report.frv).toHaveLength(1700);
    expect(report.measurements.rows[0]!.measurements).toHaveLength(1500);

    // Whole already: a screen that comes now gets nothing to draw early.
    const late: FirstPart[] = [];
    const stop = watchFirstPart(other, (part) => late.push(part));
    stop();
    expect(late).toEqual([]);
  });
});
