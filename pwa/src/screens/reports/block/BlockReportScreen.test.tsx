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
});
