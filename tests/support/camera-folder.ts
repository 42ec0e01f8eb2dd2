import { registerUser } from '../../api/src/auth/service';
import { bootstrap } from '../../api/src/boot';
import { configFromEnv } from '../../api/src/config';

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
