import { describe, expect, it } from 'vitest';
import { daySpan, needsSeek, videoAt, type CameraVideo } from './timeline';

const videos: CameraVideo[] = [
  { id: 1, filename: 'a', start: 1000, duration: 10 },
  { id: 2, filename: 'b', start: 11_000, duration: 10 },
];

describe('multi-video timeline', () => {
  it('finds the file covering an instant, with half-open spans', () => {
    expect(videoAt(videos, 1000)?.id).toBe(1);
    expect(videoAt(videos, 10_999)?.id).toBe(1);
    expect(videoAt(videos, 11_000)?.id).toBe(2);
    expect(videoAt(videos, 21_000)).toBeNull();
    expect(videoAt(videos, 999)).toBeNull();
  });
  it('spans the day from the first start to the last end', () => {
    expect(daySpan(videos)).toEqual({ from: 1000, to: 21_000 });
    expect(daySpan([])).toBeNull();
  });
  it('seeks only past the drift tolerance', () => {
    expect(needsSeek(10, 10.4)).toBe(false);
    expect(needsSeek(10, 10.6)).toBe(true);
  });
});
