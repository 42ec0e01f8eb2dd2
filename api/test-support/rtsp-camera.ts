import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mediaTools, run } from '@norma/workers/media';

/**
 * A real RTSP server standing in for a camera (issue 45): Debian's rtsp-server-perl on free ports,
 * and ffmpeg publishing real footage into it over UDP (it refuses TCP-interleaved publishing) —
 * vtest.avi from Debian's opencv-doc, encoded once to h264 (ultrafast, zerolatency, a key frame a
 * second) and then sent without re-encoding, looped, at its own rate.
 */
export const RTSP_SERVER = '/usr/bin/rtsp-server-perl';
export const VTEST_AVI = '/usr/share/doc/opencv-doc/examples/data/vtest.avi';

/** How a camera encodes its picture (issue 45: h264, H.265 and MJPEG cameras), and whether it sends sound. */
export interface CameraEncoding {
  codec?: 'h264' | 'hevc' | 'mjpeg';
  /** A 440 Hz tone in AAC beside the picture (a camera with a microphone). */
  audio?: boolean;
  /** Frames a second the camera sends (the source's own unless said: vtest.avi has 10). */
  fps?: number;
}

/** ffmpeg output options of a camera's picture: a key frame a second (H.265: every `fps` frames, vtest's 10 unless said). */
function videoEncoding(codec: NonNullable<CameraEncoding['codec']>, fps = 10): string[] {
  if (codec === 'hevc')
    return [
      '-c:v',
      'libx265',
      '-preset',
      'ultrafast',
      '-x265-params',
      `keyint=${fps}:min-keyint=${fps}:scenecut=0:no-open-gop=1:log-level=error`,
      '-pix_fmt',
      'yuv420p',
    ];
  // RTP/JPEG (RFC 2435) carries only the standard Huffman tables.
  if (codec === 'mjpeg') return ['-c:v', 'mjpeg', '-huffman', 'default', '-q:v', '5', '-pix_fmt', 'yuvj420p'];
  return ['-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'zerolatency', '-force_key_frames', 'expr:gte(t,n_forced*1)', '-pix_fmt', 'yuv420p'];
}

/** Why the live camera tests cannot run here, or null. */
export const RTSP_MISSING = !existsSync(RTSP_SERVER)
  ? `нет ${RTSP_SERVER}: установите пакет rtsp-server-perl (scripts/system-deps.sh)`
  : !existsSync(VTEST_AVI)
    ? `нет ${VTEST_AVI}: установите пакет opencv-doc`
    : null;

async function freeTcpPort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.on('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}

/** Whether the server answers an RTSP DESCRIBE of `path` with 200 (a raw request: no player started). */
async function describable(port: number, path: string): Promise<boolean> {
  return new Promise((resolve) => {
    let answer = '';
    Bun.connect({
      hostname: '127.0.0.1',
      port,
      socket: {
        open(socket) {
          socket.write(`DESCRIBE rtsp://127.0.0.1:${port}/${path} RTSP/1.0\r\nCSeq: 1\r\nAccept: application/sdp\r\n\r\n`);
        },
        data(socket, chunk) {
          answer += new TextDecoder().decode(chunk);
          if (answer.includes('\r\n')) {
            socket.end();
            resolve(/^RTSP\/1\.0 200/.test(answer));
          }
        },
        close() {
          resolve(/^RTSP\/1\.0 200/.test(answer));
        },
        error() {
          resolve(false);
        },
      },
    }).catch(() => resolve(false));
  });
}

export interface RtspCamera {
  /** The address a recorder reads (`rtsp://[credentials@]127.0.0.1:port/path`). */
  url(path: string, credentials?: string): string;
  /**
   * Starts publishing the footage at `path` (vtest.avi, or the video file `source`: encoded once to
   * h264 with a key frame a second, then looped without re-encoding; `asIs`: `source` is h264 ready to
   * send — e.g. hdFootage's — and is sent as it is; `codec`, `audio`: encoded as such a camera sends it); resolves once the server describes the stream
   * (the publisher's ANNOUNCE is through).
   */
  publish(path: string, source?: string, options?: { asIs?: boolean } & CameraEncoding): Promise<void>;
  /**
   * Stops the publisher (the camera's stream ends) and waits for it to end. With SIGTERM ffmpeg says
   * TEARDOWN: rtsp-server-perl keeps the path of a publisher killed outright and refuses the next
   * one's ANNOUNCE (403), which a real camera coming back never meets.
   */
  unpublish(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * One RTSP camera (server and publisher) on the machine at a time, across test processes: two
 * rtsp-server-perl run by two test files at once gave the recorder streams without packets («Error
 * initializing output stream 0:0», every reconnection) — seen again with recorder.test.ts beside
 * live-board.e2e.test.ts; the cause is not found (docs/live-cameras.md «Тесты»). The lock is a folder
 * holding its owner's pid: a second test process waits until it is gone (a state, polled), and takes
 * over a lock whose owner died.
 */
const RTSP_LOCK = join(tmpdir(), 'norma-rtsp-camera.lock');

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function takeRtspLock(): Promise<() => void> {
  const pidFile = join(RTSP_LOCK, 'pid');
  for (;;) {
    try {
      mkdirSync(RTSP_LOCK);
      writeFileSync(pidFile, String(process.pid));
      return () => rmSync(RTSP_LOCK, { recursive: true, force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    try {
      const owner = existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8')) : 0;
      // An owner that died, or a folder left without its pid (its owner died between the two steps).
      const stale = owner > 0 ? !alive(owner) : Date.now() - statSync(RTSP_LOCK).mtimeMs > 10_000;
      if (stale) rmSync(RTSP_LOCK, { recursive: true, force: true });
    } catch {
      // Released meanwhile: take it on the next turn.
    }
    await Bun.sleep(250);
  }
}

export async function startRtspCamera(): Promise<RtspCamera> {
  const release = await takeRtspLock();
  try {
    return await startLockedRtspCamera(release);
  } catch (err) {
    release();
    throw err;
  }
}

async function startLockedRtspCamera(release: () => void): Promise<RtspCamera> {
  const { ffmpeg } = await mediaTools();
  const dir = mkdtempSync(join(tmpdir(), 'norma-rtsp-'));
  const encoded = new Map<string, string>();
  /** The source encoded as the camera sends it (h264 unless said: a key frame a second), no sound unless `audio`. */
  const footageOf = async (source: string, encoding: CameraEncoding = {}) => {
    const codec = encoding.codec ?? 'h264';
    const name = `${source}|${codec}|${encoding.audio ? 'audio' : ''}|${encoding.fps ?? ''}`;
    const known = encoded.get(name);
    if (known) return known;
    const footage = join(dir, `footage-${encoded.size}.${codec === 'mjpeg' ? 'mov' : 'mp4'}`);
    const sound = encoding.audio ? ['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000'] : [];
    const tracks = encoding.audio ? ['-map', '0:v:0', '-map', '1:a:0', '-c:a', 'aac', '-b:a', '64k', '-shortest'] : ['-an'];
    // H.265 encodes slowly: 30 s of footage, looped by the publisher.
    const length = codec === 'hevc' ? ['-t', '30'] : [];
    const rate = encoding.fps ? ['-r', String(encoding.fps)] : [];
    await run(ffmpeg, [
      '-hide_banner',
      '-loglevel',
      'error',
      '-i',
      source,
      ...sound,
      ...length,
      ...tracks,
      ...rate,
      ...videoEncoding(codec, encoding.fps),
      footage,
    ]);
    encoded.set(name, footage);
    return footage;
  };
  await footageOf(VTEST_AVI);
  const clientPort = await freeTcpPort();
  const sourcePort = await freeTcpPort();
  const rtpStart = 20_000 + 2 * Math.floor(Math.random() * 15_000);
  const server = Bun.spawn(
    [
      RTSP_SERVER,
      '-c',
      String(clientPort),
      '-s',
      String(sourcePort),
      '--client_listen_address',
      '127.0.0.1',
      '--source_listen_address',
      '127.0.0.1',
      '--rtp_start_port',
      String(rtpStart),
    ],
    { stdout: 'ignore', stderr: 'ignore' },
  );
  // Until both ports answer.
  for (;;) {
    if (server.exitCode !== null) throw new Error(`rtsp-server-perl exited (${server.exitCode})`);
    const ok = await Promise.all(
      [clientPort, sourcePort].map((port) =>
        Bun.connect({ hostname: '127.0.0.1', port, socket: { data() {} } }).then(
          (s) => (s.end(), true),
          () => false,
        ),
      ),
    );
    if (ok.every(Boolean)) break;
    await Bun.sleep(100);
  }
  let publisher: ReturnType<typeof Bun.spawn> | null = null;
  const unpublish = async () => {
    if (!publisher) return;
    publisher.kill('SIGTERM');
    await publisher.exited;
    publisher = null;
  };
  return {
    url: (path, credentials) => `rtsp://${credentials ? `${credentials}@` : ''}127.0.0.1:${clientPort}/${path}`,
    async publish(path, source = VTEST_AVI, options = {}) {
      const footage = options.asIs ? source : await footageOf(source, options);
      await unpublish();
      publisher = Bun.spawn(
        [
          ffmpeg,
          '-hide_banner',
          '-loglevel',
          'error',
          '-re',
          '-stream_loop',
          '-1',
          '-i',
          footage,
          '-c',
          'copy',
          '-f',
          'rtsp',
          '-rtsp_transport',
          'udp',
          `rtsp://127.0.0.1:${sourcePort}/${path}`,
        ],
        { stdin: 'ignore', stdout: 'ignore', stderr: 'ignore' },
      );
      while (!(await describable(clientPort, path))) {
        if (publisher.exitCode !== null) throw new Error(`the publisher exited (${publisher.exitCode})`);
        await Bun.sleep(50);
      }
    },
    unpublish,
    async stop() {
      await unpublish();
      server.kill();
      await server.exited;
      rmSync(dir, { recursive: true, force: true });
      release();
    },
  };
}

/**
 * A camera-like 1080p25 stream of ~4 Mbit/s for the cost measurements (bench/live-cameras.bench.ts):
 * the synthetic workplace scene (workers/test-support/vision-scene.ts, its boxes where SCENE_AREAS
 * says) drawn on a 1920×1080 noisy frame, encoded to h264 at a constant 4 Mbit/s with a key frame a
 * second — made once with ffmpeg into `file` (kept: a second call finds it), never downloaded.
 * `sceneFile`: the scene as drawn (to train a model on the same picture).
 */
export async function hdFootage(file: string, sceneFile: string, seconds: number, makeScene: (path: string) => Promise<void>): Promise<void> {
  if (existsSync(file) && existsSync(sceneFile)) return;
  const { ffmpeg } = await mediaTools();
  await makeScene(sceneFile);
  const part = `${file}.part.mp4`;
  await run(ffmpeg, [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-i',
    sceneFile,
    '-t',
    String(seconds),
    '-an',
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-b:v',
    '4M',
    '-minrate',
    '4M',
    '-maxrate',
    '4M',
    '-bufsize',
    '4M',
    '-x264-params',
    'nal-hrd=cbr',
    '-g',
    '25',
    '-keyint_min',
    '25',
    '-sc_threshold',
    '0',
    '-r',
    '25',
    '-pix_fmt',
    'yuv420p',
    '-movflags',
    '+faststart',
    part,
  ]);
  renameSync(part, file);
}

export interface RefusingCamera {
  /** The address (`rtsp://[credentials@]127.0.0.1:port/path`). */
  url(path: string, credentials?: string): string;
  /** The requests it answered: method and whether they carried credentials (Authorization). */
  requests: { method: string; authorized: boolean }[];
  stop(): Promise<void>;
}

/**
 * A camera that refuses every login (rtsp-server-perl checks no credentials): a tiny RTSP server
 * answering every request with `401 Unauthorized` and a Basic and a Digest challenge, as a camera does
 * when the name or password in the address is wrong.
 */
export async function startRefusingCamera(): Promise<RefusingCamera> {
  const requests: RefusingCamera['requests'] = [];
  const server = Bun.listen<{ buffer: string }>({
    hostname: '127.0.0.1',
    port: 0,
    socket: {
      open(socket) {
        socket.data = { buffer: '' };
      },
      data(socket, chunk) {
        socket.data.buffer += new TextDecoder().decode(chunk);
        for (let end = socket.data.buffer.indexOf('\r\n\r\n'); end >= 0; end = socket.data.buffer.indexOf('\r\n\r\n')) {
          const head = socket.data.buffer.slice(0, end);
          socket.data.buffer = socket.data.buffer.slice(end + 4);
          const method = head.split(' ', 1)[0] ?? '';
          const cseq = /^CSeq:\s*(\d+)/im.exec(head)?.[1] ?? '0';
          requests.push({ method, authorized: /^Authorization:/im.test(head) });
          socket.write(
            `RTSP/1.0 401 Unauthorized\r\nCSeq: ${cseq}\r\nWWW-Authenticate: Digest realm="camera", nonce="${crypto.randomUUID().replaceAll('-', '')}"\r\n` +
              `WWW-Authenticate: Basic realm="camera"\r\nContent-Length: 0\r\n\r\n`,
          );
        }
      },
    },
  });
  return {
    url: (path, credentials) => `rtsp://${credentials ? `${credentials}@` : ''}127.0.0.1:${server.port}/${path}`,
    requests,
    async stop() {
      server.stop(true);
    },
  };
}
