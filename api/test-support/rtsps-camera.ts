import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mediaTools, run } from '@norma/workers/media';
import { VTEST_AVI } from './rtsp-camera';

/**
 * A real camera over RTSP on TLS (rtsps, issue 45): GStreamer's RTSP server from Debian's packages,
 * scripted in rtsps-camera.py beside this file with Debian's python3-gi. rtsp-server-perl cannot stand
 * in here: it has no TLS and sends RTP only over UDP, while ffmpeg's rtsps takes RTP interleaved in
 * the TLS connection. The certificate is self-signed, made at start by openssl into a temporary
 * folder, as a camera's own usually is; the server asks for a login (Basic) and serves vtest.avi as
 * h264 (a key frame a second) in a loop at its 10 frames a second.
 */
const PYTHON = '/usr/bin/python3';
const SERVER_SCRIPT = join(import.meta.dirname, 'rtsps-camera.py');
const OPENSSL = '/usr/bin/openssl';

function missingHere(): string | null {
  if (!existsSync(PYTHON)) return `нет ${PYTHON}: установите пакет python3-gi (scripts/system-deps.sh)`;
  if (!existsSync(OPENSSL)) return `нет ${OPENSSL}: установите пакет openssl`;
  if (!existsSync(VTEST_AVI)) return `нет ${VTEST_AVI}: установите пакет opencv-doc`;
  // The script itself says which GStreamer element, binding or TLS backend is missing.
  const check = spawnSync(PYTHON, [SERVER_SCRIPT, '--check'], { encoding: 'utf8' });
  if (check.status === 0) return null;
  return `${(check.stdout + check.stderr).trim() || 'GStreamer RTSP server не запускается'} (scripts/system-deps.sh)`;
}

/** Why the rtsps camera cannot run here, or null. */
export const RTSPS_MISSING = missingHere();

export interface RtspsCamera {
  /** The camera's address: `rtsps://[credentials@]127.0.0.1:port/path` (`path` served, any other refused). */
  url(credentials?: string, path?: string): string;
  /** The same port as plain rtsp:// (the server speaks only TLS there). */
  plainUrl(credentials?: string): string;
  /** What the server said on stderr (for a failure's diagnosis). */
  log(): string;
  stop(): Promise<void>;
}

export interface RtspsCameraOptions {
  /** The login the camera accepts (Basic). */
  user: string;
  password: string;
  /** The stream's path (default `Streaming/Channels/101`, as IP cameras name their first channel). */
  path?: string;
}

export async function startRtspsCamera(options: RtspsCameraOptions): Promise<RtspsCamera> {
  const dir = mkdtempSync(join(tmpdir(), 'norma-rtsps-'));
  try {
    return await startIn(dir, options);
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

async function startIn(dir: string, options: RtspsCameraOptions): Promise<RtspsCamera> {
  const path = options.path ?? 'Streaming/Channels/101';
  const { ffmpeg } = await mediaTools();
  const [cert, key, footage] = [join(dir, 'cert.pem'), join(dir, 'key.pem'), join(dir, 'vtest.h264')];
  // Self-signed, for a day: nothing signed it, and the recorder connects anyway (docs/live-cameras.md).
  await run(OPENSSL, [
    ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'],
    ...['-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=norma-test-camera'],
  ]);
  // 30 s of vtest.avi as a camera sends it (h264, a key frame a second), an Annex-B bytestream the server loops.
  await run(ffmpeg, [
    ...['-hide_banner', '-loglevel', 'error', '-y', '-i', VTEST_AVI, '-t', '30', '-an'],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'zerolatency', '-force_key_frames', 'expr:gte(t,n_forced*1)', '-pix_fmt', 'yuv420p'],
    ...['-bsf:v', 'h264_mp4toannexb', '-f', 'h264', footage],
  ]);
  const server = Bun.spawn([PYTHON, SERVER_SCRIPT, '--cert', cert, '--key', key, '--path', path, '--h264', footage], {
    // The login by environment, not on a command line any process may read.
    env: { ...process.env, RTSPS_CAMERA_USER: options.user, RTSPS_CAMERA_PASSWORD: options.password },
    // Kept open: the server ends itself when this process is gone and the pipe closes.
    stdin: 'pipe',
    stdout: 'pipe',
    stderr: 'pipe',
  });
  let stderr = '';
  void (async () => {
    for await (const chunk of server.stderr) stderr += new TextDecoder().decode(chunk);
  })();
  const port = await readyPort(server.stdout);
  if (port === null) {
    await server.exited;
    throw new Error(`the rtsps camera did not start (${server.exitCode}): ${stderr.trim().slice(-2000)}`);
  }
  const address = (scheme: string, credentials?: string, at = path) => `${scheme}://${credentials ? `${credentials}@` : ''}127.0.0.1:${port}/${at}`;
  return {
    url: (credentials, at) => address('rtsps', credentials, at),
    plainUrl: (credentials) => address('rtsp', credentials),
    log: () => stderr,
    async stop() {
      server.kill('SIGTERM');
      await server.exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The port of the server's «ready PORT» line, or null when it ended first. Reads its stdout to the end
 * (a closed pipe would fail the server's next write).
 */
function readyPort(stdout: ReadableStream<Uint8Array>): Promise<number | null> {
  return new Promise((resolve) => {
    void (async () => {
      let text = '';
      const decoder = new TextDecoder();
      for await (const chunk of stdout) {
        text += decoder.decode(chunk);
        const ready = /^ready (\d+)\n/m.exec(text);
        if (ready) resolve(Number(ready[1]));
      }
      resolve(null);
    })();
  });
}
