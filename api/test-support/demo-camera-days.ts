import { expect } from 'vitest';
import { DEMO_PASSWORD, demoLeaves } from '../src/seed/demo-plan';
import { defaultVideoCacheDir, seedDemoIfEmpty } from '../src/seed/demo';
import type { TestApp } from './testing';

/**
 * The demo scene across days (issues 25 and 43): the assembly leaf's camera 1, its first clip of
 * each of the two days, seeded alone and longer than the default (a few work cycles each); the
 * analyst signed in. Cross-day, resolution and light tests train on day one and test on day two.
 */
export const DEMO_CAMERA_LEAF = demoLeaves[0]!;

export async function seedDemoCameraDays(t: TestApp, videoSeconds: number) {
  const seeded = await seedDemoIfEmpty(t.deps, {
    videoSeconds,
    videoCacheDir: defaultVideoCacheDir(),
    onlyClips: (l, clip) => l.slug === DEMO_CAMERA_LEAF.slug && clip.cameraKey === 1 && clip.clipIndex === 0,
  });
  expect(seeded).toBe(true);
  const cookie = await t.signIn('analyst', DEMO_PASSWORD);
  /** A JSON call as the analyst: the status and the parsed body (null when empty). */
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await t.request(path, { method, cookie, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null };
  };
  return { cookie, call };
}

/** The seeded camera's rows: structure, camera, the two days' videos, the first workplace and the main operations in order. */
export async function demoCameraDays(t: TestApp) {
  const { db } = t.deps;
  const leaf = DEMO_CAMERA_LEAF;
  const structure = await db.selectFrom('structures').select('id').where('name', '=', leaf.name).executeTakeFirstOrThrow();
  const camera = await db.selectFrom('cameras').select('id').where('structure_id', '=', structure.id).where('camera_key', '=', 1).executeTakeFirstOrThrow();
  const videos = await db.selectFrom('videos').selectAll().where('camera_id', '=', camera.id).orderBy('start_time').execute();
  expect(videos).toHaveLength(2);
  const workplace = await db
    .selectFrom('workplaces')
    .select('id')
    .where('structure_id', '=', structure.id)
    .where('name', '=', leaf.workplaces[0])
    .executeTakeFirstOrThrow();
  const operations = await db
    .selectFrom('operations')
    .select(['id', 'name'])
    .where('structure_id', '=', structure.id)
    .where('type', '=', 'main')
    .orderBy('id')
    .execute();
  return { structure, camera, dayOne: videos[0]!, dayTwo: videos[1]!, workplace, operations };
}
