import { describe, expect, it } from 'vitest';
import { checkPicture, VIEW_MIN_DETAIL, VIEW_WITHOUT_DETAILS, viewDetail, type ViewSignature } from './view-check';

/**
 * A training view without fixed details (docs/live-cameras.md «Сверка вида на настоящем потоке»): the
 * view is not compared — no similarity, no «moved» warning, the reason said — and no frame is decoded.
 * Views with details on real footage (vtest.avi as filmed, mirrored, moved): api/src/live/recorder.test.ts.
 */
const flat = (level: (i: number) => number): ViewSignature => ({ width: 64, height: 36, gradient: Array.from({ length: 64 * 36 }, (_, i) => level(i)) });

describe('view check of a featureless training view', () => {
  it('measures the share of a signature that is an edge', () => {
    expect(viewDetail(flat(() => 12))).toBe(0);
    // One pixel in ten an edge: 10 % of the picture.
    const columns = flat((i) => (i % 10 === 0 ? 255 : 0));
    expect(viewDetail(columns)).toBeCloseTo(0.1, 2);
    expect(viewDetail(columns)).toBeGreaterThan(VIEW_MIN_DETAIL);
  });

  it('does not compare a view whose training signature has no details, and says why; the aspect ratio is still checked', async () => {
    // The file does not exist: comparing the view would have to decode it and fail.
    const video = { file: '/nonexistent/segment.mp4', width: 640, height: 360 };
    const same = await checkPicture({ source: { width: 640, height: 360 }, view: flat((i) => i % 13) }, video, { startSecond: 0, endSecond: 5 });
    expect(same).toEqual({ aspectChange: 0, viewSimilarity: null, warnings: [], viewNotCompared: VIEW_WITHOUT_DETAILS });
    const other = await checkPicture({ source: { width: 768, height: 576 }, view: flat(() => 0) }, video, { startSecond: 0, endSecond: 5 });
    expect(other.viewSimilarity).toBeNull();
    expect(other.warnings).toEqual([expect.stringMatching(/^Соотношение сторон кадра другое/)]);
    // A view with details is compared: here the missing file makes that fail.
    await expect(
      checkPicture({ source: { width: 640, height: 360 }, view: flat((i) => (i % 10 === 0 ? 255 : 0)) }, video, { startSecond: 0, endSecond: 5 }),
    ).rejects.toThrow();
  });
});
