import { describe, expect, it } from 'vitest';
import {
  maskStreamUrl,
  mergeMaskedPassword,
  parseProgress,
  parseSegmentList,
  recordArguments,
  streamFailureReason,
  streamUrlProblem,
  withoutCredentials,
} from './rtsp-record';

describe('stream addresses', () => {
  it('accepts rtsp and rtsps with a host, refuses the rest in Russian', () => {
    expect(streamUrlProblem('rtsp://10.0.0.7:554/Streaming/101')).toBeNull();
    expect(streamUrlProblem('rtsps://user:p%40ss@cam.local/live')).toBeNull();
    expect(streamUrlProblem('http://10.0.0.7/x')).toBe('Принимаются только адреса rtsp:// и rtsps://');
    expect(streamUrlProblem('file:///etc/passwd')).toBe('Принимаются только адреса rtsp:// и rtsps://');
    expect(streamUrlProblem('rtsp:///x')).toMatch(/не указан узел|не разобран/);
    expect(streamUrlProblem('rtsp://a b/x')).toMatch(/пробел/);
    expect(streamUrlProblem(`rtsp://h/${'x'.repeat(1100)}`)).toMatch(/длиннее 1024/);
  });

  it('masks the password everywhere it may show, and a masked form sent back keeps the stored one for the same user and host only', () => {
    expect(maskStreamUrl('rtsp://admin:s3cr3t@10.0.0.7:554/a?b=1')).toBe('rtsp://admin:***@10.0.0.7:554/a?b=1');
    expect(maskStreamUrl('rtsp://10.0.0.7/a')).toBe('rtsp://10.0.0.7/a');
    expect(withoutCredentials('rtsp://admin:s3cr3t@10.0.0.7/a: Connection refused')).toBe('rtsp://admin:***@10.0.0.7/a: Connection refused');
    const stored = 'rtsp://admin:s3cr3t@10.0.0.7/a';
    expect(mergeMaskedPassword('rtsp://admin:***@10.0.0.7/b', stored)).toBe('rtsp://admin:s3cr3t@10.0.0.7/b');
    expect(mergeMaskedPassword('rtsp://admin:***@10.0.0.8/a', stored)).toBe('rtsp://admin:***@10.0.0.8/a');
    expect(mergeMaskedPassword('rtsp://other:***@10.0.0.7/a', stored)).toBe('rtsp://other:***@10.0.0.7/a');
    expect(mergeMaskedPassword('rtsp://admin:new@10.0.0.7/a', stored)).toBe('rtsp://admin:new@10.0.0.7/a');
  });
});

describe('recording', () => {
  it('pins ffmpeg to the RTSP demuxer and its protocols, copies without re-encoding, lists closed segments', () => {
    const args = recordArguments({ url: 'rtsp://10.0.0.7/a', dir: '/w', segmentSeconds: 300 });
    const after = (flag: string) => args[args.indexOf(flag) + 1];
    expect(after('-protocol_whitelist')).toBe('rtsp,rtsps,rtp,udp,tcp,tls');
    expect(after('-f')).toBe('rtsp');
    expect(after('-i')).toBe('rtsp://10.0.0.7/a');
    expect(after('-c:v')).toBe('copy');
    // The first video track, and the first sound track when there is one (in AAC: MP4 holds no G.711).
    expect(args.filter((_, i) => args[i - 1] === '-map')).toEqual(['0:v:0', '0:a:0?']);
    expect(after('-c:a')).toBe('aac');
    expect(after('-segment_time')).toBe('300');
    // The index first: a closed segment is browser-ready as written (no remux, docs/live-cameras.md).
    expect(after('-segment_format_options')).toBe('movflags=+faststart');
    expect(after('-segment_list')).toBe('/w/segments.csv');
    expect(args.at(-1)).toBe('/w/.segment-%06d.mp4');
    expect(() => recordArguments({ url: 'concat:/etc/passwd', dir: '/w', segmentSeconds: 60 })).toThrow(/rtsp/);
  });

  it('reads only complete lines of the segment list and of the progress', () => {
    expect(parseSegmentList('.segment-000000.mp4,0.000000,5.400000\n.segment-000001.mp4,5.400000,8.7')).toEqual([
      { file: '.segment-000000.mp4', start: 0, end: 5.4 },
    ]);
    expect(parseSegmentList('../x.mp4,0,1\n.segment-000001.mp4,1,2\n')).toEqual([{ file: '.segment-000001.mp4', start: 1, end: 2 }]);
    expect(parseProgress('frame=1\nout_time_us=4000098\nprogress=continue\nout_time_us=46')).toEqual({ outTimes: [4.000098], rest: 'out_time_us=46' });
  });

  it('says in Russian why a stream did not open', () => {
    expect(streamFailureReason('method DESCRIBE failed: 401 Unauthorized', false)).toMatch(/отказала во входе/);
    expect(streamFailureReason('Server returned 404 Not Found', false)).toMatch(/нет потока по этому пути/);
    expect(streamFailureReason('Connection refused', false)).toMatch(/соединение отклонено/);
    expect(streamFailureReason('[tls @ 0x55] An unexpected TLS packet was received.\nrtsps://127.0.0.1:554/x: Input/output error', false)).toMatch(
      /^Защищённое соединение \(rtsps\) не установлено/,
    );
    // A port or a pointer that holds 401/403/404 is not a status (a full CI run got «403» for a TLS failure on such a line).
    const tlsOnPort = '[tls @ 0x5604031a2b40] Error in the pull function.\nrtsps://127.0.0.1:40317/cam-sound: Input/output error';
    expect(streamFailureReason(tlsOnPort, false)).toMatch(/^Защищённое соединение \(rtsps\) не установлено/);
    expect(streamFailureReason('[rtsp @ 0x55d4041b0c00] method DESCRIBE failed: 404 Not Found\nrtsp://127.0.0.1:54011/x', false)).toMatch(
      /нет потока по этому пути/,
    );
    expect(streamFailureReason('[rtsp @ 0x55d4011b0c00] method DESCRIBE failed: 403 Forbidden', false)).toMatch(/запретила доступ/);
    expect(streamFailureReason('[rtsp @ 0x55d4011b0c00] method DESCRIBE failed: 403 Access Denied', false)).toMatch(/запретила доступ/);
    expect(streamFailureReason('frame=0 time=00:00:00.403 bitrate=N/A\n[tls @ 0x1] handshake failed', false)).toMatch(/^Защищённое соединение/);
    expect(streamFailureReason('', true)).toMatch(/не ответила вовремя/);
    expect(streamFailureReason('rtsp://u:pw@h/x: something odd', false)).not.toContain('pw@');
  });
});
