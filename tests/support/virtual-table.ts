import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { RETRY } from './browser';

/** A row a virtualised report table has built (ColumnTable `virtual`): its place in the whole table and its cells' texts. */
export interface BuiltRow {
  index: number;
  cells: string[];
}

/** What the table's scroll box shows now: the rows built, whether they cover the box, where it is scrolled. */
interface BoxState {
  rows: BuiltRow[];
  covered: boolean;
  scrollTop: number;
  next: number;
  atEnd: boolean;
}

/**
 * The box of the table `testId` (ReportTable's `${testId}-scroll`): scrolled to `top` px first when
 * given (the end when `top` is Infinity), then read. The rows in view are «covered» when built rows
 * fill the box from under its header to its bottom (or to the table's last row, `count` − 1).
 */
const boxState = (page: Page, testId: string, count: number, top?: number) =>
  page.getByTestId(`${testId}-scroll`).evaluate(
    (el, { top, count }): BoxState => {
      if (top !== null) el.scrollTop = top === -1 ? el.scrollHeight : top;
      const rows = [...el.querySelectorAll<HTMLTableRowElement>('tbody tr[data-index]')];
      const box = el.getBoundingClientRect();
      const head = el.querySelector('thead')?.getBoundingClientRect().height ?? 0;
      const viewTop = box.top + el.clientTop + head;
      const viewBottom = box.top + el.clientTop + el.clientHeight;
      const first = rows[0]?.getBoundingClientRect();
      const last = rows.at(-1);
      const covered =
        first !== undefined &&
        first.top <= viewTop + 1 &&
        (last!.getBoundingClientRect().bottom >= viewBottom - 1 || Number(last!.dataset.index) === count - 1);
      return {
        rows: rows.map((r) => ({ index: Number(r.dataset.index), cells: [...r.cells].map((c) => c.textContent ?? '') })),
        covered,
        scrollTop: el.scrollTop,
        // The next screen starts where this one ends, under the header.
        next: el.scrollTop + el.clientHeight - head - 2,
        atEnd: el.scrollTop + el.clientHeight >= el.scrollHeight - 1,
      };
    },
    { top: top === undefined ? null : top === Infinity ? -1 : top, count },
  );

/** Scrolls the table's box to `top` px (Infinity: its end) and waits until the rows in view are built; returns its state then. */
export async function scrollTable(page: Page, testId: string, count: number, top: number): Promise<BoxState> {
  let state = await boxState(page, testId, count, top);
  await expect
    .poll(async () => {
      // At the end the measured rows may lengthen the table: scroll to its end again until it stays there.
      state = await boxState(page, testId, count, top === Infinity ? Infinity : undefined);
      return state.covered && (top !== Infinity || state.atEnd);
    }, RETRY)
    .toBe(true);
  return state;
}

/** Every row of a virtualised table, read screen by screen from its top to its end, by index. */
export async function everyRow(page: Page, testId: string, count: number): Promise<Map<number, string[]>> {
  const seen = new Map<number, string[]>();
  let top = 0;
  for (;;) {
    const state = await scrollTable(page, testId, count, top);
    for (const row of state.rows) seen.set(row.index, row.cells);
    if (state.atEnd) return seen;
    expect(state.next, 'прокрутка не продвинулась').toBeGreaterThan(state.scrollTop);
    top = state.next;
  }
}
