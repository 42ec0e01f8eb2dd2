import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { registerUser } from '../../api/src/auth/service';
import { bootstrap } from '../../api/src/boot';
import { configFromEnv } from '../../api/src/config';
import { launchBrowser, signInThroughPage } from './browser';
import { apiSessionCookie, startServer, type RunningServer } from './server';

/**
 * Seeds a data folder, before a server is started on it, with one organisation: its admin `lead`
 * (Мария Иванова), a structure «Участок» and its camera 1 — what upload and ingest tests need.
 */
export async function seedCameraFolder(dataDir: string, password: string): Promise<{ structureId: number; cameraId: number }> {
  const { deps, close } = await bootstrap({ ...configFromEnv({ DATA_DIR: dataDir }), pwaDir: undefined });
  try {
    const lead = await registerUser(deps, { login: 'lead', password, firstName: 'Мария', lastName: 'Иванова' });
    const structureId = (
      await deps.db
        .insertInto('structures')
        .values({ organization_id: lead.organizationId, name: 'Участок', parent_id: null, created_at: Date.now() })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    const cameraId = (
      await deps.db
        .insertInto('cameras')
        .values({ structure_id: structureId, camera_key: 1, name: 'Камера 1', storage_folder: 'rec/1' })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    return { structureId, cameraId };
  } finally {
    await close();
  }
}

/** What an upload test in Chromium works with: a server on a seeded camera folder, and `lead` signed in there and by API. */
export interface CameraFolderApp {
  server: RunningServer;
  page: Page;
  /** `lead`'s session cookie for API calls. */
  cookie: string;
  structureId: number;
  cameraId: number;
  dataDir: string;
  /** A background job's status as the API reports it. */
  jobStatus(jobId: number): Promise<string>;
  stop(): Promise<void>;
}

/** Seeds a fresh data folder (seedCameraFolder), starts the server and Chromium on it and signs `lead` in on a 1280×900 page. */
export async function startCameraFolderApp(prefix: string): Promise<CameraFolderApp> {
  const password = 'secret-pass';
  const dataDir = mkdtempSync(join(tmpdir(), prefix));
  const { structureId, cameraId } = await seedCameraFolder(dataDir, password);
  const [server, browser] = await Promise.all([startServer({}, { dataDir }), launchBrowser()]);
  const cookie = await apiSessionCookie(server.url, 'lead', password);
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  await signInThroughPage(page, server.url, 'lead', password);
  return {
    server,
    page,
    cookie,
    structureId,
    cameraId,
    dataDir,
    jobStatus: async (jobId) => ((await (await fetch(`${server.url}/api/v1/jobs/${jobId}`, { headers: { cookie } })).json()) as { status: string }).status,
    async stop() {
      await browser.close();
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
