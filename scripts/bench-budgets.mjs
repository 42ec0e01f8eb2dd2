// Checks the figures in bench/results/*.json against bench/budgets.json (`npm run bench -- --check`).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './lib.mjs';

const figureAt = (object, path) => path.split('.').reduce((value, key) => (value == null ? undefined : value[key]), object);

/** Returns one line per budget: its verdict, the figure and the limit. Only results named in `only` (or all). */
export function checkBudgets(onlyResults) {
  const { budgets } = JSON.parse(readFileSync(join(root, 'bench', 'budgets.json'), 'utf8'));
  const lines = [];
  let failed = 0;
  for (const budget of budgets) {
    if (onlyResults && !onlyResults.includes(budget.result)) continue;
    const file = join(root, 'bench', 'results', `${budget.result}.json`);
    const label = `${budget.result}${budget.case ? ` «${budget.case}»` : ''} ${budget.figure}`;
    if (!existsSync(file)) {
      lines.push(`✖ ${label}: нет файла результатов`);
      failed++;
      continue;
    }
    const result = JSON.parse(readFileSync(file, 'utf8'));
    const rows = budget.list ? (result[budget.list] ?? []).filter((row) => !budget.case || row.case === budget.case) : [result];
    if (rows.length === 0) {
      lines.push(`✖ ${label}: нет такого случая в результатах`);
      failed++;
    }
    for (const row of rows) {
      const value = figureAt(row, budget.figure);
      const ok = typeof value === 'number' && (budget.max === undefined || value <= budget.max) && (budget.min === undefined || value >= budget.min);
      const limit = budget.max !== undefined ? `≤ ${budget.max}` : `≥ ${budget.min}`;
      const which = budget.list && !budget.case ? ` [${row.case}${row.input ? `, ${row.input}` : ''}]` : '';
      lines.push(`${ok ? '✓' : '✖'} ${label}${which}: ${value} (бюджет ${limit}) — ${budget.why}`);
      if (!ok) failed++;
    }
  }
  return { lines, failed };
}
