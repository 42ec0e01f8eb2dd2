import { CLIENT_IP_HEADER } from './auth/auth';
import { bootstrap } from './boot';
import { configFromEnv } from './config';
import { startWorkers } from './jobs/workers';
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
  // Uploads are streamed to storage; the route itself answers 413 past config.uploadMaxBytes.
  maxRequestBodySize: config.uploadMaxBytes + 1024 * 1024,
  fetch(request, server) {
    // The client address is set here, never taken from the client, for sign-in rate limiting.
    const headers = new Headers(request.headers);
    headers.set(CLIENT_IP_HEADER, server.requestIP(request)?.address ?? 'unknown');
    return app.fetch(new Request(request, { headers }));
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
