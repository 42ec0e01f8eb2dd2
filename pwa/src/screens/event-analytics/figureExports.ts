import type { EventFigures } from '../../api/types';
import type { ExportTable } from '../../export/table';
import { figuresTables, momentText } from '../../state/eventAnalytics';

/*
 * The figures of a window as tables for the CSV and PDF downloads (issue 44, docs/event-analytics.md
 * «PDF и CSV»): the summary, visitors per minute, and the screen's own tables (dwell per zone and
 * stand, popular routes, safe-zone entries: figuresTables). Numbers stay numbers: the CSV writes them
 * with a decimal comma (export/table.ts, as every report's CSV).
 */

const standNames = (list: EventFigures['stands']['most_popular']) => (list.length ? list.map((s) => `${s.name} (${s.visitors})`).join(', ') : '—');

/** The summary: the window, visitors, peak occupancy and its moment, the most and least popular stands. */
export function summaryTable(figures: EventFigures, hall: string): ExportTable {
  const peak = figures.peak_occupancy;
  return {
    title: 'Сводка',
    columns: ['Показатель', 'Значение'],
    rows: [
      ['Зал', hall],
      ['Начало окна', momentText(figures.window.from)],
      ['Конец окна', momentText(figures.window.to)],
      ['Посетителей', figures.visitors],
      ['Пик заполненности, человек', peak ? peak.people : null],
      ['Момент пика', peak ? momentText(peak.t) : null],
      ['Самый популярный стенд', standNames(figures.stands.most_popular)],
      ['Самый непопулярный стенд', standNames(figures.stands.least_popular)],
    ],
  };
}

/** Visitors per minute: the minute's start, the people present in it, those who came in it. */
export function perMinuteTable(figures: EventFigures): ExportTable {
  return {
    title: 'Посетители в минуту',
    columns: ['Минута', 'Посетителей', 'Вошли'],
    rows: figures.visitors_per_minute.map((m) => [momentText(m.minute_start), m.visitors, m.entries]),
  };
}

/** Every table of the figures, in the order of the PDF and the CSV buttons. */
export function exportTables(figures: EventFigures, hall: string): ExportTable[] {
  return [summaryTable(figures, hall), perMinuteTable(figures), ...figuresTables(figures)];
}
