import { existsSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
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
const VTEST_AVI = '/usr/share/doc/opencv-doc/examples/data/vtest.avi';

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
   * send — e.g. hdFootage's — and is sent as it is); resolves once the server describes the stream
   * (the publisher's ANNOUNCE is through).
   */
  publish(path: string, source?: string, options?: { asIs?: boolean }): Promise<void>;
  /**
   * Stops the publisher (the camera's stream ends) and waits for it to end. With SIGTERM ffmpeg says
   * TEARDOWN: rtsp-server-perl keeps the path of a publisher killed outright and refuses the next
   * one's ANNOUNCE (403), which a real camera coming back never meets.
   */
  unpublish(): Promise<void>;
  stop(): Promise<void>;
}

export async function startRtspCamera(): Promise<RtspCamera> {
  const { ffmpeg } = await mediaTools();
  const dir = mkdtempSync(join(tmpdir(), 'norma-rtsp-'));
  const encoded = new Map<string, string>();
  /** The source as h264 ready to send: a key frame a second (at any frame rate), no audio. */
  const footageOf = async (source: string) => {
    const known = encoded.get(source);
    if (known) return known;
    const footage = join(dir, `footage-${encoded.size}.mp4`);
    await run(ffmpeg, [
      '-hide_banner',
      '-loglevel',
      'error',
      '-i',
      source,
      '-an',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-tune',
      'zerolatency',
      '-force_key_frames',
      'expr:gte(t,n_forced*1)',
      '-pix_fmt',
      'yuv420p',
      footage,
    ]);
    encoded.set(source, footage);
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
      const footage = options.asIs ? source : await footageOf(source);
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
