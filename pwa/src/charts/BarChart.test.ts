import { describe, expect, it } from 'vitest';
import { labelClearOfLine } from './BarChart';

describe('bar value labels and the dashed norm line', () => {
  it('lifts a label the line would cross to just above the line', () => {
    // Label baseline 100 occupies y 88–103; a line at y 95 crosses it → baseline 90 (text 78–93).
    expect(labelClearOfLine(100, 95)).toBe(90);
    // A bar just under the line: its label would sit on the line.
    expect(labelClearOfLine(203, 200)).toBe(195);
  });
  it('leaves labels clear of the line where they are', () => {
    expect(labelClearOfLine(100, 150)).toBe(100); // line well below the label
    expect(labelClearOfLine(100, 60)).toBe(100); // line well above the label
    expect(labelClearOfLine(100, null)).toBe(100);
  });
});
