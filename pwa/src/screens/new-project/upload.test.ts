import { describe, expect, it } from 'vitest';
import { inputModes, isAcceptedVideo, UPLOAD_ACCEPT } from './upload';

describe('new-project input', () => {
  it('accepts the camera and phone video extensions, in any case, and nothing else', () => {
    for (const name of [
      'cam1_2026-11-16_09-00-00.mp4',
      'TIMELAPSE.MP4',
      'phone.MOV',
      'camera.avi',
      'clip.mkv',
      'clip.webm',
      'stream.ts',
      '00001.MTS',
      'a.m2ts',
    ]) {
      expect(isAcceptedVideo(name), name).toBe(true);
    }
    for (const name of ['clip.mp4.exe', 'clip.flv', 'clip.wmv', 'notes.txt', 'mp4', '.mp4']) expect(isAcceptedVideo(name), name).toBe(false);
    expect(UPLOAD_ACCEPT).toContain('.avi');
    expect(UPLOAD_ACCEPT).toContain('.mov');
  });
  it('offers exactly three input modes', () => {
    expect(inputModes.map((m) => m.key)).toEqual(['timelapse', 'cloud', 'analysis']);
  });
});
