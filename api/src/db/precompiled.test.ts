import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testsOnPostgres, type TestApp } from '../../test-support/testing';
import { precompiled } from './database';

/**
 * The hot path's reads (db/database.ts `precompiled`): on a SQLite file they come at once from a
 * second, read-only connection. They must see every committed write at once and never another
 * request's transaction before it commits; inside a transaction they read through it.
 */
let t: TestApp;
const organizationName = precompiled((db) => db.selectFrom('organizations').select('name').where('id', '=', 0));

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.cleanup());

describe('precompiled reads', () => {
  it('see a committed write at once, an open transaction only from inside it', async () => {
    const { db } = t.deps;
    const { id } = await db.insertInto('organizations').values({ name: 'До', created_at: Date.now() }).returning('id').executeTakeFirstOrThrow();
    const rows = organizationName(db, [id]);
    // SQLite: no promise, no trip through Kysely's connection queue.
    if (!testsOnPostgres()) expect(Array.isArray(rows)).toBe(true);
    expect(await rows).toEqual([{ name: 'До' }]);

    await db.updateTable('organizations').set({ name: 'После' }).where('id', '=', id).execute();
    expect(await organizationName(db, [id])).toEqual([{ name: 'После' }]);

    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let seenInside: unknown;
    const transaction = db.transaction().execute(async (trx) => {
      await trx.updateTable('organizations').set({ name: 'Не сохранено' }).where('id', '=', id).execute();
      seenInside = await organizationName(trx, [id]);
      await held;
      throw new Error('rolled back');
    });
    await expect.poll(() => seenInside).toEqual([{ name: 'Не сохранено' }]);
    expect(await organizationName(db, [id])).toEqual([{ name: 'После' }]);
    release();
    await expect(transaction).rejects.toThrow('rolled back');
    expect(await organizationName(db, [id])).toEqual([{ name: 'После' }]);
  });
});
