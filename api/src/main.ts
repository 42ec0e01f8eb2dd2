import { bootstrap } from './boot';
import { configFromEnv } from './config';
import { configureMediaLimits } from '@norma/workers/media-limits';
// The one place the server wires the job handlers (job-registry.ts): the API's domains never import it.
import { startWorkers } from './job-registry';
import { availableParallelism } from 'node:os';
import { startDocumentThread } from './http/document-threads';
import { DOCUMENT_THREAD_URL } from './threads/document-read';
import { startReportThreads } from './threads/report-threads';
import { startMoveNetThreads } from './threads/movenet-threads';
import { checkRequestSize } from './video/body-limit';
import { CLIENT_IP_HEADER, clientAddress } from './http/client-address';
import { defaultVideoCacheDir, seedDemoIfEmpty } from './seed/demo';
import { isStorageFull } from './db/storage-full';
import { StartupError } from './storage/data-dir';
import { startRecorder } from './live/recorder';
import { join } from 'node:path';

/**
 * A start-up failure the administrator can act on is one Russian line on stderr and exit code 1;
 * only an unexpected error (a bug) keeps its stack trace.
 */
function stopStartup(err: unknown): never {
  const code = String((err as { code?: unknown } | null)?.code ?? '');
  const message = err instanceof Error ? err.message : String(err);
  if (err instanceof StartupError) console.error(message);
  else if (isStorageFull(err)) console.error(`Norma не запустилась: недостаточно места на диске для папки данных ${config.dataDir}.`);
  else if (code === 'EADDRINUSE') console.error(`Norma не запустилась: порт ${config.port} занят другой программой (задайте другой в PORT).`);
  else if (code.startsWith('SQLITE_') || /^E[A-Z]+$/.test(code)) console.error(`Norma не запустилась: ${message}`);
  else console.error('Norma не запустилась:', err);
  process.exit(1);
}

const config = configFromEnv();
configureMediaLimits(config.media);
const { app, deps } = await bootstrap(config).catch(stopStartup);
// Wide reports are computed on threads of their own, so that they never hold this one (threads/report-threads.ts);
// one express thread more, for a requester with no other heavy request in flight while floods keep the others busy.
deps.reportThreads = startReportThreads(config, Math.max(1, Math.min(4, availableParallelism() - 1)), 1);
// Large documents (markup saves, drawings) are read and checked on a thread of their own (http/document-threads.ts).
const stopDocumentThread = startDocumentThread(DOCUMENT_THREAD_URL);
// MoveNet (GET /api/v1/humans) runs on threads of its own, one per strip of a frame, its model loaded in each once (threads/movenet-threads.ts).
deps.movenetThread = startMoveNetThreads();
if (config.demo) {
  await seedDemoIfEmpty(deps, {
    videoCacheDir: defaultVideoCacheDir(),
    hall: config.demoHall ? undefined : false,
    log: (line) => console.log(`[seed] ${line}`),
  }).catch(stopStartup);
}

// Video ingest and other jobs run beside the API (ffmpeg in child processes), NORMA_JOB_SLOTS at once; NORMA_WORKERS=0 turns them off.
const workers = config.workers ? startWorkers(deps, { concurrency: config.jobSlots, log: (line) => console.log(`[jobs] ${line}`) }) : null;

// Camera streams are recorded beside the API too (live/recorder.ts); NORMA_RECORDERS=0 turns it off (then `npm run recorder` elsewhere).
const recorder = config.recorders
  ? startRecorder(deps, { workDir: join(config.dataDir, 'live-work'), log: (line) => console.log(`[recorder] ${line}`) })
  : null;

const serve = () =>
  Bun.serve({
    port: config.port,
    idleTimeout: 120,
    // Sizes are checked by checkRequestSize (JSON 413); Bun's own limit would answer with an empty 413.
    maxRequestBodySize: Number.MAX_SAFE_INTEGER,
    fetch(request, server) {
      // Without Content-Length or Transfer-Encoding a request has no body (RFC 9112 §6.3): nothing to limit.
      const size = request.headers.has('content-length') || request.headers.has('transfer-encoding') ? checkRequestSize(request, config.uploadMaxBytes) : null;
      if (size && 'refuse' in size) return size.refuse;
      // The client address is set here (over whatever the client sent), for sign-in rate limiting;
      // behind a trusted reverse proxy it comes from X-Forwarded-For (NORMA_TRUSTED_PROXY).
      const peer = server.requestIP(request)?.address;
      request.headers.set(CLIENT_IP_HEADER, clientAddress(peer, request.headers.get('x-forwarded-for'), config.trustedProxies));
      // Most requests go on as they came; only a body cut off at the size limit needs a new one,
      // built around the stream (`new Request(request, …)` would read a whole upload into memory).
      if (!size || size.body === request.body) return app.fetch(request);
      return app.fetch(
        new Request(request.url, { method: request.method, headers: request.headers, body: size.body, signal: request.signal, duplex: 'half' } as RequestInit),
      );
    },
  });
let server: ReturnType<typeof serve>;
try {
  server = serve();
} catch (err) {
  stopStartup(err);
}
console.log(`Norma слушает ${config.baseUrl} (порт ${server.port}, данные: ${config.dataDir})`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, async () => {
    // Running jobs go back to the queue (their ffmpeg is stopped) and resume on the next start.
    await workers?.stop();
    // Each recording closes its segment in progress and registers it before the leases are given up.
    await recorder?.stop();
    deps.reportThreads?.close();
    deps.movenetThread?.close();
    stopDocumentThread();
    server.stop();
    process.exit(0);
  });
}
