import { describe, expect, it } from 'vitest';
import { chartLayoutWidth, NARROW_CHART_PX } from './useChartWidth';

describe('the width a chart is laid out for', () => {
  it('keeps the design width until the box is measured, and in a wide box', () => {
    expect(chartLayoutWidth(0, 1000)).toBe(1000);
    expect(chartLayoutWidth(1300, 1000)).toBe(1000);
    expect(chartLayoutWidth(NARROW_CHART_PX, 1000)).toBe(1000);
  });
  it('takes a phone box its own width in whole pixels, not narrower than a 320 px phone allows', () => {
    expect(chartLayoutWidth(343.6, 1000)).toBe(343);
    expect(chartLayoutWidth(200, 1000)).toBe(260);
  });
  it('never widens a chart whose design is narrower than the box', () => {
    expect(chartLayoutWidth(500, 480)).toBe(480);
  });
});
