import { CLIENT_IP_HEADER } from './auth/auth';
import { bootstrap } from './boot';
import { configFromEnv } from './config';
import { defaultVideoCacheDir, seedDemoIfEmpty } from './seed/demo';

const config = configFromEnv();
const { app, deps } = await bootstrap(config);
if (config.demo) {
  await seedDemoIfEmpty(deps, { videoCacheDir: defaultVideoCacheDir(), log: (line) => console.log(`[seed] ${line}`) });
}

const server = Bun.serve({
  port: config.port,
  idleTimeout: 120,
  fetch(request, server) {
    // The client address is set here, never taken from the client, for sign-in rate limiting.
    const headers = new Headers(request.headers);
    headers.set(CLIENT_IP_HEADER, server.requestIP(request)?.address ?? 'unknown');
    return app.fetch(new Request(request, { headers }));
  },
});
console.log(`Norma слушает ${config.baseUrl} (порт ${server.port}, данные: ${config.dataDir})`);
