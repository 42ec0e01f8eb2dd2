import { describe, expect, it } from 'vitest';
import { cameraCaption, daySpan, needsSeek, videoAt, type CameraVideo } from './timeline';

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

describe('cameraCaption', () => {
  it('does not repeat a name that is already the camera number', () => {
    expect(cameraCaption(1, 'Камера 1')).toBe('Камера 1');
    expect(cameraCaption(4, 'камера 4 (обзорная)')).toBe('камера 4 (обзорная)');
    expect(cameraCaption(1, 'Камера 12')).toBe('Камера 1 · Камера 12');
    expect(cameraCaption(2, 'Вход')).toBe('Камера 2 · Вход');
    expect(cameraCaption(3, ' ')).toBe('Камера 3');
  });
});
