import { assembleBlockReport, type ReportInputs } from '@norma/core-wasm/report';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { BlockReport } from '../types';
import { BlockReportContent } from './BlockReportScreen';

// The report is assembled in the browser now (issue 12), so the e2e test can no longer slip in a
// block type the screen does not know: it is checked here, on the rendered markup.
describe('block report screen', () => {
  it('says which block type it does not know instead of dropping it', () => {
    const report = { blocks: [{ type: 'mystery' }] } as unknown as BlockReport;
    const html = renderToStaticMarkup(<BlockReportContent report={report} print={false} />);
    expect(html).toContain('data-testid="unknown-block"');
    expect(html).toContain('Неизвестный тип блока mystery');
  });

  it('shows the time-study rule: the cleaning rule and the source of each normative Ку', () => {
    const at = (text: string) => Date.parse(`${text}Z`);
    const inputs: ReportInputs = {
      from: at('2026-03-02T08:00:00'),
      to: at('2026-03-02T12:00:00'),
      employeeId: null,
      structure: {
        id: 1,
        name: 'Участок',
        organizationId: 1,
        timeZone: 'UTC',
        partial: false,
        productionType: 'series',
        settings: null,
        shifts: [],
        reference: {
          is_default: false,
          source: 'Справочник цеха',
          edition: '2026',
          short_element_max_seconds: 10,
          updated_at: null,
          updated_by: null,
          rows: [],
        },
        operationTypes: [],
      },
      segments: [
        {
          id: 1,
          start: at('2026-03-02T08:00:00'),
          end: at('2026-03-02T09:00:00'),
          category: 'main',
          operationId: 1,
          operationName: 'Сборка',
          employeeId: 7,
          machinePaced: false,
          workplaceId: 1,
          videoId: null,
        },
      ],
      employees: [{ id: 7, name: 'Иванов' }],
      workplaces: [],
      stamps: [],
      manualUnits: [],
      videos: [],
    };
    const report = assembleBlockReport(inputs) as unknown as BlockReport;
    const html = renderToStaticMarkup(<BlockReportContent report={report} print={false} />);
    expect(html).toContain('<h2 data-pdf="heading">Правило хронометража</h2>');
    expect(html).toContain('Очистка хроноряда — по одному крайнему замеру (выбрано в настройках структуры).');
    // The operation table starts collapsed on screen; the printed report (PDF) shows it open.
    const printed = renderToStaticMarkup(<BlockReportContent report={report} print={true} />);
    expect(printed).toContain('<th>Источник Ку</th>');
    expect(printed).toContain('<td>справочник (Справочник цеха, 2026): серийное производство, ручная работа</td>');
  });
});
