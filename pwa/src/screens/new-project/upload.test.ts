import { describe, expect, it } from 'vitest';
import { inputModes, isMp4 } from './upload';

describe('new-project input', () => {
  it('accepts only the mp4 extension, in any case', () => {
    expect(isMp4('cam1_2026-11-16_09-00-00.mp4')).toBe(true);
    expect(isMp4('TIMELAPSE.MP4')).toBe(true);
    expect(isMp4('clip.mov')).toBe(false);
    expect(isMp4('clip.mp4.exe')).toBe(false);
  });
  it('offers exactly three input modes', () => {
    expect(inputModes.map((m) => m.key)).toEqual(['timelapse', 'cloud', 'analysis']);
  });
});
