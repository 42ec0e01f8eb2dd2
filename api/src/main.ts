import { CLIENT_IP_HEADER } from './auth/auth';
import { bootstrap } from './boot';
import { configFromEnv } from './config';
import { startWorkers } from './jobs/workers';
import { checkRequestSize } from './video/body-limit';
import { defaultVideoCacheDir, seedDemoIfEmpty } from './seed/demo';

const config = configFromEnv();
const { app, deps } = await bootstrap(config);
if (config.demo) {
  await seedDemoIfEmpty(deps, { videoCacheDir: defaultVideoCacheDir(), log: (line) => console.log(`[seed] ${line}`) });
}

// Video ingest and other jobs run beside the API (ffmpeg in child processes); NORMA_WORKERS=0 turns them off.
const workers = config.workers ? startWorkers(deps, { log: (line) => console.log(`[jobs] ${line}`) }) : null;

const server = Bun.serve({
  port: config.port,
  idleTimeout: 120,
  // Sizes are checked by checkRequestSize (JSON 413); Bun's own limit would answer with an empty 413.
  maxRequestBodySize: Number.MAX_SAFE_INTEGER,
  fetch(request, server) {
    const size = checkRequestSize(request, config.uploadMaxBytes);
    if ('refuse' in size) return size.refuse;
    // The client address is set here, never taken from the client, for sign-in rate limiting.
    const headers = new Headers(request.headers);
    headers.set(CLIENT_IP_HEADER, server.requestIP(request)?.address ?? 'unknown');
    // The body goes on as a stream: `new Request(request, …)` would read a whole upload into memory.
    return app.fetch(
      new Request(request.url, { method: request.method, headers, body: size.body, signal: request.signal, duplex: 'half' } as RequestInit),
    );
  },
});
console.log(`Norma слушает ${config.baseUrl} (порт ${server.port}, данные: ${config.dataDir})`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, async () => {
    // Running jobs go back to the queue (their ffmpeg is stopped) and resume on the next start.
    await workers?.stop();
    server.stop();
    process.exit(0);
  });
}
