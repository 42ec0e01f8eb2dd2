import { resolve } from 'node:path';

export interface Config {
  port: number;
  dataDir: string;
  /** Public origin of the app, used for auth cookies and the Origin check. */
  baseUrl: string;
  /** Secret for signing sessions; generated and kept in DATA_DIR when not given. */
  authSecret?: string;
  /** Seed the demo organisation into an empty database. */
  demo: boolean;
  /** Length of each generated demo video, seconds. */
  demoVideoSeconds: number;
  /** Sign-in attempts allowed per client address per minute. */
  signInPerMinute: number;
  /** Folder with the built PWA (index.html, assets); absent in API-only tests. */
  pwaDir?: string;
}

export function configFromEnv(env: Record<string, string | undefined> = process.env): Config {
  const port = Number(env.PORT ?? 3000);
  return {
    port,
    dataDir: resolve(env.DATA_DIR ?? 'data'),
    baseUrl: env.NORMA_BASE_URL ?? `http://localhost:${port}`,
    authSecret: env.NORMA_AUTH_SECRET,
    demo: env.NORMA_DEMO !== '0',
    demoVideoSeconds: Number(env.NORMA_DEMO_VIDEO_SECONDS ?? 150),
    signInPerMinute: Number(env.NORMA_SIGNIN_PER_MINUTE ?? 10),
    pwaDir: resolve(env.NORMA_PWA_DIR ?? 'pwa/dist'),
  };
}
