import { existsSync, mkdtempSync, rmSync } from 'node:fs';
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
   * h264 with a key frame a second, then looped without re-encoding); resolves once the server
   * describes the stream (the publisher's ANNOUNCE is through).
   */
  publish(path: string, source?: string): Promise<void>;
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
    async publish(path, source = VTEST_AVI) {
      const footage = await footageOf(source);
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
