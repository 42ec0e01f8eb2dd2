import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { DEFAULT_MEDIA_LIMITS, type MediaLimits } from '@norma/workers/media-limits';
import { parseTrustedProxies } from './http/client-address';

export interface Config {
  port: number;
  dataDir: string;
  /** DATA_DIR was set: a missing folder then means a lost disk or a typo, not a first run. */
  dataDirGiven: boolean;
  /** NORMA_FIRST_RUN=1: start with an empty database where data seems lost (see storage/data-dir.ts). */
  firstRun: boolean;
  /** Public origin of the app, used for auth cookies and the Origin check. */
  baseUrl: string;
  /** Secret for signing sessions; generated and kept in DATA_DIR when not given. */
  authSecret?: string;
  /** Seed the demo organisation into an empty database. */
  demo: boolean;
  /**
   * Seed the demo's exhibition hall on real footage and queue its tracking (seed/demo-hall.ts);
   * NORMA_DEMO_HALL=0 leaves it out — the test servers do: its tracking takes minutes of both cores.
   */
  demoHall: boolean;
  /** Length of each generated demo video, seconds. */
  demoVideoSeconds: number;
  /** Sign-in attempts allowed per client address per minute. */
  signInPerMinute: number;
  /** Self-registration attempts allowed per client address per hour (NORMA_REGISTER_PER_HOUR). */
  registerPerHour: number;
  /** Bounds on a user's share keys (report/share-routes.ts; docs/architecture.md «Пределы запросов»). */
  shareKeys: ShareKeyLimits;
  /** Reverse proxies whose X-Forwarded-For names the client (NORMA_TRUSTED_PROXY; http/client-address.ts). */
  trustedProxies: string[];
  /** Folder with the built PWA (index.html, assets); absent in API-only tests. */
  pwaDir?: string;
  /** Largest accepted upload (POST /api/v1/upload), bytes; 4 GiB by default. */
  uploadMaxBytes: number;
  /** How long a GET may take before it is answered 503 (NORMA_READ_TIME_BUDGET_SECONDS, default 30 s; http/time-budget.ts). */
  readTimeBudgetMs: number;
  /** Loader packages beside DATA_DIR/loader (NORMA_LOADER_DIR, default loader/dist). */
  loaderDir: string;
  /** Run background jobs (video ingest) in this process; NORMA_WORKERS=0 turns them off. */
  workers: boolean;
  /** Record camera streams in this process (live/recorder.ts, docs/live-cameras.md); NORMA_RECORDERS=0 turns it off. */
  recorders: boolean;
  /** Jobs a runner (in this process or `npm run workers`) runs at once (NORMA_JOB_SLOTS, default `defaultJobSlots()`; api/src/jobs/runner.ts). */
  jobSlots: number;
  /** What a recording may be and what each media process may take (NORMA_MEDIA_*; workers/src/media/limits.ts, docs/video-storage.md). */
  media: MediaLimits;
  /** Default detector of GET /api/v1/humans (NORMA_HUMAN_DETECTOR; docs/vision.md «Детектор людей»). */
  humanDetector: 'movenet-multipose' | 'background-subtraction-blobs';
  /** PostgreSQL instead of DATA_DIR/norma.sqlite when DATABASE_URL is set (postgres://…; db/postgres.ts, docs/deployment.md). */
  databaseUrl?: string;
  /** A PMTiles archive to serve as the map's basemap (NORMA_BASEMAP, e.g. a full city); absent: the built-in Natural Earth one (docs/map.md). */
  basemapFile?: string;
  /**
   * A maplibre style (JSON file, NORMA_MAP_STYLE) for the operator's own archive, whose layers are
   * not the built-in `land` and `borders`; `{origin}` in it becomes the server's address (docs/map.md).
   */
  mapStyleFile?: string;
  /** Objects in an S3-compatible bucket instead of DATA_DIR/objects when NORMA_S3_BUCKET is set (storage/s3-object-store.ts, docs/deployment.md). */
  s3?: S3Config;
  /** Public site (docs/site.md): robot check, contact requests and their mail notice. */
  site: SiteConfig;
}

export interface ShareKeyLimits {
  /** Live (not revoked) share keys one user may hold (NORMA_SHARE_KEYS_PER_USER, default 1000). */
  livePerUser: number;
  /** Share keys one user may create per hour (NORMA_SHARE_KEYS_PER_HOUR, default 20). */
  perHour: number;
}

export interface SiteConfig {
  /** Upper bound of the robot check's work (NORMA_ALTCHA_MAXNUMBER): the counter a browser must reach, drawn from [max/2, max]. */
  altchaMaxNumber: number;
  /** How long a robot-check challenge stays valid, seconds (NORMA_ALTCHA_EXPIRE_SECONDS). */
  altchaExpireSeconds: number;
  /** Contact requests allowed per client address per hour (NORMA_FEEDBACK_PER_HOUR). */
  feedbackPerHour: number;
  /** The mailbox the contact form names when sending fails (NORMA_CONTACT_EMAIL). */
  contactEmail: string;
  /** SMTP server for new-request notices, e.g. smtp://user:pass@mail.local:587 (NORMA_SMTP_URL); absent: no mail. */
  smtpUrl?: string;
  /** Who gets the notices (NORMA_FEEDBACK_TO, comma-separated). */
  feedbackTo?: string;
  /** Sender of the notices (NORMA_SMTP_FROM). */
  smtpFrom: string;
  /** Outside sites the pages link to (NORMA_LINK_*); a link whose address is not set is not shown. */
  links: SiteLinks;
}

/** The outside sites of the public pages and the header (docs/site.md «Внешние ссылки»). */
export interface SiteLinks {
  /** The task tracker: header and products (NORMA_LINK_TRACKER). */
  tracker?: string;
  /** The formwork design plugin: products (NORMA_LINK_FORMWORK). */
  formwork?: string;
  /** The micro-district design tool: products (NORMA_LINK_DISTRICT). */
  district?: string;
  /** The publication profiles of the footer (NORMA_LINK_ELIBRARY, NORMA_LINK_SCHOLAR). */
  elibrary?: string;
  scholar?: string;
}

const LINK_VARIABLES = {
  tracker: 'NORMA_LINK_TRACKER',
  formwork: 'NORMA_LINK_FORMWORK',
  district: 'NORMA_LINK_DISTRICT',
  elibrary: 'NORMA_LINK_ELIBRARY',
  scholar: 'NORMA_LINK_SCHOLAR',
} as const satisfies Record<keyof SiteLinks, string>;

/** The set NORMA_LINK_* addresses; one that is not an http(s) address stops the start with a message. */
export function siteLinksFromEnv(env: Record<string, string | undefined>): SiteLinks {
  const links: SiteLinks = {};
  for (const [key, variable] of Object.entries(LINK_VARIABLES) as Array<[keyof SiteLinks, string]>) {
    const value = env[variable]?.trim();
    if (!value) continue;
    let url: URL | null = null;
    try {
      url = new URL(value);
    } catch {}
    if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:'))
      throw new Error(`${variable}: ожидается адрес http:// или https://, получено «${value}»`);
    links[key] = url.href;
  }
  return links;
}

export interface S3Config {
  bucket: string;
  endpoint?: string;
  region?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** Key prefix inside the bucket (NORMA_S3_PREFIX). */
  prefix?: string;
  /** NORMA_S3_VIRTUAL_HOSTED=1: bucket in the host name instead of the path. */
  virtualHostedStyle: boolean;
  /** This process's work files and downloads for ffprobe (NORMA_S3_CACHE_DIR, default DATA_DIR/s3-cache). */
  cacheDir: string;
}

/**
 * Job slots when NORMA_JOB_SLOTS is not set: one per processor core, and never fewer than 2, so that
 * an ingest always finds a slot beside the long jobs (they never take a runner's last free slot,
 * jobs/runner.ts). Decoding is most of a vision job and ffmpeg's frame threads use the other cores
 * while a job's own JavaScript waits, so one job per core keeps a big machine busy without splitting
 * a recording (docs/performance.md, «Пропускная способность зрения»).
 */
export function defaultJobSlots(cores = availableParallelism()): number {
  return Math.max(2, cores);
}

export function configFromEnv(env: Record<string, string | undefined> = process.env): Config {
  const port = Number(env.PORT ?? 3000);
  return {
    port,
    dataDir: resolve(env.DATA_DIR ?? 'data'),
    dataDirGiven: Boolean(env.DATA_DIR),
    firstRun: env.NORMA_FIRST_RUN === '1',
    baseUrl: env.NORMA_BASE_URL ?? `http://localhost:${port}`,
    authSecret: env.NORMA_AUTH_SECRET,
    demo: env.NORMA_DEMO !== '0',
    demoHall: env.NORMA_DEMO_HALL !== '0',
    demoVideoSeconds: Number(env.NORMA_DEMO_VIDEO_SECONDS ?? 150),
    signInPerMinute: Number(env.NORMA_SIGNIN_PER_MINUTE ?? 10),
    registerPerHour: Number(env.NORMA_REGISTER_PER_HOUR ?? 10),
    shareKeys: {
      livePerUser: positiveInteger(env.NORMA_SHARE_KEYS_PER_USER, 1000),
      perHour: positiveInteger(env.NORMA_SHARE_KEYS_PER_HOUR, 20),
    },
    trustedProxies: parseTrustedProxies(env.NORMA_TRUSTED_PROXY),
    pwaDir: resolve(env.NORMA_PWA_DIR ?? 'pwa/dist'),
    uploadMaxBytes: Number(env.NORMA_UPLOAD_MAX_BYTES ?? 4 * 1024 ** 3),
    readTimeBudgetMs: positiveNumber(env.NORMA_READ_TIME_BUDGET_SECONDS, 30) * 1000,
    loaderDir: resolve(env.NORMA_LOADER_DIR ?? 'loader/dist'),
    workers: env.NORMA_WORKERS !== '0',
    recorders: env.NORMA_RECORDERS !== '0',
    jobSlots: positiveInteger(env.NORMA_JOB_SLOTS, defaultJobSlots()),
    media: mediaLimitsFromEnv(env),
    humanDetector: env.NORMA_HUMAN_DETECTOR === 'background-subtraction-blobs' ? 'background-subtraction-blobs' : 'movenet-multipose',
    databaseUrl: env.DATABASE_URL || undefined,
    basemapFile: env.NORMA_BASEMAP ? resolve(env.NORMA_BASEMAP) : undefined,
    mapStyleFile: env.NORMA_MAP_STYLE ? resolve(env.NORMA_MAP_STYLE) : undefined,
    s3: env.NORMA_S3_BUCKET
      ? {
          bucket: env.NORMA_S3_BUCKET,
          endpoint: env.NORMA_S3_ENDPOINT || undefined,
          region: env.NORMA_S3_REGION || undefined,
          accessKeyId: env.NORMA_S3_ACCESS_KEY_ID || undefined,
          secretAccessKey: env.NORMA_S3_SECRET_ACCESS_KEY || undefined,
          prefix: env.NORMA_S3_PREFIX || undefined,
          virtualHostedStyle: env.NORMA_S3_VIRTUAL_HOSTED === '1',
          cacheDir: resolve(env.NORMA_S3_CACHE_DIR ?? join(env.DATA_DIR ?? 'data', 's3-cache')),
        }
      : undefined,
    site: {
      altchaMaxNumber: Number(env.NORMA_ALTCHA_MAXNUMBER ?? 5_000),
      altchaExpireSeconds: Number(env.NORMA_ALTCHA_EXPIRE_SECONDS ?? 600),
      feedbackPerHour: Number(env.NORMA_FEEDBACK_PER_HOUR ?? 10),
      contactEmail: env.NORMA_CONTACT_EMAIL || 'info@norma.local',
      smtpUrl: env.NORMA_SMTP_URL || undefined,
      feedbackTo: env.NORMA_FEEDBACK_TO || undefined,
      smtpFrom: env.NORMA_SMTP_FROM || 'Norma <noreply@norma.local>',
      links: siteLinksFromEnv(env),
    },
  };
}

/** A positive number from the environment; anything else (unset, 0, text) is the default. */
function positiveNumber(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return value && Number.isFinite(n) && n > 0 ? n : fallback;
}

/** A positive whole number from the environment; anything else (unset, 0, text, 2.5) is the default. */
function positiveInteger(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return value && Number.isInteger(n) && n > 0 ? n : fallback;
}

/** The media bounds and caps (NORMA_MEDIA_*; README «Настройки»): an unset or invalid value keeps its default. */
function mediaLimitsFromEnv(env: Record<string, string | undefined>): MediaLimits {
  const d = DEFAULT_MEDIA_LIMITS;
  return {
    maxSide: positiveNumber(env.NORMA_MEDIA_MAX_SIDE, d.maxSide),
    maxPixels: positiveNumber(env.NORMA_MEDIA_MAX_PIXELS, d.maxPixels),
    maxFps: positiveNumber(env.NORMA_MEDIA_MAX_FPS, d.maxFps),
    maxSeconds: positiveNumber(env.NORMA_MEDIA_MAX_SECONDS, d.maxSeconds),
    timeFactor: positiveNumber(env.NORMA_MEDIA_TIME_FACTOR, d.timeFactor),
    memoryBaseBytes: positiveNumber(env.NORMA_MEDIA_MEMORY_MB, d.memoryBaseBytes / 1024 ** 2) * 1024 ** 2,
    memoryPerPixel: d.memoryPerPixel,
  };
}
